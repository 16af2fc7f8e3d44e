import { Pool, type PoolClient, type PoolConfig } from 'pg';

/**
 * Every service pool gets a server-side statement timeout and a connection-acquire timeout unless
 * its caller sets its own (issue 16): a slow or stuck query then fails with a message instead of
 * holding a connection, and a request waiting for a connection from an exhausted pool (or an
 * unreachable server) fails after a few seconds instead of queueing forever. A transaction left
 * idle (its code awaiting something else, an RPC call say) is ended by the server after
 * DEFAULT_IDLE_IN_TRANSACTION_MS, so its row locks cannot be held indefinitely. 0 disables each.
 */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000;
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
export const DEFAULT_IDLE_IN_TRANSACTION_MS = 60_000;

/** `config` with the timeouts above where it does not set them. */
export function withPoolTimeouts(config: PoolConfig): PoolConfig {
  return {
    ...config,
    statement_timeout: config.statement_timeout ?? DEFAULT_STATEMENT_TIMEOUT_MS,
    idle_in_transaction_session_timeout: config.idle_in_transaction_session_timeout ?? DEFAULT_IDLE_IN_TRANSACTION_MS,
    connectionTimeoutMillis: config.connectionTimeoutMillis ?? DEFAULT_CONNECT_TIMEOUT_MS,
  };
}

/**
 * A pg Pool that survives its server: an idle connection that Postgres terminates (restart,
 * failover, `DROP DATABASE ... WITH (FORCE)`) emits `error` on the pool, which crashes the
 * process when nobody listens. The pool drops that client by itself; the next query opens a
 * new connection, so reporting is all that is left to do. Timeouts: `withPoolTimeouts`.
 */
export function createPgPool(config: PoolConfig, onError: (message: string) => void = () => undefined): Pool {
  const pool = new Pool(withPoolTimeouts(config));
  pool.on('error', (e: Error) => onError(`postgres connection lost (${e.message}); the pool reconnects on the next query`));
  return pool;
}

export interface TransactionOptions {
  /** default READ COMMITTED (the server's) */
  isolation?: 'READ COMMITTED' | 'REPEATABLE READ' | 'SERIALIZABLE';
  readOnly?: boolean;
}

/** Thrown inside `inTransaction` to roll back on purpose: the transaction resolves with `value`. */
export class Rollback<T> extends Error {
  constructor(readonly value: T) {
    super('rolled back on purpose');
  }
}

/**
 * Runs `fn` in one transaction on one connection of `pool`: committed when it returns, rolled
 * back when it throws (the error is rethrown; a `Rollback` resolves with its value instead). A connection that cannot even roll back, or that
 * the server ended while no statement ran (reported as an `error` event, which would otherwise
 * crash the process), is dropped instead of going back to the pool. Every hand-written
 * transaction of the apps goes through here.
 */
export async function inTransaction<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>, opts: TransactionOptions = {}): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const onError = (e: Error): void => void (broken ??= e);
  client.on('error', onError);
  try {
    await client.query(`BEGIN${opts.isolation ? ` ISOLATION LEVEL ${opts.isolation}` : ''}${opts.readOnly ? ' READ ONLY' : ''}`);
    const out = await fn(client);
    await client.query('COMMIT');
    return out;
  } catch (e) {
    await client.query('ROLLBACK').catch((err: Error) => (broken ??= err));
    if (e instanceof Rollback && broken === undefined) return e.value as T;
    throw e;
  } finally {
    client.off('error', onError);
    client.release(broken);
  }
}
