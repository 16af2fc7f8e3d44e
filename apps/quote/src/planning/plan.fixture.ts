/**
 * A small synthetic network for the planner's unit tests: WETH/USDC/DAI/XYZ with V2 pools, a
 * full-range V3 pool, one V2 LP token, a USDC vault and a USDC lending market.
 */
import { getTickAtSqrtRatio, sqrt, type Pool } from '@tokensvc/routing';
import type { CatalogToken } from '../graph/catalog';
import type { PlanEnv } from './plan-order';
import type { SimWorld } from './sim-world';

export const W = '0x0000000000000000000000000000000000000001';
export const U = '0x0000000000000000000000000000000000000002';
export const D = '0x0000000000000000000000000000000000000003';
export const X = '0x0000000000000000000000000000000000000004';
/** no pool at all */
export const LONELY = '0x0000000000000000000000000000000000000005';
export const WU = '0x00000000000000000000000000000000000000a1';
export const WD = '0x00000000000000000000000000000000000000a2';
export const DU = '0x00000000000000000000000000000000000000a3';
export const XW = '0x00000000000000000000000000000000000000a4';
export const WU3 = '0x00000000000000000000000000000000000000b1';
export const VAULT = '0x00000000000000000000000000000000000000c1';
export const AUSDC = '0x00000000000000000000000000000000000000d1';
export const AAVE_POOL = '0x00000000000000000000000000000000000000d2';
export const NATIVE = '0x0000000000000000000000000000000000000000';

const e18 = 10n ** 18n;
const e6 = 10n ** 6n;

const v2 = (address: string, token0: string, token1: string, reserve0: bigint, reserve1: bigint): Pool => ({
  family: 'uniswap-v2',
  shape: 'constant-product',
  address,
  token0,
  token1,
  fee: 3000,
  reserve0,
  reserve1,
});

function fullRangeV3(address: string, token0: string, token1: string, priceRaw: number, liquidity: bigint): Pool {
  const sqrtPriceX96 = BigInt(Math.floor(Math.sqrt(priceRaw) * 2 ** 96));
  const edge = 887_270;
  return {
    family: 'uniswap-v3',
    shape: 'concentrated',
    address,
    token0,
    token1,
    fee: 500,
    tickSpacing: 10,
    sqrtPriceX96,
    liquidity,
    tick: getTickAtSqrtRatio(sqrtPriceX96),
    ticks: [
      { index: -edge, liquidityNet: liquidity },
      { index: edge, liquidityNet: -liquidity },
    ],
  };
}

export function fixtureWorld(): SimWorld {
  const pools: Pool[] = [
    v2(WU, W, U, 1_000n * e18, 3_000_000n * e6),
    v2(WD, W, D, 500n * e18, 1_500_000n * e18),
    v2(DU, U, D, 2_000_000n * e6, 2_000_000n * e18),
    v2(XW, W, X, 333n * e18, 100_000n * e18),
    fullRangeV3(WU3, W, U, 3000e6 / 1e18, 50_000_000_000_000_000n),
  ];
  return {
    pools: new Map(pools.map((p) => [p.address, p])),
    pairs: new Map([[WU, { totalSupply: sqrt(1_000n * e18 * 3_000_000n * e6) }]]),
    vaults: new Map([[VAULT, { asset: U, totalAssets: 1_000_000n * e6, totalSupply: 950_000n * e6 }]]),
    lending: new Map([[AUSDC, { asset: U, pool: AAVE_POOL, available: 500_000n * e6 }]]),
  };
}

const token = (address: string, symbol: string, decimals: number, priceUsd: number, extra: Partial<CatalogToken> = {}): CatalogToken => ({
  address,
  symbol,
  name: symbol,
  decimals,
  family: 'basic',
  platform: 'basic',
  underlying: [],
  poolAddress: null,
  priceUsd,
  ...extra,
});

export const TOKENS: Record<string, CatalogToken> = {
  [NATIVE]: token(NATIVE, 'ETH', 18, 3000, { family: 'native', platform: 'native' }),
  [W]: token(W, 'WETH', 18, 3000),
  [U]: token(U, 'USDC', 6, 1),
  [D]: token(D, 'DAI', 18, 1),
  [X]: token(X, 'XYZ', 18, 10),
  [LONELY]: token(LONELY, 'LONE', 18, 1),
  [WU]: token(WU, 'LP-WETH/USDC', 18, 0, { family: 'uniswap-v2', platform: 'uniswap-v2', underlying: [W, U], poolAddress: WU }),
  [VAULT]: token(VAULT, 'vUSDC', 6, 1.05, { family: 'erc4626', platform: 'vaults', underlying: [U], poolAddress: VAULT }),
  [AUSDC]: token(AUSDC, 'aUSDC', 6, 1, { family: 'aave-v3', platform: 'aave-v3', underlying: [U], poolAddress: AAVE_POOL }),
};

export const ENV: PlanEnv = {
  token: (a) => TOKENS[a],
  wrappedNative: W,
  platformOf: (pool) => (pool === WU3 ? 'uniswap-v3' : 'uniswap-v2'),
  outputPerGas: () => 0,
  symbol: (a) => TOKENS[a]?.symbol ?? a,
  maxHops: 3,
};

export const amount = { e18, e6 };
