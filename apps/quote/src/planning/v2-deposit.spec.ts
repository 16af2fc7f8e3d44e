import { getAmountOut, optimalZapSwapAmount, type V2Pool } from '@tokensvc/routing';
import { depositSwap } from './v2-deposit';

const A = '0x00000000000000000000000000000000000000aa';
const B = '0x00000000000000000000000000000000000000bb';
const pair: V2Pool = {
  family: 'uniswap-v2',
  shape: 'constant-product',
  address: '0x01',
  token0: A,
  token1: B,
  fee: 3000,
  reserve0: 1_000n * 10n ** 18n,
  reserve1: 3_000_000n * 10n ** 6n,
};

describe('depositSwap (swap to the pair ratio before adding liquidity)', () => {
  it('single-sided: the closed-form zap formula’s amount (it ignores integer rounding: to 1e-9)', () => {
    const held = 5n * 10n ** 18n;
    const swap = depositSwap(pair, held, 0n);
    expect(swap.tokenIn).toBe(A);
    const closed = optimalZapSwapAmount(held, pair.reserve0, 3000);
    const gap = swap.amount > closed ? swap.amount - closed : closed - swap.amount;
    expect(gap * 10n ** 9n).toBeLessThan(closed);
  });

  it('two-sided: sells only the excess, leaving amounts in the new ratio', () => {
    const held0 = 2n * 10n ** 18n; // worth 6,000
    const held1 = 1_000n * 10n ** 6n; // 1,000: token0 is in excess
    const swap = depositSwap(pair, held0, held1);
    expect(swap.tokenIn).toBe(A);
    const out = getAmountOut(swap.amount, pair.reserve0, pair.reserve1, 3000);
    const left0 = held0 - swap.amount;
    const left1 = held1 + out;
    // (left0 / left1) equals the reserves' new ratio to a relative 1e-9
    const r0 = pair.reserve0 + swap.amount;
    const r1 = pair.reserve1 - out;
    const gap = left0 * r1 - left1 * r0;
    expect(gap >= 0n).toBe(true);
    expect(gap * 10n ** 9n).toBeLessThan(left0 * r1);
  });

  it('holdings already in ratio need no swap; the other side in excess sells token1', () => {
    expect(depositSwap(pair, 10n ** 18n, 3_000n * 10n ** 6n)).toEqual({ amount: 0n });
    expect(depositSwap(pair, 0n, 1_000n * 10n ** 6n).tokenIn).toBe(B);
  });
});
