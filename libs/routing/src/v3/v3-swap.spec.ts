import fc from 'fast-check';
import type { V3Pool, V3Tick } from '../pool';
import { nextInitializedTickWithinOneWord } from './tick-bitmap';
import { getSqrtRatioAtTick } from './tick-math';
import { quoteV3ExactIn, quoteV3ExactOut } from './v3-swap';

/** The contract's algorithm over a literal bitmap (word -> 256 bits), as the reference. */
function bitmapNext(ticks: readonly number[], tick: number, spacing: number, lte: boolean): { next: number; initialized: boolean } {
  const words = new Map<number, bigint>();
  for (const t of ticks) {
    const c = t / spacing;
    words.set(c >> 8, (words.get(c >> 8) ?? 0n) | (1n << BigInt(((c % 256) + 256) % 256)));
  }
  const msb = (x: bigint): number => x.toString(2).length - 1;
  const lsb = (x: bigint): number => (x & -x).toString(2).length - 1;
  let compressed = Math.trunc(tick / spacing);
  if (tick < 0 && tick % spacing !== 0) compressed--;
  if (lte) {
    const bitPos = ((compressed % 256) + 256) % 256;
    const masked = (words.get(compressed >> 8) ?? 0n) & ((1n << BigInt(bitPos)) - 1n + (1n << BigInt(bitPos)));
    return masked !== 0n
      ? { next: (compressed - (bitPos - msb(masked))) * spacing, initialized: true }
      : { next: (compressed - bitPos) * spacing, initialized: false };
  }
  const c1 = compressed + 1;
  const bitPos = ((c1 % 256) + 256) % 256;
  const masked = (words.get(c1 >> 8) ?? 0n) & ~((1n << BigInt(bitPos)) - 1n);
  return masked !== 0n
    ? { next: (c1 + (lsb(masked) - bitPos)) * spacing, initialized: true }
    : { next: (c1 + (255 - bitPos)) * spacing, initialized: false };
}

describe('nextInitializedTickWithinOneWord over a tick list', () => {
  it('agrees with the bitmap algorithm of the contract', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(1, 10, 60, 200),
        fc.uniqueArray(fc.integer({ min: -3000, max: 3000 }), { maxLength: 40 }),
        fc.integer({ min: -3_000_000, max: 3_000_000 }),
        fc.boolean(),
        (spacing, compressedTicks, tick, lte) => {
          const ticks = compressedTicks.map((c) => c * spacing).sort((a, b) => a - b);
          const list: V3Tick[] = ticks.map((index) => ({ index, liquidityNet: 1n }));
          const t = Math.max(-887272, Math.min(887272, Math.trunc(tick / 3)));
          const expected = bitmapNext(ticks, t, spacing, lte);
          expect(nextInitializedTickWithinOneWord(list, t, spacing, lte)).toEqual({ ...expected, next: expected.next + 0 });
        },
      ),
      { numRuns: 500 },
    );
  });
});

/** A 0.3 % pool at price 1 with a wide and a narrow position. */
function pool(): V3Pool {
  const L1 = 10n ** 21n;
  const L2 = 5n * 10n ** 21n;
  return {
    family: 'uniswap-v3',
    shape: 'concentrated',
    address: '0xpool',
    token0: '0xa',
    token1: '0xb',
    fee: 3000,
    tickSpacing: 60,
    sqrtPriceX96: getSqrtRatioAtTick(0),
    tick: 0,
    liquidity: L1 + L2,
    ticks: [
      { index: -6000, liquidityNet: L1 },
      { index: -600, liquidityNet: L2 },
      { index: 600, liquidityNet: -L2 },
      { index: 6000, liquidityNet: -L1 },
    ],
  };
}

describe('V3 swap loop', () => {
  it('crosses initialized ticks and updates the in-range liquidity', () => {
    const p = pool();
    const small = quoteV3ExactIn(p, '0xa', 10n ** 18n);
    expect(small.ticksCrossed).toBe(0);
    expect(small.after.liquidity).toBe(p.liquidity);
    const large = quoteV3ExactIn(p, '0xa', 500n * 10n ** 18n);
    expect(large.ticksCrossed).toBe(1);
    expect(large.after.tick).toBeLessThan(-600);
    expect(large.after.liquidity).toBe(10n ** 21n);
    const drain = quoteV3ExactIn(p, '0xb', 10n ** 40n);
    expect(drain.ticksCrossed).toBe(2);
    expect(drain.after.liquidity).toBe(0n);
    expect(drain.amountIn < 10n ** 40n).toBe(true);
  });

  it('exact output needs at most the exact input that produced it, and gives at least that output', () => {
    const p = pool();
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 2_000n * 10n ** 18n }), fc.boolean(), (amountIn, zeroForOne) => {
        const tokenIn = zeroForOne ? '0xa' : '0xb';
        const forward = quoteV3ExactIn(p, tokenIn, amountIn);
        fc.pre(forward.amountOut > 0n);
        const back = quoteV3ExactOut(p, tokenIn, forward.amountOut)!;
        expect(back.amountOut).toBe(forward.amountOut);
        expect(back.amountIn <= amountIn).toBe(true);
        expect(quoteV3ExactIn(p, tokenIn, back.amountIn).amountOut >= forward.amountOut).toBe(true);
      }),
    );
  });

  it('is monotonic in the input', () => {
    const p = pool();
    let last = 0n;
    for (let e = 0; e < 26; e++) {
      const out = quoteV3ExactIn(p, '0xa', 10n ** BigInt(e)).amountOut;
      expect(out >= last).toBe(true);
      last = out;
    }
  });
});
