import { Pool, type PoolConfig } from 'pg';

/**
 * A pg Pool that survives its server: an idle connection that Postgres terminates (restart,
 * failover, `DROP DATABASE ... WITH (FORCE)`) emits `error` on the pool, which crashes the
 * process when nobody listens. The pool drops that client by itself; the next query opens a
 * new connection, so reporting is all that is left to do.
 */
export function createPgPool(config: PoolConfig, onError: (message: string) => void = () => undefined): Pool {
  const pool = new Pool(config);
  pool.on('error', (e: Error) => onError(`postgres connection lost (${e.message}); the pool reconnects on the next query`));
  return pool;
}
