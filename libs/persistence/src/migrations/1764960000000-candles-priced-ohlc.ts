import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Candle OHLC is now taken over the bucket's priced state points only: a point with price 0 (the
 * token had no price yet, e.g. WETH minted before any pool priced it) no longer opens or lowers a
 * candle, and a bucket without a priced point has OHLC 0. Candles written before (a token's first
 * candles opened and lowed at 0) are recomputed here from `price_points`; only rows with a 0 in
 * their OHLC can differ, and they are few (a token's first buckets).
 */
export class CandlesPricedOhlc1764960000000 implements MigrationInterface {
  name = 'CandlesPricedOhlc1764960000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `UPDATE candles c SET open = coalesce(p.open, 0), high = coalesce(p.high, 0), low = coalesce(p.low, 0), close = coalesce(p.close, 0)
       FROM candles k
       CROSS JOIN LATERAL (
         SELECT (array_agg(pp.price ORDER BY pp.block_number))[1] AS open, max(pp.price) AS high, min(pp.price) AS low,
                (array_agg(pp.price ORDER BY pp.block_number DESC))[1] AS close
         FROM price_points pp
         WHERE pp.token_key = k.token_key AND pp.price > 0 AND pp.time >= k.bucket
           AND pp.time < k.bucket + CASE k.resolution WHEN '15m' THEN interval '15 minutes' WHEN '30m' THEN interval '30 minutes'
                                     WHEN '1h' THEN interval '1 hour' WHEN '4h' THEN interval '4 hours' ELSE interval '1 day' END
       ) p
       WHERE (k.open = 0 OR k.low = 0 OR k.close = 0)
         AND c.token_key = k.token_key AND c.resolution = k.resolution AND c.bucket = k.bucket`,
    );
  }

  async down(): Promise<void> {
    // A data repair: the old figures (0 for "no price yet") are not worth restoring.
  }
}
