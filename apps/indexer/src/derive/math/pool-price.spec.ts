import { poolQuote, v2Price, v3Price, v3VirtualReserves } from './pool-price';

const Q96 = 2n ** 96n;
/** sqrtPriceX96 of a human price of token0 in token1 */
const sqrtX96 = (price: number, d0: number, d1: number): bigint => BigInt(Math.round(Math.sqrt(price * 10 ** (d1 - d0)) * 2 ** 96));

describe('pool prices', () => {
  it('prices V2 reserves with the tokens decimals', () => {
    // 100 WETH (18) against 300,000 USDC (6)
    expect(v2Price(100n * 10n ** 18n, 300_000n * 10n ** 6n, 18, 6)).toBeCloseTo(3000, 9);
    expect(v2Price(300_000n * 10n ** 6n, 100n * 10n ** 18n, 6, 18)).toBeCloseTo(1 / 3000, 12);
    expect(v2Price(0n, 1n, 18, 18)).toBe(0);
  });
  it('prices V3 from sqrtPriceX96 with decimals, both orientations', () => {
    expect(v3Price(sqrtX96(3000, 18, 6), 18, 6) / 3000).toBeCloseTo(1, 9);
    expect(v3Price(sqrtX96(1 / 3000, 6, 18), 6, 18) * 3000).toBeCloseTo(1, 9);
    // WBTC (8) / WETH (18) at 20 ETH per BTC
    expect(v3Price(sqrtX96(20, 8, 18), 8, 18) / 20).toBeCloseTo(1, 9);
    // price 1 at equal decimals is sqrtPriceX96 = 2^96
    expect(v3Price(Q96, 18, 18)).toBe(1);
  });
  it('derives V3 virtual reserves from liquidity', () => {
    const { reserve0, reserve1 } = v3VirtualReserves(Q96 * 2n, 1_000_000n);
    expect(reserve0).toBeCloseTo(500_000, 6);
    expect(reserve1).toBeCloseTo(2_000_000, 6);
  });
  it('quotes V3 pools by reported balances, else by virtual reserves; nothing without liquidity', () => {
    const base = { shape: 'concentrated' as const, sqrtPriceX96: Q96, liquidity: 10n ** 18n };
    expect(poolQuote({ ...base, reserve0: 5n * 10n ** 18n, reserve1: 7n * 10n ** 18n }, 18, 18)).toEqual({
      price0In1: 1,
      depth0: 5,
      depth1: 7,
    });
    expect(poolQuote({ ...base, reserve0: 0n, reserve1: 0n }, 18, 18)).toEqual({ price0In1: 1, depth0: 1, depth1: 1 });
    expect(poolQuote({ ...base, liquidity: 0n, reserve0: 1n, reserve1: 1n }, 18, 18)).toBeUndefined();
    expect(poolQuote({ shape: 'constant-product', reserve0: 0n, reserve1: 0n }, 18, 18)).toBeUndefined();
  });
});
