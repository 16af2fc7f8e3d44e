import type { SwapEvent } from '../../model/decoded-batch';
import { swapActivity, type PriceBook } from './activities';
import type { TokenRole } from './model';
import { BlockSwapVolumes } from './swap-volumes';

const A = (n: number): string => `0x${n.toString(16).padStart(40, '0')}`;
const WETH = A(1);
const USDC = A(2);
const PEPE = A(3);
const LP = A(4);
const E18 = 10n ** 18n;
const E6 = 10n ** 6n;

const roles: Record<string, TokenRole> = { [WETH]: 'basic', [USDC]: 'basic', [PEPE]: 'basic', [LP]: 'lp' };
const roleOf = (a: string): TokenRole | undefined => roles[a];
const prices: Record<string, number> = { [WETH]: 2_250.123456, [USDC]: 1, [PEPE]: 0, [LP]: 40 };
const decimals: Record<string, number> = { [WETH]: 18, [USDC]: 6, [PEPE]: 18, [LP]: 18 };
const book: PriceBook = {
  network: 'ethereum',
  keyOf: (a) => `ethereum:${a}`,
  symbolOf: () => '',
  decimalsOf: (a) => decimals[a] ?? 18,
  priceOf: (a) => prices[a] ?? 0,
};

const swap = (
  tokenIn: string,
  amountIn: bigint,
  tokenOut: string,
  amountOut: bigint,
  family: SwapEvent['family'] = 'uniswap-v3',
): SwapEvent => ({
  blockNumber: 7,
  logIndex: 0,
  txHash: '0x7',
  pool: A(99),
  family,
  account: A(98),
  tokenIn,
  tokenOut,
  amountIn,
  amountOut,
});
const rows = (v: BlockSwapVolumes): Array<{ address: string; swaps: number; cents: number }> =>
  v.rows('ethereum', 7, 1_700_000_000, book.keyOf).map(({ address, row }) => ({ address, swaps: row.swaps, cents: row.volumeCents }));

describe('swap volume of basic and native tokens per block', () => {
  it('counts a swap once for each of its two tokens, valued at its input side', () => {
    const v = new BlockSwapVolumes();
    v.add(book, swap(WETH, 2n * E18, USDC, 4_499n * E6), roleOf);
    // 2 WETH at 2,250.123456 = 4,500.246912 USD -> 450,025 cents for both tokens (not the 4,499 USDC out)
    expect(rows(v)).toEqual([
      { address: WETH, swaps: 1, cents: 450_025 },
      { address: USDC, swaps: 1, cents: 450_025 },
    ]);
  });

  it("sums the block's swaps of every pool per token in cents (each swap rounded as the windows do), rows in address order", () => {
    const v = new BlockSwapVolumes();
    v.add(book, swap(USDC, 1_000_004n, WETH, 444n * 10n ** 12n, 'uniswap-v2'), roleOf);
    v.add(book, swap(USDC, 2_000_004n, WETH, 888n * 10n ** 12n), roleOf);
    v.add(book, swap(WETH, E18 / 1000n, PEPE, 10n ** 24n), roleOf);
    // USDC: 1.000004 -> 100 cents, 2.000004 -> 200 cents; WETH adds the 0.001 WETH in (2.250123456 USD -> 225 cents)
    expect(rows(v)).toEqual([
      { address: WETH, swaps: 3, cents: 525 },
      { address: USDC, swaps: 2, cents: 300 },
      { address: PEPE, swaps: 1, cents: 225 },
    ]);
  });

  it('values at the output side when the input has no price, and counts a swap of unpriced tokens with 0', () => {
    const v = new BlockSwapVolumes();
    v.add(book, swap(PEPE, 10n ** 24n, USDC, 12_345_678n), roleOf);
    v.add(book, swap(PEPE, 10n ** 24n, A(50), 1n), (a) => (a === A(50) ? 'basic' : roleOf(a)));
    expect(rows(v)).toEqual([
      { address: USDC, swaps: 1, cents: 1_235 },
      { address: PEPE, swaps: 2, cents: 1_235 },
      { address: A(50), swaps: 1, cents: 0 },
    ]);
  });

  it("leaves out platform tokens (their volume is their activities') and unregistered tokens", () => {
    const v = new BlockSwapVolumes();
    v.add(book, swap(LP, E18, A(60), E18), roleOf);
    expect(v.size).toBe(0);
    v.add(book, swap(LP, E18, WETH, E18), roleOf);
    expect(rows(v)).toEqual([{ address: WETH, swaps: 1, cents: 4_000 }]);
  });

  it('values a swap as the swap activity of a V2 LP values it (volume_usd)', () => {
    const cases = [
      swap(WETH, 123_456_789_012_345_678n, USDC, 1n),
      swap(USDC, 987_654_321n, WETH, 1n),
      swap(PEPE, 10n ** 20n, USDC, 31_415_926n),
    ];
    for (const e of cases) {
      const v = new BlockSwapVolumes();
      v.add(book, e, roleOf);
      const activity = swapActivity(book, e, { lpAddress: LP, token0: WETH, reserveIn: 0n, lpSupply: 0n }, 0);
      expect(rows(v).find((r) => r.address === USDC)!.cents).toBe(Math.round(activity.volumeUsd * 100));
    }
  });

  it('gives each row the network, block, time and token key', () => {
    const v = new BlockSwapVolumes();
    v.add(book, swap(WETH, E18, USDC, 1n), roleOf);
    expect(v.rows('ethereum', 7, 1_700_000_000, book.keyOf)[0]!.row).toEqual({
      network: 'ethereum',
      blockNumber: 7,
      tokenKey: `ethereum:${WETH}`,
      time: 1_700_000_000,
      swaps: 1,
      volumeCents: 225_012,
    });
  });
});
