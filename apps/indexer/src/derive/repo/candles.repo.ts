/**
 * candles: upserted from the points of a batch (an existing bucket keeps its open, widens
 * high/low, and takes the later state and volumes, which are computed over all its activities).
 * OHLC 0 is a bucket part without a priced point (see math/candles.ts): it neither opens, closes
 * nor lowers the merged candle, so the upsert gives what folding all the bucket's points gives;
 * it creates no row either (only updates the state of an existing one): a bucket in which the
 * token never had a price has no candle, and no History entry says its price was 0.
 */
import type { Candle, Resolution } from '../math/candles';
import { columns, networkKeyRange, numericArrayLiteral, type SqlTx } from './sql';

const STATE_COLUMNS = ['liquidity', 'reserves', 'total_supply', 'total_borrow', 'circulating_supply', 'price_per_share', 'apy', 'base_apy', 'reward_apy', 'borrow_apy', 'base_borrow_apy', 'volume_usd', 'volume_1d_usd', 'trending_score'];
/** A later (or same-block) row's state wins; an earlier one never overwrites. */
const TAKE_LATER = STATE_COLUMNS.map((c) => `${c} = CASE WHEN EXCLUDED.block_number >= candles.block_number THEN EXCLUDED.${c} ELSE candles.${c} END`).join(', ');
/** mergeCandle in SQL: an unpriced side (open 0) gives way to the other; else open kept, range widened, later close. */
const MERGE_PRICES = `open = CASE WHEN candles.open = 0 THEN EXCLUDED.open ELSE candles.open END,
  high = GREATEST(candles.high, EXCLUDED.high),
  low = CASE WHEN candles.open = 0 THEN EXCLUDED.low WHEN EXCLUDED.open = 0 THEN candles.low ELSE LEAST(candles.low, EXCLUDED.low) END,
  close = CASE WHEN EXCLUDED.open = 0 OR (candles.open <> 0 AND EXCLUDED.block_number < candles.block_number) THEN candles.close ELSE EXCLUDED.close END`;

export interface CandleKey {
  tokenKey: string;
  resolution: Resolution;
  bucket: number;
}

export async function upsertCandles(tx: SqlTx, candles: readonly Candle[]): Promise<void> {
  if (candles.length === 0) return;
  const params = columns(candles, [
    (c) => c.tokenKey,
    (c) => c.resolution,
    (c) => c.bucket,
    (c) => c.open,
    (c) => c.high,
    (c) => c.low,
    (c) => c.close,
    (c) => c.liquidity,
    (c) => numericArrayLiteral(c.reserves),
    (c) => c.totalSupply.toString(),
    (c) => c.totalBorrow.toString(),
    (c) => c.circulatingSupply.toString(),
    (c) => c.pricePerShare,
    (c) => c.apy,
    (c) => c.baseApy,
    (c) => c.rewardApy,
    (c) => c.borrowApy,
    (c) => c.baseBorrowApy,
    (c) => c.blockNumber,
    (c) => c.volumeUsd,
    (c) => c.volume1dUsd,
    (c) => c.trendingScore,
  ]);
  await tx.query(
    `INSERT INTO candles (token_key, resolution, bucket, open, high, low, close, liquidity, reserves, total_supply, total_borrow,
       circulating_supply, price_per_share, apy, base_apy, reward_apy, borrow_apy, base_borrow_apy, block_number, volume_usd, volume_1d_usd, trending_score)
     SELECT k, r, to_timestamp(b), o, h, l, c, liq, res::numeric[], ts::numeric, tb::numeric, cs::numeric, pps, a, ba, ra, bo, bbo, bn, v, v1, tr
     FROM unnest($1::text[], $2::text[], $3::float8[], $4::float8[], $5::float8[], $6::float8[], $7::float8[], $8::float8[], $9::text[],
       $10::text[], $11::text[], $12::text[], $13::text[], $14::float8[], $15::float8[], $16::float8[], $17::float8[], $18::float8[], $19::bigint[],
       $20::float8[], $21::float8[], $22::float8[])
       AS u(k, r, b, o, h, l, c, liq, res, ts, tb, cs, pps, a, ba, ra, bo, bbo, bn, v, v1, tr)
     WHERE o <> 0 OR EXISTS (SELECT 1 FROM candles x WHERE x.token_key = k AND x.resolution = r AND x.bucket = to_timestamp(b))
     ON CONFLICT (token_key, resolution, bucket) DO UPDATE SET
       ${MERGE_PRICES}, ${TAKE_LATER},
       block_number = GREATEST(candles.block_number, EXCLUDED.block_number)`,
    params,
  );
}

/** Deletes the network's candles that include blocks above `block`; returns their keys. */
export async function deleteCandlesAbove(tx: SqlTx, network: string, block: number): Promise<CandleKey[]> {
  const [lo, hi] = networkKeyRange(network);
  const rows = await tx.query<{ token_key: string; resolution: Resolution; bucket: number }>(
    `DELETE FROM candles WHERE block_number > $1 AND token_key >= $2 AND token_key < $3
     RETURNING token_key, resolution, extract(epoch from bucket)::float8 AS bucket`,
    [block, lo, hi],
  );
  return rows.map((r) => ({ tokenKey: r.token_key, resolution: r.resolution, bucket: r.bucket }));
}
