import { priceGraph, propagatePrices, robustPrice, type GraphEdge } from './price-graph';

const OPTS = { minLiquidityUsd: 10_000, maxDeviation: 0.2, iterations: 3 };
/** A pool between a and b at `price` (a in b) holding `depthA` of a. */
const pool = (a: string, b: string, price: number, depthA: number): GraphEdge => ({
  token0: a,
  token1: b,
  price0In1: price,
  depth0: depthA,
  depth1: depthA * price,
});
const usd = new Map([['usdc', 1]]);

describe('robust price', () => {
  it('drops outliers against the weighted median and averages the rest by weight', () => {
    expect(
      robustPrice(
        [
          { price: 100, weight: 3 },
          { price: 102, weight: 1 },
          { price: 500, weight: 1 },
        ],
        0.2,
      ),
    ).toBeCloseTo(100.5, 9);
    expect(robustPrice([], 0.2)).toBeUndefined();
  });
});

describe('price graph', () => {
  it('propagates from the stablecoin through several hops', () => {
    const prices = propagatePrices(
      usd,
      [pool('weth', 'usdc', 3000, 1000), pool('link', 'weth', 0.005, 100_000), pool('wbtc', 'weth', 20, 100)],
      OPTS,
    );
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
    const prices = propagatePrices(
      usd,
      [pool('weth', 'usdc', 3000, 1000), pool('weth', 'usdc', 3010, 800), pool('weth', 'usdc', 4500, 100)],
      OPTS,
    );
    const [w1, w2] = [3000 * 1000, 3010 * 800];
    expect(prices.get('weth')).toBeCloseTo((3000 * w1 + 3010 * w2) / (w1 + w2), 9);
  });
  it('refines a token priced by a thin stable pool with a deep pool to a same-layer token', () => {
    // tail/usdc is $20k deep at 1.30, tail/weth is $2M deep at 1.00: the deep pool dominates
    const prices = propagatePrices(
      usd,
      [pool('weth', 'usdc', 3000, 10_000), pool('tail', 'usdc', 1.3, 7_700), pool('tail', 'weth', 1 / 3000, 1_000_000)],
      OPTS,
    );
    expect(prices.get('tail')!).toBeGreaterThan(0.99);
    expect(prices.get('tail')!).toBeLessThan(1.02);
  });
  it('never prices a token back from tokens priced through it', () => {
    // link is priced from weth only; the weth price must not move because of link/weth
    const prices = propagatePrices(usd, [pool('weth', 'usdc', 3000, 1000), pool('link', 'weth', 0.005, 10_000_000)], OPTS);
    expect(prices.get('weth')).toBe(3000);
  });
  it('leaves unreachable tokens unpriced and keeps anchors at $1', () => {
    const prices = propagatePrices(
      new Map([
        ['usdc', 1],
        ['dai', 1],
      ]),
      [pool('usdc', 'dai', 1.5, 1e9), pool('a', 'b', 1, 1e9)],
      OPTS,
    );
    expect(prices.get('usdc')).toBe(1);
    expect(prices.get('dai')).toBe(1);
    expect(prices.has('a')).toBe(false);
  });
});

describe('thin pools at absurd prices (the attack)', () => {
  const deep = [pool('weth', 'usdc', 3000, 1000), pool('link', 'weth', 0.005, 100_000)];
  const base = propagatePrices(usd, deep, OPTS);
  it('a $100 WETH/USDC pool at ten times the price moves nothing', () => {
    // 1/60 WETH against $500 of USDC: 10x the market, $1,000 deep
    const attacked = propagatePrices(usd, [...deep, pool('weth', 'usdc', 30_000, 1 / 60)], OPTS);
    expect(attacked.get('weth')).toBe(base.get('weth'));
    expect(attacked.get('link')).toBe(base.get('link'));
  });
  it('a pool holding $100 of WETH against a heap of a minted token cannot price WETH through that token', () => {
    // fake is priced by a $20k USDC pool; fake/weth holds 0.0166 WETH ($50) against 1e9 fake: WETH at 10x in fake
    const fake = [pool('fake', 'usdc', 10, 1000), pool('weth', 'fake', 3000, 1 / 60)];
    fake[1] = { ...fake[1]!, price0In1: 3000, depth1: 1e9 };
    const attacked = priceGraph(usd, [...deep, ...fake], OPTS);
    expect(attacked.prices.get('weth')).toBe(base.get('weth'));
    expect(attacked.prices.get('fake')).toBeCloseTo(10, 9);
  });
  it('caps a deep pool at the liquidity behind the price of its other side', () => {
    // fake priced by a $20k USDC pool at $10; weth/fake holds 10 WETH against 3e7 fake (WETH at $300M in fake at $10):
    // uncapped, the fake side would weigh $600M against WETH/USDC's $6M
    const heap: GraphEdge = { token0: 'weth', token1: 'fake', price0In1: 3e6, depth0: 10, depth1: 3e7 };
    const attacked = priceGraph(usd, [...deep, pool('fake', 'usdc', 10, 1000), heap], OPTS);
    expect(Math.abs(attacked.prices.get('weth')! / base.get('weth')! - 1)).toBeLessThan(1e-3);
    // the heap's quote weighs the $20k behind fake's price: an outlier against WETH/USDC, dropped
    expect(attacked.support.get('weth')).toBeCloseTo(6e6, 3);
    // fake is backed by the 10 WETH ($60k) of the heap pool, which outweighs its $20k USDC pool
    expect(attacked.support.get('fake')).toBeCloseTo(60_000, 3);
    expect(attacked.support.get('usdc')).toBe(Infinity);
  });
  it('leaves a token whose only pool is thin unpriced, at any price', () => {
    // a new token with $100 against WETH, priced at ten times anything sensible
    const attacked = propagatePrices(usd, [...deep, pool('new', 'weth', 10, 0.0017)], OPTS);
    expect(attacked.has('new')).toBe(false);
    expect(attacked.get('weth')).toBe(base.get('weth'));
  });
  it('prices a token first seen in a thin pool once a deep pool appears, from the deep pool', () => {
    const attacked = propagatePrices(usd, [...deep, pool('new', 'weth', 0.01, 0.0017), pool('new', 'weth', 0.001, 10_000)], OPTS);
    expect(attacked.get('new')).toBeCloseTo(3, 9);
  });
  it('states the support of each price: the weight of the quotes that made it', () => {
    const { support } = priceGraph(usd, deep, OPTS);
    expect(support.get('weth')).toBeCloseTo(2 * 3000 * 1000, 6);
    // link: 2 x the WETH side of its pool (1,000 WETH = $3M): below WETH's own $6M support
    expect(support.get('link')).toBeCloseTo(2 * 500 * 3000, 6);
  });
});
