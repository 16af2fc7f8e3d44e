import { propagatePrices, robustPrice, type GraphEdge } from './price-graph';

const OPTS = { minLiquidityUsd: 10_000, maxDeviation: 0.2, iterations: 3 };
/** A pool between a and b at `price` (a in b) holding `depthA` of a. */
const pool = (a: string, b: string, price: number, depthA: number): GraphEdge => ({ token0: a, token1: b, price0In1: price, depth0: depthA, depth1: depthA * price });
const usd = new Map([['usdc', 1]]);

describe('robust price', () => {
  it('drops outliers against the weighted median and averages the rest by weight', () => {
    expect(robustPrice([{ price: 100, weight: 3 }, { price: 102, weight: 1 }, { price: 500, weight: 1 }], 0.2)).toBeCloseTo(100.5, 9);
    expect(robustPrice([], 0.2)).toBeUndefined();
  });
});

describe('price graph', () => {
  it('propagates from the stablecoin through several hops', () => {
    const prices = propagatePrices(usd, [pool('weth', 'usdc', 3000, 1000), pool('link', 'weth', 0.005, 100_000), pool('wbtc', 'weth', 20, 100)], OPTS);
    expect(prices.get('weth')).toBeCloseTo(3000, 9);
    expect(prices.get('link')).toBeCloseTo(15, 9);
    expect(prices.get('wbtc')).toBeCloseTo(60_000, 9);
  });
  it('weights pools by their USD depth', () => {
    const prices = propagatePrices(usd, [pool('weth', 'usdc', 3000, 3000), pool('weth', 'usdc', 3100, 1000)], OPTS);
    // weights: 2 x the USDC side, 9M and 3.1M
    expect(prices.get('weth')).toBeCloseTo((3000 * 9e6 + 3100 * 3.1e6) / 12.1e6, 9);
  });
  it('ignores pools thinner than the threshold', () => {
    // $2k pool at a crazy price next to a deep one
    const prices = propagatePrices(usd, [pool('weth', 'usdc', 3000, 1000), pool('weth', 'usdc', 9000, 0.1)], OPTS);
    expect(prices.get('weth')).toBeCloseTo(3000, 9);
    // a token with only a thin pool gets no price
    expect(propagatePrices(usd, [pool('pepe', 'usdc', 1, 1000)], OPTS).has('pepe')).toBe(false);
  });
  it('drops a liquid pool that disagrees strongly with deeper ones', () => {
    const prices = propagatePrices(usd, [pool('weth', 'usdc', 3000, 1000), pool('weth', 'usdc', 3010, 800), pool('weth', 'usdc', 4500, 100)], OPTS);
    const [w1, w2] = [3000 * 1000, 3010 * 800];
    expect(prices.get('weth')).toBeCloseTo((3000 * w1 + 3010 * w2) / (w1 + w2), 9);
  });
  it('refines a token priced by a thin stable pool with a deep pool to a same-layer token', () => {
    // tail/usdc is $20k deep at 1.30, tail/weth is $2M deep at 1.00: the deep pool dominates
    const prices = propagatePrices(usd, [pool('weth', 'usdc', 3000, 10_000), pool('tail', 'usdc', 1.3, 7_700), pool('tail', 'weth', 1 / 3000, 1_000_000)], OPTS);
    expect(prices.get('tail')!).toBeGreaterThan(0.99);
    expect(prices.get('tail')!).toBeLessThan(1.02);
  });
  it('never prices a token back from tokens priced through it', () => {
    // link is priced from weth only; the weth price must not move because of link/weth
    const prices = propagatePrices(usd, [pool('weth', 'usdc', 3000, 1000), pool('link', 'weth', 0.005, 10_000_000)], OPTS);
    expect(prices.get('weth')).toBe(3000);
  });
  it('leaves unreachable tokens unpriced and keeps anchors at $1', () => {
    const prices = propagatePrices(new Map([['usdc', 1], ['dai', 1]]), [pool('usdc', 'dai', 1.5, 1e9), pool('a', 'b', 1, 1e9)], OPTS);
    expect(prices.get('usdc')).toBe(1);
    expect(prices.get('dai')).toBe(1);
    expect(prices.has('a')).toBe(false);
  });
});
