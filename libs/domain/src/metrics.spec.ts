import { paidMetrics, paidMetricsOfPoints, relativeChangePercent, trendingScore } from './metrics';

describe('paid metrics', () => {
  it('reports the figures 1 and 7 days ago and their deltas as strings', () => {
    const m = paidMetrics(
      { price: 110, liquidity: 2_000, apy: 5, borrowApy: 7 },
      { price: 100, liquidity: 1_000, apy: 4, borrowApy: 7.5 },
      { price: 200, liquidity: 0, apy: 5, borrowApy: 6 },
    );
    expect(m).toEqual({
      price1d: '100',
      price7d: '200',
      liquidity1d: '1000',
      liquidity7d: '0',
      apy1d: '4',
      apy7d: '5',
      borrowApy1d: '7.5',
      borrowApy7d: '6',
      priceDelta1d: '10',
      priceDelta7d: '-45',
      liquidityDelta1d: '100',
      liquidityDelta7d: '0',
      apyDelta1d: '1',
      apyDelta7d: '0',
      borrowApyDelta1d: '-0.5',
      borrowApyDelta7d: '1',
    });
  });
  it('has no relative change from zero and no trending score without liquidity', () => {
    expect(relativeChangePercent(5, 0)).toBe(0);
    expect(trendingScore(1_000, 0)).toBe(0);
    expect(trendingScore(1_000, 4_000)).toBe(0.25);
  });
  it('compares a token younger than a window with its first point, and with zeros without any', () => {
    const now = { price: 110, liquidity: 2_000, apy: 5, borrowApy: 7 };
    const first = { price: 100, liquidity: 1_000, apy: 4, borrowApy: 7 };
    expect(paidMetricsOfPoints(now, { d1: null, d7: null, first })).toEqual(paidMetrics(now, first, first));
    expect(paidMetricsOfPoints(now, { d1: null, d7: null, first: null }).priceDelta1d).toBe('0');
  });
});
