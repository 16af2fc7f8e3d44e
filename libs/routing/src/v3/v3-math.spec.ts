import fc from 'fast-check';
import { Q96, sqrt } from '../math/big';
import { computeSwapStep } from './swap-math';
import { MAX_SQRT_RATIO, MAX_TICK, MIN_SQRT_RATIO, MIN_TICK, getSqrtRatioAtTick, getTickAtSqrtRatio } from './tick-math';

/** encodePriceSqrt of the Uniswap tests: floor(sqrt(reserve1 / reserve0) * 2^96). */
const encodePriceSqrt = (reserve1: bigint, reserve0: bigint): bigint => sqrt((reserve1 << 192n) / reserve0);
const e18 = (n: bigint): bigint => n * 10n ** 18n;

describe('TickMath', () => {
  it('matches the contract at the bounds and at 0', () => {
    expect(getSqrtRatioAtTick(MIN_TICK)).toBe(MIN_SQRT_RATIO);
    expect(getSqrtRatioAtTick(MAX_TICK)).toBe(MAX_SQRT_RATIO);
    expect(getSqrtRatioAtTick(MIN_TICK + 1)).toBe(4295343490n);
    expect(getSqrtRatioAtTick(MAX_TICK - 1)).toBe(1461373636630004318706518188784493106690254656249n);
    expect(getSqrtRatioAtTick(0)).toBe(Q96);
    expect(() => getSqrtRatioAtTick(MAX_TICK + 1)).toThrow(RangeError);
    expect(getTickAtSqrtRatio(MIN_SQRT_RATIO)).toBe(MIN_TICK);
    expect(getTickAtSqrtRatio(MAX_SQRT_RATIO - 1n)).toBe(MAX_TICK - 1);
  });

  it('is within 1e-11 of sqrt(1.0001^tick) * 2^96 (float reference)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -400_000, max: 400_000 }), (tick) => {
        const exact = Math.exp((tick * Math.log(1.0001)) / 2);
        expect(Math.abs(Number(getSqrtRatioAtTick(tick)) / 2 ** 96 / exact - 1)).toBeLessThan(1e-11);
      }),
    );
  });

  it('getTickAtSqrtRatio returns the greatest tick whose ratio is at or below the price', () => {
    fc.assert(
      fc.property(fc.integer({ min: MIN_TICK + 1, max: MAX_TICK - 1 }), (tick) => {
        const ratio = getSqrtRatioAtTick(tick);
        expect(getTickAtSqrtRatio(ratio)).toBe(tick);
        expect(getTickAtSqrtRatio(ratio - 1n)).toBe(tick - 1);
        expect(getTickAtSqrtRatio(ratio + 1n)).toBe(tick);
      }),
    );
  });
});

describe('SwapMath.computeSwapStep (vectors of the v3-core test suite)', () => {
  const price = encodePriceSqrt(1n, 1n);
  const liquidity = e18(2n);

  it('exact input capped at the price target, one for zero', () => {
    const target = encodePriceSqrt(101n, 100n);
    expect(computeSwapStep(price, target, liquidity, e18(1n), 600)).toEqual({
      sqrtRatioNextX96: target,
      amountIn: 9975124224178055n,
      feeAmount: 5988667735148n,
      amountOut: 9925619580021728n,
    });
  });

  it('exact output capped at the price target, one for zero', () => {
    const target = encodePriceSqrt(101n, 100n);
    expect(computeSwapStep(price, target, liquidity, -e18(1n), 600)).toEqual({
      sqrtRatioNextX96: target,
      amountIn: 9975124224178055n,
      feeAmount: 5988667735148n,
      amountOut: 9925619580021728n,
    });
  });

  it('exact input fully spent, one for zero', () => {
    const target = encodePriceSqrt(1000n, 100n);
    const step = computeSwapStep(price, target, liquidity, e18(1n), 600);
    expect(step).toMatchObject({ amountIn: 999400000000000000n, feeAmount: 600000000000000n, amountOut: 666399946655997866n });
    expect(step.sqrtRatioNextX96 < target).toBe(true);
  });

  it('exact output fully received, one for zero', () => {
    const step = computeSwapStep(price, encodePriceSqrt(10000n, 100n), liquidity, -e18(1n), 600);
    expect(step).toMatchObject({ amountIn: 2000000000000000000n, feeAmount: 1200720432259356n, amountOut: e18(1n) });
  });

  it('caps the output at the desired amount', () => {
    expect(
      computeSwapStep(417332158212080721273783715441582n, 1452870262520218020823638996n, 159344665391607089467575320103n, -1n, 1),
    ).toEqual({
      sqrtRatioNextX96: 417332158212080721273783715441581n,
      amountIn: 1n,
      feeAmount: 1n,
      amountOut: 1n,
    });
  });

  it('target price of 1 uses part of the input', () => {
    expect(computeSwapStep(2n, 1n, 1n, 3915081100057732413702495386755767n, 1)).toEqual({
      sqrtRatioNextX96: 1n,
      amountIn: 39614081257132168796771975168n,
      feeAmount: 39614120871253040049813n,
      amountOut: 0n,
    });
  });

  it('takes the entire input as fee', () => {
    expect(computeSwapStep(2413n, 79887613182836312n, 1985041575832132834610021537970n, 10n, 1872)).toEqual({
      sqrtRatioNextX96: 2413n,
      amountIn: 0n,
      feeAmount: 10n,
      amountOut: 0n,
    });
  });

  it('handles intermediate insufficient liquidity in both exact output directions', () => {
    const sqrtP = 20282409603651670423947251286016n;
    expect(computeSwapStep(sqrtP, (sqrtP * 11n) / 10n, 1024n, -4n, 3000)).toEqual({
      sqrtRatioNextX96: (sqrtP * 11n) / 10n,
      amountIn: 26215n,
      feeAmount: 79n,
      amountOut: 0n,
    });
    expect(computeSwapStep(sqrtP, (sqrtP * 9n) / 10n, 1024n, -263000n, 3000)).toEqual({
      sqrtRatioNextX96: (sqrtP * 9n) / 10n,
      amountIn: 1n,
      feeAmount: 1n,
      amountOut: 26214n,
    });
  });
});
