import fc from 'fast-check';
import type { V2Pair } from './v2-liquidity';
import { addLiquidityAmounts, burnLiquidity, mintLiquidity, supplyAfterProtocolFee } from './v2-liquidity';
import { getAmountIn, getAmountOut, quote } from './v2-math';
import { optimalZapSwapAmount, zapInV2, zapOutV2 } from './v2-zap';

const amount = fc.bigInt({ min: 1n, max: 10n ** 30n });

describe('V2 swap maths', () => {
  it('equals UniswapV2Library (997/1000) for the 0.3 % fee', () => {
    fc.assert(
      fc.property(amount, amount, amount, (a, rIn, rOut) => {
        expect(getAmountOut(a, rIn, rOut)).toBe((a * 997n * rOut) / (rIn * 1000n + a * 997n));
        if (a < rOut) expect(getAmountIn(a, rIn, rOut)).toBe((rIn * a * 1000n) / ((rOut - a) * 997n) + 1n);
      }),
    );
    expect(getAmountOut(2n, 100n, 100n)).toBe(1n);
    expect(getAmountIn(1n, 100n, 100n)).toBe(2n);
  });

  it('getAmountIn is enough and never more than one unit too much', () => {
    fc.assert(
      fc.property(amount, amount, amount, fc.constantFrom(100, 500, 3000, 10000), (out, rIn, rOut, fee) => {
        fc.pre(out < rOut);
        const needed = getAmountIn(out, rIn, rOut, fee)!;
        expect(getAmountOut(needed, rIn, rOut, fee) >= out).toBe(true);
        if (needed > 1n) expect(getAmountOut(needed - 2n > 0n ? needed - 2n : 1n, rIn, rOut, fee) < out || needed <= 2n).toBe(true);
      }),
    );
    expect(getAmountIn(100n, 1000n, 100n)).toBeUndefined();
  });

  it('rejects empty pools and zero amounts like the library', () => {
    expect(() => getAmountOut(0n, 1n, 1n)).toThrow('INSUFFICIENT_INPUT_AMOUNT');
    expect(() => getAmountOut(1n, 0n, 1n)).toThrow('INSUFFICIENT_LIQUIDITY');
    expect(quote(10n, 100n, 250n)).toBe(25n);
  });
});

const pair = (reserve0: bigint, reserve1: bigint, totalSupply: bigint, kLast?: bigint): V2Pair => ({
  family: 'uniswap-v2',
  shape: 'constant-product',
  address: '0xpair',
  token0: '0xa',
  token1: '0xb',
  fee: 3000,
  reserve0,
  reserve1,
  totalSupply,
  kLast,
});

describe('V2 liquidity', () => {
  it('deposits what Router02 deposits and mints the smaller share', () => {
    expect(addLiquidityAmounts(100n, 500n, 1000n, 2000n)).toEqual({ amountA: 100n, amountB: 200n });
    expect(addLiquidityAmounts(100n, 150n, 1000n, 2000n)).toEqual({ amountA: 75n, amountB: 150n });
    expect(mintLiquidity(pair(1000n, 2000n, 1414n), 100n, 200n)).toBe(141n);
    expect(mintLiquidity(pair(0n, 0n, 0n), 10_000n, 10_000n)).toBe(9_000n);
    expect(burnLiquidity(pair(1000n, 2000n, 1414n), 141n)).toEqual({ amount0: 99n, amount1: 199n });
  });

  it('mints the protocol fee share (1/6 of the growth of sqrt k) before a mint when feeTo is on', () => {
    const p = pair(2000n * 10n ** 18n, 2000n * 10n ** 18n, 1000n * 10n ** 18n, 1000n * 10n ** 18n * 1000n * 10n ** 18n);
    // rootK doubled: minted = supply * (rootK - rootKLast) / (5 rootK + rootKLast) = supply * 1000 / 11000
    expect(supplyAfterProtocolFee(p)).toBe(1000n * 10n ** 18n + (1000n * 10n ** 18n * 1000n) / 11000n);
    expect(supplyAfterProtocolFee({ ...p, kLast: undefined })).toBe(p.totalSupply);
  });
});

describe('V2 single-sided zap', () => {
  it('solves the swap-to-ratio quadratic: the swapped part and the rest deposit with almost nothing left', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 10n ** 12n, max: 10n ** 30n }),
        fc.bigInt({ min: 10n ** 12n, max: 10n ** 30n }),
        fc.double({ min: 1e-6, max: 10, noNaN: true }),
        (r0, r1, share) => {
          const amountIn = BigInt(Math.max(1000, Math.floor(Number(r0) * share)));
          const zap = zapInV2(pair(r0, r1, 10n ** 20n), '0xa', amountIn);
          // Leftovers, valued at the pool's price after the swap, are rounding dust.
          const leftoverValue = zap.residualIn + (zap.residualOther * (r0 + zap.swapAmount)) / (r1 - zap.swapOutput);
          expect(leftoverValue <= 10n + amountIn / 10n ** 9n).toBe(true);
          expect(zap.depositIn + zap.swapAmount + zap.residualIn).toBe(amountIn);
        },
      ),
    );
  });

  it('mints at least as many LP tokens as swapping 1 % more or less', () => {
    const p = pair(5_000n * 10n ** 18n, 10_000_000n * 10n ** 6n, 10n ** 20n);
    for (const amountIn of [10n ** 15n, 10n ** 18n, 300n * 10n ** 18n, 20_000n * 10n ** 18n]) {
      const best = zapInV2(p, '0xa', amountIn).liquidity;
      const s = optimalZapSwapAmount(amountIn, p.reserve0);
      for (const other of [(s * 99n) / 100n, (s * 101n) / 100n]) {
        const out = getAmountOut(other, p.reserve0, p.reserve1);
        const after = pair(p.reserve0 + other, p.reserve1 - out, p.totalSupply);
        const { amountA, amountB } = addLiquidityAmounts(amountIn - other, out, after.reserve0, after.reserve1);
        expect(best >= mintLiquidity(after, amountA, amountB)).toBe(true);
      }
    }
  });

  it('zaps out: burn, then swap the other side in the same pair', () => {
    const p = pair(1_000n * 10n ** 18n, 2_000n * 10n ** 18n, 1_000n * 10n ** 18n);
    const z = zapOutV2(p, 10n * 10n ** 18n, '0xb');
    expect(z).toMatchObject({ amount0: 10n * 10n ** 18n, amount1: 20n * 10n ** 18n, swapAmount: 10n * 10n ** 18n });
    expect(z.amountOut).toBe(20n * 10n ** 18n + getAmountOut(10n * 10n ** 18n, 990n * 10n ** 18n, 1_980n * 10n ** 18n));
  });
});
