import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Candle OHLC is now taken over the bucket's priced state points only: a point with price 0 (the
 * token had no price yet, e.g. WETH minted before any pool priced it) no longer opens or lowers a
 * candle, and a bucket without a priced point has no candle. Candles written before (a token's
 * first candles opened and lowed at 0) are recomputed here from `price_points`; only rows with a 0
 * in their OHLC can differ, and they are few (a token's first buckets).
 */
const PRICED_IN_BUCKET = `FROM price_points pp
  WHERE pp.token_key = k.token_key AND pp.price > 0 AND pp.time >= k.bucket
    AND pp.time < k.bucket + CASE k.resolution WHEN '15m' THEN interval '15 minutes' WHEN '30m' THEN interval '30 minutes'
                              WHEN '1h' THEN interval '1 hour' WHEN '4h' THEN interval '4 hours' ELSE interval '1 day' END`;

export class CandlesPricedOhlc1764960000000 implements MigrationInterface {
  name = 'CandlesPricedOhlc1764960000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM candles k WHERE (k.open = 0 OR k.low = 0 OR k.close = 0) AND NOT EXISTS (SELECT 1 ${PRICED_IN_BUCKET})`);
    await q.query(
      `UPDATE candles c SET open = p.open, high = p.high, low = p.low, close = p.close
       FROM candles k
       CROSS JOIN LATERAL (
         SELECT (array_agg(pp.price ORDER BY pp.block_number))[1] AS open, max(pp.price) AS high, min(pp.price) AS low,
                (array_agg(pp.price ORDER BY pp.block_number DESC))[1] AS close
         ${PRICED_IN_BUCKET}
       ) p
       WHERE (k.open = 0 OR k.low = 0 OR k.close = 0)
         AND c.token_key = k.token_key AND c.resolution = k.resolution AND c.bucket = k.bucket`,
    );
  }

  async down(): Promise<void> {
    // A data repair: the old figures (0 for "no price yet") are not worth restoring.
  }
}
