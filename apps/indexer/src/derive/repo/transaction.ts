/**
 * A transaction outside the pipeline's batches (head refresh): on the app's TypeORM DataSource
 * when there is one, else on a short-lived pg connection to `databaseUrl`.
 */
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import type { SqlTx } from './sql';

/**
 * A SqlTx whose statements run one at a time, in the order issued. Callers of a SqlTx may issue
 * several without awaiting the previous one (writeDerived's Promise.all, as on the pipeline's
 * PgTx); passed on as they come, they would overlap on the transaction's one connection, which
 * pg 8 only queues with a deprecation warning and pg 9 refuses.
 */
class OneAtATime implements SqlTx {
  private tail: Promise<unknown> = Promise.resolve();
  /** the first statement that failed (a COMMIT after it would silently roll back) */
  firstError: unknown;
  constructor(private readonly run: <R>(sql: string, params?: unknown[]) => Promise<R[]>) {}

  query<R>(sql: string, params?: unknown[]): Promise<R[]> {
    const p = this.tail.then(() => this.run<R>(sql, params));
    this.tail = p.catch((e: unknown) => {
      this.firstError ??= e;
    });
    return p;
  }

  /** every statement issued so far has run (COMMIT or ROLLBACK must not overlap one either) */
  async settled(): Promise<void> {
    for (let t = this.tail; ; t = this.tail) {
      await t;
      if (t === this.tail) return;
    }
  }
}

export async function withTransaction<T>(ds: DataSource | undefined, databaseUrl: string, fn: (tx: SqlTx) => Promise<T>): Promise<T> {
  if (ds) {
    const qr = ds.createQueryRunner();
    await qr.connect();
    // Structured results: TypeORM returns [rows, count] for UPDATE/DELETE otherwise.
    const tx = new OneAtATime(async <R>(sql: string, params?: unknown[]) => (await qr.query(sql, params, true)).records as R[]);
    try {
      await qr.startTransaction();
      const result = await fn(tx);
      await tx.settled();
      if (tx.firstError !== undefined) throw tx.firstError;
      await qr.commitTransaction();
      return result;
    } catch (e) {
      await tx.settled();
      if (qr.isTransactionActive) await qr.rollbackTransaction();
      throw e;
    } finally {
      await qr.release();
    }
  }
  const client = new Client({ connectionString: databaseUrl, application_name: 'indexer-derive' });
  await client.connect();
  const tx = new OneAtATime(async <R>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as R[]);
  try {
    await client.query('BEGIN');
    const result = await fn(tx);
    await tx.settled();
    if (tx.firstError !== undefined) throw tx.firstError;
    await client.query('COMMIT');
    return result;
  } catch (e) {
    await tx.settled();
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    await client.end();
  }
}
