/**
 * candles: upserted from the points of a batch (an existing bucket keeps its open, widens
 * high/low, and takes the later state and volumes, which are computed over all its activities).
 *
 * A candle with OHLC 0 is a bucket part without a priced point (see math/candles.ts): it creates
 * no row (a bucket in which the token never had a price has no candle, and no History entry says
 * its price was 0) and only updates the state of a stored one, leaving its OHLC. Stored rows thus
 * always have a price, and the upsert of priced parts needs no case for 0: merged in any split,
 * a bucket's parts give what folding all its points gives.
 */
import { TOKEN_STATE_COLUMN_NAMES } from '@tokensvc/persistence';
import type { Candle, Resolution } from '../math/candles';
import { columns, networkKeyRange, numericArrayLiteral, type SqlTx } from './sql';

/** the columns a later part of a bucket replaces: the token's state (its price is the OHLC) and the volumes */
const STATE_COLUMNS = [...TOKEN_STATE_COLUMN_NAMES.filter((c) => c !== 'price'), 'volume_usd', 'volume_1d_usd', 'trending_score'];
/** A later (or same-block) row's state wins; an earlier one never overwrites. */
const takeLater = (later: string, cols: readonly string[]): string =>
  cols.map((c) => `${c} = CASE WHEN ${later}.block_number >= candles.block_number THEN ${later}.${c} ELSE candles.${c} END`).join(', ');

export interface CandleKey {
  tokenKey: string;
  resolution: Resolution;
  bucket: number;
}

/** the key columns, then the OHLC columns (priced parts only), then the state columns */
const KEY: ReadonlyArray<(c: Candle) => unknown> = [(c) => c.tokenKey, (c) => c.resolution, (c) => c.bucket];
const OHLC: ReadonlyArray<(c: Candle) => unknown> = [(c) => c.open, (c) => c.high, (c) => c.low, (c) => c.close];
const STATE: ReadonlyArray<(c: Candle) => unknown> = [
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
];
/** as the priced upsert's unnest reads them */
const PRICED = [...KEY, ...OHLC, ...STATE];
/** key and state columns (no OHLC), as the unnest below them reads them */
const KEY_AND_STATE = [...KEY, ...STATE];
const KEY_AND_STATE_ROWS = `SELECT k, r, to_timestamp(b) AS bucket, liq AS liquidity, res::numeric[] AS reserves, ts::numeric AS total_supply, tb::numeric AS total_borrow,
    cs::numeric AS circulating_supply, pps AS price_per_share, a AS apy, ba AS base_apy, ra AS reward_apy, bo AS borrow_apy, bbo AS base_borrow_apy,
    bn AS block_number, v AS volume_usd, v1 AS volume_1d_usd, tr AS trending_score
  FROM unnest($1::text[], $2::text[], $3::float8[], $4::float8[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::float8[], $11::float8[],
    $12::float8[], $13::float8[], $14::float8[], $15::bigint[], $16::float8[], $17::float8[], $18::float8[])
    AS x(k, r, b, liq, res, ts, tb, cs, pps, a, ba, ra, bo, bbo, bn, v, v1, tr)`;

export async function upsertCandles(tx: SqlTx, candles: readonly Candle[]): Promise<void> {
  if (candles.length === 0) return;
  // Unpriced parts are rare (a token's first blocks): the common batch is passed on as it is.
  const priced = candles.every((c) => c.open !== 0) ? candles : candles.filter((c) => c.open !== 0);
  if (priced.length > 0) {
    const params = columns(priced, PRICED);
    await tx.query(
      `INSERT INTO candles (token_key, resolution, bucket, open, high, low, close, liquidity, reserves, total_supply, total_borrow,
         circulating_supply, price_per_share, apy, base_apy, reward_apy, borrow_apy, base_borrow_apy, block_number, volume_usd, volume_1d_usd, trending_score)
       SELECT k, r, to_timestamp(b), o, h, l, c, liq, res::numeric[], ts::numeric, tb::numeric, cs::numeric, pps, a, ba, ra, bo, bbo, bn, v, v1, tr
       FROM unnest($1::text[], $2::text[], $3::float8[], $4::float8[], $5::float8[], $6::float8[], $7::float8[], $8::float8[], $9::text[],
         $10::text[], $11::text[], $12::text[], $13::text[], $14::float8[], $15::float8[], $16::float8[], $17::float8[], $18::float8[], $19::bigint[],
         $20::float8[], $21::float8[], $22::float8[])
         AS u(k, r, b, o, h, l, c, liq, res, ts, tb, cs, pps, a, ba, ra, bo, bbo, bn, v, v1, tr)
       ON CONFLICT (token_key, resolution, bucket) DO UPDATE SET
         high = GREATEST(candles.high, EXCLUDED.high), low = LEAST(candles.low, EXCLUDED.low), ${takeLater('EXCLUDED', ['close', ...STATE_COLUMNS])},
         block_number = GREATEST(candles.block_number, EXCLUDED.block_number)`,
      params,
    );
  }
  if (priced.length < candles.length) {
    await tx.query(
      `UPDATE candles SET ${takeLater('u', STATE_COLUMNS)}, block_number = GREATEST(candles.block_number, u.block_number)
       FROM (${KEY_AND_STATE_ROWS}) u
       WHERE candles.token_key = u.k AND candles.resolution = u.r AND candles.bucket = u.bucket`,
      columns(
        candles.filter((c) => c.open === 0),
        KEY_AND_STATE,
      ),
    );
  }
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
