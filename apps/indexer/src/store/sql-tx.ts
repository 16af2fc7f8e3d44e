import type { Pool, PoolClient } from 'pg';
import type { SqlTx } from '../pipeline/derivation.port';
import { copyIn } from './copy-in';

/** The open transaction of one batch, as the derivation stage sees it. */
export class PgTx implements SqlTx {
  /** One connection runs one statement at a time; callers may still fire several (Promise.all). */
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly client: PoolClient) {}

  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]> {
    const run = this.tail.then(async () => (await this.client.query(sql, params)).rows as T[]);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** COPY ... FROM STDIN of tab-separated lines; resolves with the rows copied. */
  copy(text: string, payload: string): Promise<number> {
    const run = this.tail.then(() => copyIn(this.client, text, payload));
    this.tail = run.catch(() => undefined);
    return run;
  }
}

/** Runs `fn` in one transaction on one pooled connection: committed when it returns, rolled back when it throws. */
export async function inTransaction<T>(pool: Pool, fn: (tx: PgTx) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const out = await fn(new PgTx(client));
    await client.query('COMMIT');
    return out;
  } catch (e) {
    // A connection that cannot even roll back is dropped from the pool.
    await client.query('ROLLBACK').catch((err: Error) => (broken = err));
    throw e;
  } finally {
    client.release(broken);
  }
}

/** Plain queries outside a transaction, through the pool. */
export function poolQuery(pool: Pool): SqlTx {
  return {
    query: async <T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]> => (await pool.query(sql, params)).rows as T[],
  };
}
