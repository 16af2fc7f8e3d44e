/**
 * A transaction outside the pipeline's batches (head refresh): on the app's TypeORM DataSource
 * when there is one, else on a short-lived pg connection to `databaseUrl`.
 */
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import type { SqlTx } from './sql';

export async function withTransaction<T>(ds: DataSource | undefined, databaseUrl: string, fn: (tx: SqlTx) => Promise<T>): Promise<T> {
  if (ds) {
    const qr = ds.createQueryRunner();
    await qr.connect();
    try {
      await qr.startTransaction();
      // Structured results: TypeORM returns [rows, count] for UPDATE/DELETE otherwise.
      const result = await fn({ query: async <R>(sql: string, params?: unknown[]) => (await qr.query(sql, params, true)).records as R[] });
      await qr.commitTransaction();
      return result;
    } catch (e) {
      if (qr.isTransactionActive) await qr.rollbackTransaction();
      throw e;
    } finally {
      await qr.release();
    }
  }
  const client = new Client({ connectionString: databaseUrl, application_name: 'indexer-derive' });
  await client.connect();
  try {
    await client.query('BEGIN');
    const result = await fn({ query: async <R>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as R[] });
    await client.query('COMMIT');
    return result;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    await client.end();
  }
}
