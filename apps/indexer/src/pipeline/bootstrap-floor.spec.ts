import type { BootstrapPool, ScopeSnapshot } from './bootstrap-read';
import { applyPoolFloor, nativePrices, toBaseUnits } from './bootstrap-floor';

const WETH = '0x' + '1'.repeat(40);
const USDC = '0x' + '2'.repeat(40);
const DAI = '0x' + '3'.repeat(40);
const LINK = '0x' + '4'.repeat(40);
const E18 = 10n ** 18n;
const v2 = (address: string, token0: string, token1: string, reserve0: bigint, reserve1: bigint): BootstrapPool => ({
  info: { address, platform: 'uniswap-v2', family: 'uniswap-v2', token0, token1, fee: 3000, tickSpacing: null, createdBlock: 9 },
  state: { reserve0, reserve1, sqrtPriceX96: null, liquidity: null, tick: null, blockNumber: 9, logIndex: 0 },
});

describe('pool liquidity floor (wrapped native)', () => {
  // 1 WETH = 3000 USDC (6 decimals); USDC/DAI priced through USDC; LINK only with DAI (unpriced).
  const deep = v2('0xa', WETH, USDC, 100n * E18, 300_000n * 10n ** 6n);
  const thin = v2('0xb', WETH, USDC, E18 / 10n, 300n * 10n ** 6n);
  const stable = v2('0xc', USDC, DAI, 3_000n * 10n ** 6n, 3_000n * E18);
  const unpriced = v2('0xd', DAI, LINK, E18, E18);
  const snapshot: ScopeSnapshot = {
    pools: [deep, thin, stable, unpriced],
    ticks: [],
    tokens: [
      {
        address: '0xb',
        platform: 'uniswap-v2',
        family: 'uniswap-v2',
        underlying: [WETH, USDC],
        poolAddress: '0xb',
        listed: false,
        metadata: {},
      },
    ],
  };

  it('parses whole-token amounts', () => {
    expect(toBaseUnits('2.5', 18)).toBe(25n * 10n ** 17n);
    expect(toBaseUnits('10', 6)).toBe(10_000_000n);
  });

  it('prices a token from its deepest pool with the wrapped native', () => {
    expect(nativePrices(snapshot.pools, WETH).get(USDC)).toBeCloseTo(1e18 / 3000e6, 0);
  });

  it('keeps pools worth at least the floor (both sides valued), drops the others with their LP token, keeps unpriced pools', () => {
    const r = applyPoolFloor(snapshot, WETH, toBaseUnits('1', 18));
    expect(r.snapshot.pools.map((p) => p.info.address)).toEqual(['0xa', '0xc', '0xd']);
    expect(r.snapshot.tokens).toEqual([]);
    expect(r).toMatchObject({ belowFloor: 1, unpriced: 1 });
    // 3000 USDC (1 WETH) + 3000 DAI (unpriced: 0) = 1 WETH: kept at 1, dropped at 1.5
    expect(applyPoolFloor(snapshot, WETH, toBaseUnits('1.5', 18)).snapshot.pools.map((p) => p.info.address)).toEqual(['0xa', '0xd']);
  });

  it('no floor: everything', () => {
    expect(applyPoolFloor(snapshot, WETH, 0n).snapshot).toBe(snapshot);
  });
});
