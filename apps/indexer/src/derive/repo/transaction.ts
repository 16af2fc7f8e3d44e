/**
 * A transaction outside the pipeline's batches (the head refresh), through the same path as the
 * batches: libs/persistence's `inTransaction` with statements queued on one connection
 * (store/sql-tx.ts). A Deriver built outside Nest (tests, tools) has no pool: it gets a
 * one-connection pool for the transaction.
 */
import type { Pool } from 'pg';
import { createPgPool } from '@tokensvc/persistence';
import { inTransaction } from '../../store/sql-tx';
import type { SqlTx } from './sql';

export async function withTransaction<T>(pool: Pool | undefined, databaseUrl: string, fn: (tx: SqlTx) => Promise<T>): Promise<T> {
  if (pool) return inTransaction(pool, fn);
  const own = createPgPool({ connectionString: databaseUrl, max: 1, application_name: 'indexer-derive' });
  try {
    return await inTransaction(own, fn);
  } finally {
    await own.end();
  }
}
