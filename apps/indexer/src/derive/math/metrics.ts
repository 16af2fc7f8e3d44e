/**
 * The paid-tier "Token metrics": values 1 and 7 days before the latest indexed block, and deltas.
 * priceDelta / liquidityDelta are relative changes in percent ((now - then) / then * 100, "0"
 * when then is 0); apyDelta / borrowApyDelta are differences in percentage points (APYs are
 * already percentages). All values are strings, as in the spec.
 */
import { formatNumber } from './decimal';

export interface MetricSnapshot {
  price: number;
  liquidity: number;
  apy: number;
  borrowApy: number;
}

export type PaidMetrics = Record<
  | 'price1d' | 'price7d' | 'liquidity1d' | 'liquidity7d' | 'apy1d' | 'apy7d' | 'borrowApy1d' | 'borrowApy7d'
  | 'priceDelta1d' | 'priceDelta7d' | 'liquidityDelta1d' | 'liquidityDelta7d' | 'apyDelta1d' | 'apyDelta7d' | 'borrowApyDelta1d' | 'borrowApyDelta7d',
  string
>;

export function relativeChangePercent(now: number, then: number): number {
  return then === 0 ? 0 : ((now - then) / then) * 100;
}

export function paidMetrics(now: MetricSnapshot, ago1d: MetricSnapshot, ago7d: MetricSnapshot): PaidMetrics {
  return {
    price1d: formatNumber(ago1d.price),
    price7d: formatNumber(ago7d.price),
    liquidity1d: formatNumber(ago1d.liquidity),
    liquidity7d: formatNumber(ago7d.liquidity),
    apy1d: formatNumber(ago1d.apy),
    apy7d: formatNumber(ago7d.apy),
    borrowApy1d: formatNumber(ago1d.borrowApy),
    borrowApy7d: formatNumber(ago7d.borrowApy),
    priceDelta1d: formatNumber(relativeChangePercent(now.price, ago1d.price)),
    priceDelta7d: formatNumber(relativeChangePercent(now.price, ago7d.price)),
    liquidityDelta1d: formatNumber(relativeChangePercent(now.liquidity, ago1d.liquidity)),
    liquidityDelta7d: formatNumber(relativeChangePercent(now.liquidity, ago7d.liquidity)),
    apyDelta1d: formatNumber(now.apy - ago1d.apy),
    apyDelta7d: formatNumber(now.apy - ago7d.apy),
    borrowApyDelta1d: formatNumber(now.borrowApy - ago1d.borrowApy),
    borrowApyDelta7d: formatNumber(now.borrowApy - ago7d.borrowApy),
  };
}

/** Trending score of a candle: its trailing 1-day volume per dollar of liquidity (0 without liquidity). */
export function trendingScore(volume1dUsd: number, liquidityUsd: number): number {
  return liquidityUsd > 0 ? volume1dUsd / liquidityUsd : 0;
}
