import { Client } from 'pg';
import { dropDatabase, migrate, MIGRATIONS } from '@tokensvc/persistence';
import type { QueryRunner } from 'typeorm';
import { createTestDatabaseUrl } from '@tokensvc/testing';
import { emptyLedger } from '../engine/model';
import { foldCandles, RESOLUTIONS, type CandlePoint } from '../math/candles';
import { writePoints } from './points.repo';
import type { SqlTx } from './sql';
import { upsertCandles } from './candles.repo';

/**
 * The candle upsert merges a bucket written in parts (one per batch, or per block when indexing
 * live) into what one write of all its points gives, also when a part has no priced point (a token
 * minted before any pool priced it): such a part never opens, lowers or closes the candle.
 */
describe('candle upsert', () => {
  const url = createTestDatabaseUrl('candles_repo');
  let client: Client;
  const tx: SqlTx = { query: async <T>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as T[] };
  const t0 = Date.parse('2026-03-10T10:00:00Z') / 1000;
  const state = {
    liquidity: 100,
    reserves: [1n, 2n],
    totalSupply: 10n,
    totalBorrow: 0n,
    circulatingSupply: 10n,
    pricePerShare: '1',
    apy: 1,
    baseApy: 1,
    rewardApy: 0,
    borrowApy: 0,
    baseBorrowApy: 0,
  };
  /** WETH-like: minted (price 0) twice before its pool priced it, later priced in the same buckets */
  const prices = [0, 0, 2_000, 2_050, 1_980, 0, 2_010];
  const points: CandlePoint[] = prices.map((price, i) => ({
    ...state,
    tokenKey: 'ethereum:0xa',
    blockNumber: 10 + i,
    time: t0 + 60 * i,
    price,
    totalSupply: BigInt(i + 1),
  }));
  const rows = async (): Promise<unknown[]> => (await client.query(`SELECT * FROM candles ORDER BY token_key, resolution, bucket`)).rows;

  beforeAll(async () => {
    await migrate(url);
    client = new Client({ connectionString: url });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
    await dropDatabase(url);
  });

  it('opens each candle at the first priced point, whatever the parts it is written in', async () => {
    await upsertCandles(tx, foldCandles(points));
    const whole = await rows();
    expect(whole).toHaveLength(RESOLUTIONS.length);
    for (const c of whole) expect(c).toMatchObject({ open: 2_000, high: 2_050, low: 1_980, close: 2_010, block_number: '16' });
    // Two writes (e.g. a backfill's last batch, then the blocks after it indexed live) ...
    for (let cut = 1; cut < points.length; cut++) {
      await client.query(`DELETE FROM candles`);
      for (const part of [points.slice(0, cut), points.slice(cut)]) await upsertCandles(tx, foldCandles(part));
      expect({ cut, rows: await rows() }).toEqual({ cut, rows: whole });
    }
    // ... and one write per block.
    await client.query(`DELETE FROM candles`);
    for (const p of points) await upsertCandles(tx, foldCandles([p]));
    expect(await rows()).toEqual(whole);
  });

  it('stores no candle for a bucket without a priced point, but an unpriced part updates the state of a stored one', async () => {
    await client.query(`DELETE FROM candles`);
    const unpriced = points.slice(0, 2);
    await upsertCandles(tx, foldCandles(unpriced));
    expect(await rows()).toEqual([]);
    // A bucket whose last point has no price (an LP token whose supply went to 0, say).
    const tail = [points[2]!, { ...points[5]!, liquidity: 0, totalSupply: 0n }];
    await upsertCandles(tx, foldCandles(tail));
    const whole = await rows();
    await client.query(`DELETE FROM candles`);
    for (const p of tail) await upsertCandles(tx, foldCandles([p]));
    expect(await rows()).toEqual(whole);
    for (const c of whole)
      expect(c).toMatchObject({ open: 2_000, high: 2_000, low: 2_000, close: 2_000, liquidity: 0, total_supply: '0', block_number: '15' });
  });

  it('repairs candles stored before (opened and lowed at 0) from the price points, in a migration', async () => {
    await client.query(`DELETE FROM candles`);
    await upsertCandles(tx, foldCandles(points));
    const whole = await rows();
    await writePoints(
      tx,
      points.map((p) => ({ ...p, ledger: emptyLedger() })),
    );
    // As the old fold wrote them: open = first point's price, low = min over all points.
    await client.query(`UPDATE candles SET open = 0, low = 0`);
    // A bucket with no priced point at all, stored at 0 before: no candle now.
    const unpriced = { ...points[0]!, tokenKey: 'ethereum:0xb' };
    await writePoints(tx, [{ ...unpriced, ledger: emptyLedger() }]);
    await client.query(
      `INSERT INTO candles (token_key, resolution, bucket, open, high, low, close, block_number)
      SELECT 'ethereum:0xb', r, date_trunc('hour', to_timestamp($1)), 0, 0, 0, 0, $2 FROM unnest($3::text[]) AS r`,
      [unpriced.time, unpriced.blockNumber, RESOLUTIONS],
    );
    const repair = MIGRATIONS.find((m) => m.name === 'CandlesPricedOhlc1764960000000')!;
    await new repair().up({ query: (sql: string, params?: unknown[]) => client.query(sql, params) } as unknown as QueryRunner);
    const after = await rows();
    expect(after.filter((c) => (c as { token_key: string }).token_key === 'ethereum:0xa')).toEqual(whole);
    expect(after.filter((c) => (c as { token_key: string }).token_key === 'ethereum:0xb')).toEqual([]);
  });
});
