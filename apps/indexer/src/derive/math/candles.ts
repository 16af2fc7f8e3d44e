/**
 * Candles: UTC-aligned buckets (every size divides a day, so 4h buckets start at 00, 04, ... UTC
 * and 1d buckets at midnight UTC). A candle's OHLC comes from the token's priced state points
 * inside the bucket; the other History fields are the state at the bucket's last point.
 *
 * A price of 0 means the token had no price at that block (a token seen before any pool could
 * price it, an LP token without supply): such points carry supply and ledger changes but are no
 * price, so they never open, close or lower a candle. A bucket with no priced point folds to OHLC
 * 0: it only updates the state of a candle already stored for the bucket, and is not stored
 * otherwise (repo/candles.repo.ts).
 */
import { trendingScore } from '@tokensvc/domain';
import type { TimedAmounts } from './windows';

export const DAY_SECONDS = 86_400;
export const RESOLUTIONS = ['15m', '30m', '1h', '4h', '1d'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

export const RESOLUTION_SECONDS: Record<Resolution, number> = { '15m': 900, '30m': 1_800, '1h': 3_600, '4h': 14_400, '1d': 86_400 };

/** Start (unix seconds) of the bucket that holds `time`. */
export function bucketStart(time: number, resolution: Resolution): number {
  const size = RESOLUTION_SECONDS[resolution];
  return Math.floor(time / size) * size;
}

/** The state fields a candle carries (the History entry besides OHLC and volumes). */
export interface CandleState {
  liquidity: number;
  reserves: readonly bigint[];
  totalSupply: bigint;
  totalBorrow: bigint;
  circulatingSupply: bigint;
  pricePerShare: string;
  apy: number;
  baseApy: number;
  rewardApy: number;
  borrowApy: number;
  baseBorrowApy: number;
}

export interface CandlePoint extends CandleState {
  tokenKey: string;
  blockNumber: number;
  time: number;
  price: number;
}

export interface Candle extends CandleState {
  tokenKey: string;
  resolution: Resolution;
  /** unix seconds */
  bucket: number;
  open: number;
  high: number;
  low: number;
  close: number;
  blockNumber: number;
  /** activity volume (USD) inside the bucket */
  volumeUsd: number;
  /** activity volume (USD) of the day ending at the bucket's end */
  volume1dUsd: number;
  /** volume1dUsd / liquidity */
  trendingScore: number;
}

/** The price range of a bucket's priced points (all 0 when it has none: see above). */
interface Ohlc {
  open: number;
  high: number;
  low: number;
  close: number;
}

function candleOf(resolution: Resolution, bucket: number, first: CandlePoint, last: CandlePoint, range: Ohlc): Candle {
  return {
    tokenKey: first.tokenKey,
    resolution,
    bucket,
    open: range.open,
    high: range.high,
    low: range.low,
    close: range.close,
    blockNumber: last.blockNumber,
    liquidity: last.liquidity,
    reserves: last.reserves,
    totalSupply: last.totalSupply,
    totalBorrow: last.totalBorrow,
    circulatingSupply: last.circulatingSupply,
    pricePerShare: last.pricePerShare,
    apy: last.apy,
    baseApy: last.baseApy,
    rewardApy: last.rewardApy,
    borrowApy: last.borrowApy,
    baseBorrowApy: last.baseBorrowApy,
    volumeUsd: 0,
    volume1dUsd: 0,
    trendingScore: 0,
  };
}

/** Folds points (any order) into one candle per (token, resolution, bucket). */
export function foldCandles(points: readonly CandlePoint[], resolutions: readonly Resolution[] = RESOLUTIONS): Candle[] {
  const sorted = [...points].sort((a, b) => (a.tokenKey < b.tokenKey ? -1 : a.tokenKey > b.tokenKey ? 1 : a.blockNumber - b.blockNumber));
  const out: Candle[] = [];
  for (const resolution of resolutions) {
    let i = 0;
    while (i < sorted.length) {
      const first = sorted[i]!;
      const bucket = bucketStart(first.time, resolution);
      let last = first;
      // Locals, not an object per point: this runs over every point of a batch, per resolution.
      let open = first.price > 0 ? first.price : 0;
      let high = open;
      let low = open;
      let close = open;
      // Points of one token are in block order, so a bucket's points are consecutive.
      for (i++; i < sorted.length; i++) {
        const p = sorted[i]!;
        if (p.tokenKey !== first.tokenKey || bucketStart(p.time, resolution) !== bucket) break;
        last = p;
        const price = p.price;
        if (!(price > 0)) continue;
        if (open === 0) open = high = low = price;
        else if (price > high) high = price;
        else if (price < low) low = price;
        close = price;
      }
      out.push(candleOf(resolution, bucket, first, last, { open, high, low, close }));
    }
  }
  return out;
}

/** Candles with their volumes from the token's activity amounts (unchanged when it has none). */
export function withVolumes(candles: readonly Candle[], volumesOf: (tokenKey: string) => TimedAmounts | undefined): Candle[] {
  return candles.map((c) => {
    const v = volumesOf(c.tokenKey);
    if (!v) return c;
    const end = c.bucket + RESOLUTION_SECONDS[c.resolution];
    const volume1dUsd = v.sum(end - DAY_SECONDS, end);
    return { ...c, volumeUsd: v.sum(c.bucket, end), volume1dUsd, trendingScore: trendingScore(volume1dUsd, c.liquidity) };
  });
}

/** A later partial candle of the same bucket merged into an earlier one (what the SQL upsert does). */
export function mergeCandle(earlier: Candle, later: Candle): Candle {
  const range =
    earlier.open === 0
      ? later
      : later.open === 0
        ? earlier
        : { open: earlier.open, high: Math.max(earlier.high, later.high), low: Math.min(earlier.low, later.low), close: later.close };
  return {
    ...later,
    open: range.open,
    high: range.high,
    low: range.low,
    close: range.close,
    blockNumber: Math.max(earlier.blockNumber, later.blockNumber),
  };
}
