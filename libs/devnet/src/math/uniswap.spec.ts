import {
  encodeSqrtPriceX96,
  fullRangeTicks,
  nearestUsableTick,
  priceToTick,
  rangeTicks,
  rawPrice,
  sortTokens,
  sqrtPriceX96ToPrice,
  tickSpacingOf,
  usdToUnits,
  v2TradeToPrice,
  v3TradeToPrice,
} from './uniswap';

describe('uniswap maths', () => {
  it('computes raw prices across decimals (WETH/USDC: 3000 USDC units per 1e12 wei)', () => {
    expect(rawPrice(3000, 18, 1, 6)).toBeCloseTo(3000e-12, 20);
    expect(rawPrice(1, 6, 3000, 18)).toBeCloseTo(1e12 / 3000, 0);
  });

  it('round-trips sqrtPriceX96', () => {
    for (const p of [1, 3e-9, 2e11, 1e12 / 3000]) {
      expect(sqrtPriceX96ToPrice(encodeSqrtPriceX96(p)) / p).toBeCloseTo(1, 9);
    }
    expect(encodeSqrtPriceX96(1)).toBe(2n ** 96n);
  });

  it('maps prices to ticks and usable ticks', () => {
    expect(priceToTick(1)).toBe(0);
    expect(priceToTick(1.0001 ** 100 * 1.00001)).toBe(100);
    expect(nearestUsableTick(125, 60)).toBe(120);
    expect(nearestUsableTick(-887272, 60)).toBe(-887220);
    expect(fullRangeTicks(tickSpacingOf(3000))).toEqual([-887220, 887220]);
    expect(fullRangeTicks(tickSpacingOf(100))).toEqual([-887272, 887272]);
    const [lo, hi] = rangeTicks(1, 0.1, 10);
    expect(Math.abs(lo % 10)).toBe(0);
    expect(Math.abs(hi % 10)).toBe(0);
    expect(lo).toBeLessThan(0);
    expect(hi).toBeGreaterThan(0);
    expect(() => tickSpacingOf(42)).toThrow();
  });

  it('sorts tokens by address case-insensitively', () => {
    const a = { address: '0xB000000000000000000000000000000000000000' };
    const b = { address: '0xa000000000000000000000000000000000000000' };
    expect(sortTokens(a, b)).toEqual([b, a]);
  });

  it('converts USD to base units', () => {
    expect(usdToUnits(3000, 3000, 18)).toBe(10n ** 18n);
    expect(usdToUnits(1.5, 1, 6)).toBe(1_500_000n);
  });

  it('finds the V2 trade that reaches a target price', () => {
    const r0 = 1000n * 10n ** 18n;
    const r1 = 3_000_000n * 10n ** 6n;
    const target = rawPrice(3300, 18, 1, 6);
    const trade = v2TradeToPrice(r0, r1, target);
    expect(trade.zeroForOne).toBe(false); // price of token0 must rise: sell token1
    const inAfterFee = (Number(trade.amountIn) * 997) / 1000;
    const out = (Number(r0) * inAfterFee) / (Number(r1) + inAfterFee);
    const newPrice = (Number(r1) + Number(trade.amountIn)) / (Number(r0) - out);
    expect(newPrice / target).toBeCloseTo(1, 3);
    expect(v2TradeToPrice(r0, r1, rawPrice(2700, 18, 1, 6)).zeroForOne).toBe(true);
  });

  it('finds the V3 trade that reaches a target price within one range', () => {
    const price = 1;
    const liquidity = 10n ** 24n;
    const trade = v3TradeToPrice(encodeSqrtPriceX96(price), liquidity, 1.01, 500);
    expect(trade.zeroForOne).toBe(false);
    // Δy = L·Δ√P, plus the fee
    expect(Number(trade.amountIn) / ((1e24 * (Math.sqrt(1.01) - 1)) / 0.9995)).toBeCloseTo(1, 6);
    expect(v3TradeToPrice(encodeSqrtPriceX96(price), liquidity, 0.99, 500).zeroForOne).toBe(true);
  });
});
