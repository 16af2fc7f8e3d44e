import { Pool } from 'pg';
import { dropDatabase, migrate } from '@tokensvc/persistence';
import { createTestDatabaseUrl } from '@tokensvc/testing';
import { copyIn } from './copy-in';
import { CopyWriter } from './copy-writer';
import { inTransaction } from './sql-tx';

/**
 * copyIn writes each payload buffer to the socket as one CopyData message (no copy through pg's
 * serializer): rows split across buffers, buffers larger than one message, empty buffers, and a
 * COPY that fails must all behave as pg's own COPY path does.
 */
describe('copyIn against Postgres', () => {
  const dbUrl = createTestDatabaseUrl('copy_in');
  let pool: Pool;

  beforeAll(async () => {
    await migrate(dbUrl);
    pool = new Pool({ connectionString: dbUrl, max: 2 });
    await pool.query(`CREATE TABLE t (n bigint PRIMARY KEY, s text NOT NULL)`);
  });

  afterAll(async () => {
    await pool?.end();
    await dropDatabase(dbUrl);
  });

  beforeEach(async () => {
    await pool.query(`TRUNCATE t`);
  });

  it('stores every row of a multi-chunk payload, rows cut at chunk ends included', async () => {
    const w = new CopyWriter();
    // ~3.1 MB: the writer's 1 MB buffers end mid-row
    for (let i = 0; i < 30_000; i++)
      w.plain(i)
        .text(`row ${i} ${'x'.repeat(90)}`)
        .endRow();
    const chunks = w.finish();
    expect(chunks.length).toBeGreaterThan(2);
    const client = await pool.connect();
    try {
      expect(await copyIn(client, `COPY t (n, s) FROM STDIN`, [Buffer.alloc(0), ...chunks, Buffer.alloc(0)])).toBe(30_000);
    } finally {
      client.release();
    }
    const [row] = (
      await pool.query<{ c: string; total: string; last: string }>(
        `SELECT count(*) AS c, sum(n) AS total, max(s) FILTER (WHERE n = 29999) AS last FROM t`,
      )
    ).rows;
    expect(row).toEqual({ c: '30000', total: String((29_999 * 30_000) / 2), last: `row 29999 ${'x'.repeat(90)}` });
  });

  it('sends a buffer larger than one CopyData message in several', async () => {
    const line = (i: number): string => `${i}\t${'y'.repeat(1000)}\n`;
    const big = Buffer.from(Array.from({ length: 20_000 }, (_, i) => line(i)).join('')); // ~20 MB, over the 16 MB message size
    const client = await pool.connect();
    try {
      expect(await copyIn(client, `COPY t (n, s) FROM STDIN`, [big])).toBe(20_000);
    } finally {
      client.release();
    }
    expect((await pool.query<{ c: string }>(`SELECT count(*) AS c FROM t WHERE length(s) = 1000`)).rows[0]!.c).toBe('20000');
  });

  it('fails the statement on a bad row, and the transaction with it, leaving the connection usable', async () => {
    await expect(
      inTransaction(pool, async (tx) => {
        await tx.copy(`COPY t (n, s) FROM STDIN`, '1\tone\n1\tagain\n');
      }),
    ).rejects.toThrow(/duplicate key/);
    expect((await pool.query<{ c: string }>(`SELECT count(*) AS c FROM t`)).rows[0]!.c).toBe('0');
    // the pool's connections still work
    await inTransaction(pool, async (tx) => {
      expect(await tx.copy(`COPY t (n, s) FROM STDIN`, '2\ttwo\n')).toBe(1);
    });
    expect((await pool.query<{ s: string }>(`SELECT s FROM t WHERE n = 2`)).rows[0]!.s).toBe('two');
  });
});
