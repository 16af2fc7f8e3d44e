import { createPgPool } from '@tokensvc/persistence';
import { INFRA, watchPgOverlaps, type PgOverlapWatch } from '@tokensvc/testing';
import { withTransaction } from './transaction';

/**
 * The head refresh's transaction is handed statements without awaiting the previous one (its
 * writes go through Promise.all, as on the pipeline's queued PgTx): they must still reach the
 * connection one at a time, in order, on the app's pool and on the one-connection pool of a
 * Deriver built without one. `npm start` printed pg's "Calling client.query() when the client is
 * already executing a query" for the indexer from there.
 */
describe('withTransaction (derive head refresh)', () => {
  let watch: PgOverlapWatch;
  beforeEach(() => (watch = watchPgOverlaps()));
  afterEach(() => watch.restore());

  const statements = async (tx: Parameters<Parameters<typeof withTransaction>[2]>[0]): Promise<number[]> => {
    await tx.query(`CREATE TEMP TABLE issued (n int) ON COMMIT DROP`);
    // Issued at once; the first one takes longest, so any overlap would reorder the inserts.
    await Promise.all([1, 2, 3, 4].map((n) => tx.query(`INSERT INTO issued SELECT $1::int FROM pg_sleep($2)`, [n, n === 1 ? 0.05 : 0])));
    return (await tx.query<{ n: number }>(`SELECT n FROM issued ORDER BY ctid`)).map((r) => r.n);
  };

  it('runs statements issued together one at a time without a pool (a connection of its own)', async () => {
    expect(await withTransaction(undefined, INFRA.postgres, statements)).toEqual([1, 2, 3, 4]);
    expect(watch.overlaps).toEqual([]);
  });

  it("runs statements issued together one at a time on the app's pool", async () => {
    const pool = createPgPool({ connectionString: INFRA.postgres, max: 2 });
    try {
      expect(await withTransaction(pool, INFRA.postgres, statements)).toEqual([1, 2, 3, 4]);
      expect(watch.overlaps).toEqual([]);
    } finally {
      await pool.end();
    }
  });

  it('rolls back, after the statements issued, when one of them failed', async () => {
    const failing = withTransaction(undefined, INFRA.postgres, async (tx) => {
      await tx.query(`CREATE TEMP TABLE issued (n int)`);
      void tx.query(`INSERT INTO issued VALUES (1/0)`).catch(() => undefined);
      return 'returned';
    });
    await expect(failing).rejects.toThrow(/division by zero/);
    expect(watch.overlaps).toEqual([]);
  });
});
