/**
 * History candles as of a network's finalized block F (issue 23). A stored candle whose last block
 * (`candles.block_number`) is at or below F already is the bucket as of F: any later point in its
 * bucket would have moved that block above F. A candle whose last block is above F is rebuilt from
 * the token's state points (`price_points`) and activities of blocks up to F, the way the indexer
 * builds candles (derive/README.md "Candles"): OHLC from the bucket's priced points (open the first,
 * close the last), the other fields from its last point, volume1dUsd = activity volume (basic and
 * native tokens: swap volume, `swap_volumes`) in [bucket end - 1 day, bucket end), trendingScore = volume1dUsd / liquidity. A bucket without a
 * priced point up to F has no candle as of F. Usually only the newest bucket of a resolution is rebuilt.
 *
 * `$1` token key, `$2` resolution, `$3` first bucket (unix seconds), `$4` limit, `$5` offset,
 * `$6` network, `$7` bucket size in seconds. Rows as the latest query's, with `block_number`.
 */
import { stateColumnsSelect, TOKEN_STATE_COLUMN_NAMES } from '@tokensvc/persistence';

/** the state columns a candle has (all but the price: its OHLC) */
const FIELDS = stateColumnsSelect(undefined, ['price']);
const LAST_POINT_FIELDS = TOKEN_STATE_COLUMN_NAMES.filter((c) => c !== 'price')
  .map((c) => `l.${c}`)
  .join(', ');

const IN_BUCKET = `p.token_key = $1 AND p.time >= k.bucket AND p.time < k.bucket + make_interval(secs => $7) AND p.block_number <= c.finalized_block`;

export const CANDLES_AS_OF_FINALIZED_SQL = `WITH c AS (SELECT * FROM index_cursors WHERE network = $6),
  k AS (SELECT * FROM candles WHERE token_key = $1 AND resolution = $2 AND bucket >= to_timestamp($3)),
  asof AS (
    SELECT k.bucket, k.open, k.high, k.low, k.close, ${stateColumnsSelect('k', ['price'])}, k.volume_1d_usd, k.trending_score, k.block_number
      FROM k, c WHERE k.block_number <= c.finalized_block
    UNION ALL
    SELECT k.bucket, r.open, r.high, r.low, r.close, ${LAST_POINT_FIELDS},
           vol.v AS volume_1d_usd, CASE WHEN l.liquidity > 0 THEN vol.v / l.liquidity ELSE 0 END AS trending_score, l.block_number
      FROM k CROSS JOIN c
      CROSS JOIN LATERAL (
        SELECT (array_agg(p.price ORDER BY p.block_number) FILTER (WHERE p.price > 0))[1] AS open, max(p.price) FILTER (WHERE p.price > 0) AS high,
               min(p.price) FILTER (WHERE p.price > 0) AS low, (array_agg(p.price ORDER BY p.block_number DESC) FILTER (WHERE p.price > 0))[1] AS close
          FROM price_points p WHERE ${IN_BUCKET}) r
      CROSS JOIN LATERAL (SELECT p.block_number, ${FIELDS} FROM price_points p WHERE ${IN_BUCKET} ORDER BY p.block_number DESC LIMIT 1) l
      CROSS JOIN LATERAL (
        SELECT (SELECT coalesce(sum(a.volume_usd ORDER BY a.block_number, a.log_index, a.volume_usd), 0)::float8 FROM activities a
                 WHERE a.token_key = $1 AND a.block_number <= c.finalized_block
                   AND a.time >= k.bucket + make_interval(secs => $7) - interval '1 day' AND a.time < k.bucket + make_interval(secs => $7))
             + (SELECT coalesce(sum(w.volume_cents)::float8 / 100, 0) FROM swap_volumes w
                 WHERE w.token_key = $1 AND w.block_number <= c.finalized_block
                   AND w.time >= k.bucket + make_interval(secs => $7) - interval '1 day' AND w.time < k.bucket + make_interval(secs => $7)) AS v) vol
     WHERE k.block_number > c.finalized_block AND r.open IS NOT NULL)
  SELECT asof.*, count(*) OVER () AS total FROM asof ORDER BY bucket LIMIT $4 OFFSET $5`;
