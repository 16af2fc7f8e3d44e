/**
 * The paid-tier "Token metrics": values 1 and 7 days before the latest indexed block, and deltas.
 * priceDelta / liquidityDelta are relative changes in percent ((now - then) / then * 100, "0"
 * when then is 0); apyDelta / borrowApyDelta are differences in percentage points (APYs are
 * already percentages). All values are strings, as in the spec. The one home of these formulas:
 * the indexer writes them at the head and token-data computes them as of the finalized block.
 */
import { decimalString } from './amount';

export interface MetricSnapshot {
  price: number;
  liquidity: number;
  apy: number;
  borrowApy: number;
}

export type PaidMetrics = Record<
  | 'price1d'
  | 'price7d'
  | 'liquidity1d'
  | 'liquidity7d'
  | 'apy1d'
  | 'apy7d'
  | 'borrowApy1d'
  | 'borrowApy7d'
  | 'priceDelta1d'
  | 'priceDelta7d'
  | 'liquidityDelta1d'
  | 'liquidityDelta7d'
  | 'apyDelta1d'
  | 'apyDelta7d'
  | 'borrowApyDelta1d'
  | 'borrowApyDelta7d',
  string
>;

export function relativeChangePercent(now: number, then: number): number {
  return then === 0 ? 0 : ((now - then) / then) * 100;
}

export function paidMetrics(now: MetricSnapshot, ago1d: MetricSnapshot, ago7d: MetricSnapshot): PaidMetrics {
  return {
    price1d: decimalString(ago1d.price),
    price7d: decimalString(ago7d.price),
    liquidity1d: decimalString(ago1d.liquidity),
    liquidity7d: decimalString(ago7d.liquidity),
    apy1d: decimalString(ago1d.apy),
    apy7d: decimalString(ago7d.apy),
    borrowApy1d: decimalString(ago1d.borrowApy),
    borrowApy7d: decimalString(ago7d.borrowApy),
    priceDelta1d: decimalString(relativeChangePercent(now.price, ago1d.price)),
    priceDelta7d: decimalString(relativeChangePercent(now.price, ago7d.price)),
    liquidityDelta1d: decimalString(relativeChangePercent(now.liquidity, ago1d.liquidity)),
    liquidityDelta7d: decimalString(relativeChangePercent(now.liquidity, ago7d.liquidity)),
    apyDelta1d: decimalString(now.apy - ago1d.apy),
    apyDelta7d: decimalString(now.apy - ago7d.apy),
    borrowApyDelta1d: decimalString(now.borrowApy - ago1d.borrowApy),
    borrowApyDelta7d: decimalString(now.borrowApy - ago7d.borrowApy),
  };
}

/** Trending score of a candle: its trailing 1-day volume per dollar of liquidity (0 without liquidity). */
export function trendingScore(volume1dUsd: number, liquidityUsd: number): number {
  return liquidityUsd > 0 ? volume1dUsd / liquidityUsd : 0;
}

/** The state points a token's paid metrics compare with (null: none in the window). */
export interface MetricPoints {
  d1: MetricSnapshot | null;
  d7: MetricSnapshot | null;
  /** the token's first point: a token younger than a window compares with it */
  first: MetricSnapshot | null;
}

const NO_POINT: MetricSnapshot = { price: 0, liquidity: 0, apy: 0, borrowApy: 0 };

export function paidMetricsOfPoints(now: MetricSnapshot, points: MetricPoints): PaidMetrics {
  return paidMetrics(now, points.d1 ?? points.first ?? NO_POINT, points.d7 ?? points.first ?? NO_POINT);
}
