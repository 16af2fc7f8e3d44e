import type { Pool, PoolClient } from 'pg';
import { inTransaction as sharedTransaction } from '@tokensvc/persistence';
import type { SqlTx } from '../model/sql-tx';
import { copyIn } from './copy-in';

/**
 * The open transaction of one batch, as the derivation stage sees it. Statements may be issued
 * without awaiting the previous one: they are queued and run in order on the one connection, so
 * Postgres works through the queue while node computes the next step.
 */
export class PgTx implements SqlTx {
  private tail: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** the first statement that failed: every later one only reports the aborted transaction */
  firstError: Error | undefined;

  constructor(private readonly client: PoolClient) {}

  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]> {
    return this.enqueue(async () => (await this.client.query(sql, params)).rows as T[]);
  }

  /** COPY ... FROM STDIN of tab-separated lines; resolves with the rows copied. */
  copy(text: string, payload: string | readonly Buffer[]): Promise<number> {
    return this.enqueue(() => copyIn(this.client, text, payload));
  }

  /**
   * Fails the transaction with `e` (a check that found it must not commit, e.g. the lease's
   * fence): statements not started yet fail without running, and inTransaction reports `e`.
   */
  abort(e: Error): void {
    this.firstError ??= e;
    this.closed = true;
  }

  /**
   * Waits until every queued statement has run, then refuses new ones (a statement sent after
   * COMMIT or ROLLBACK would run outside the transaction). With `abort`, statements not started
   * yet fail without running.
   */
  async settle(abort = false): Promise<void> {
    if (abort) this.closed = true;
    for (let t = this.tail; ; t = this.tail) {
      await t;
      if (t === this.tail) break;
    }
    this.closed = true;
  }

  private enqueue<T>(run: () => Promise<T>): Promise<T> {
    const p = this.tail.then(() => {
      if (this.closed) throw new Error('statement issued after its transaction ended');
      return run();
    });
    this.tail = p.catch((e: Error) => {
      this.firstError ??= e;
    });
    return p;
  }
}

/**
 * Runs `fn` in one transaction (libs/persistence's `inTransaction`: commit, rollback, a broken
 * connection dropped) with its statements pipelined through a PgTx: every queued statement has
 * run before COMMIT, and a failure reports its root cause, not "current transaction is aborted"
 * from a statement queued behind it.
 */
export function inTransaction<T>(pool: Pool, fn: (tx: PgTx) => Promise<T>): Promise<T> {
  return sharedTransaction(pool, async (client) => {
    const tx = new PgTx(client);
    try {
      const out = await fn(tx);
      await tx.settle();
      if (tx.firstError) throw tx.firstError;
      return out;
    } catch (e) {
      await tx.settle(true);
      throw tx.firstError ?? e;
    }
  });
}

/** Plain queries outside a transaction, through the pool. */
export function poolQuery(pool: Pool): SqlTx {
  return {
    query: async <T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]> =>
      (await pool.query(sql, params)).rows as T[],
  };
}
