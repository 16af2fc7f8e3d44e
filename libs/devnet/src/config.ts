/**
 * What the devnet world contains. A V2 fork or another vault is one more entry here, not new code.
 * USD prices are the anchors the simulated markets track; pools are seeded at these prices.
 */
import type { Network } from '@tokensvc/domain';
import type { DevnetPlans, ReserveSpec, V2PlatformSpec, V3PoolSpec, V4PoolSpec, VaultSpec } from '@tokensvc/protocols/devnet';

export {
  aaveMarketLabel,
  type ReserveSpec,
  type V2PlatformSpec,
  type V2PoolSpec,
  type V3PoolSpec,
  type V3PositionSpec,
  type VaultSpec,
} from '@tokensvc/protocols/devnet';

export const DEFAULT_NETWORKS: readonly Network[] = ['ethereum', 'arbitrum', 'base'];

export interface TokenSpec {
  symbol: string;
  name: string;
  decimals: number;
  /** price today; history is a random walk that ends here */
  priceUsd: number;
  /** daily volatility of the simulated price (0 for stablecoins, which stay within a few bps) */
  dailyVol: number;
}

/** WETH comes from the WETH9 artifact (fixed name/symbol/decimals); listed for its price. */
export const WETH_SPEC: TokenSpec = { symbol: 'WETH', name: 'Wrapped Ether', decimals: 18, priceUsd: 3000, dailyVol: 0.03 };

const CORE_TOKENS: readonly TokenSpec[] = [
  { symbol: 'USDC', name: 'USD Coin', decimals: 6, priceUsd: 1, dailyVol: 0 },
  { symbol: 'DAI', name: 'Dai Stablecoin', decimals: 18, priceUsd: 1, dailyVol: 0 },
  { symbol: 'WBTC', name: 'Wrapped BTC', decimals: 8, priceUsd: 60000, dailyVol: 0.025 },
  { symbol: 'LINK', name: 'ChainLink Token', decimals: 18, priceUsd: 15, dailyVol: 0.045 },
  { symbol: 'UNI', name: 'Uniswap', decimals: 18, priceUsd: 8, dailyVol: 0.05 },
];

/** Two long-tail tokens per network, named after what actually trades there. */
const LONG_TAIL: Partial<Record<Network, readonly [TokenSpec, TokenSpec]>> = {
  ethereum: [
    { symbol: 'PEPE', name: 'Pepe', decimals: 18, priceUsd: 0.00001, dailyVol: 0.08 },
    { symbol: 'LDO', name: 'Lido DAO Token', decimals: 18, priceUsd: 1.8, dailyVol: 0.05 },
  ],
  arbitrum: [
    { symbol: 'ARB', name: 'Arbitrum', decimals: 18, priceUsd: 0.8, dailyVol: 0.05 },
    { symbol: 'GMX', name: 'GMX', decimals: 18, priceUsd: 25, dailyVol: 0.05 },
  ],
  base: [
    { symbol: 'AERO', name: 'Aerodrome', decimals: 18, priceUsd: 1.2, dailyVol: 0.06 },
    { symbol: 'DEGEN', name: 'Degen', decimals: 18, priceUsd: 0.005, dailyVol: 0.08 },
  ],
};
const GENERIC_LONG_TAIL: readonly [TokenSpec, TokenSpec] = [
  { symbol: 'MOON', name: 'Moon Token', decimals: 18, priceUsd: 0.05, dailyVol: 0.08 },
  { symbol: 'STAR', name: 'Star Protocol', decimals: 18, priceUsd: 2, dailyVol: 0.05 },
];

/** ERC-20s deployed on a network (WETH excluded); TAIL1/TAIL2 in pool specs refer to the last two. */
export function tokenSpecs(network: Network): TokenSpec[] {
  return [...CORE_TOKENS, ...(LONG_TAIL[network] ?? GENERIC_LONG_TAIL)];
}

export function tailSymbols(network: Network): [string, string] {
  const [a, b] = LONG_TAIL[network] ?? GENERIC_LONG_TAIL;
  return [a.symbol, b.symbol];
}

export const V2_PLATFORMS: readonly V2PlatformSpec[] = [
  {
    slug: 'uniswap-v2',
    name: 'Uniswap V2',
    pools: [
      { a: 'WETH', b: 'USDC', tvlUsd: 12_000_000 },
      { a: 'WETH', b: 'DAI', tvlUsd: 4_000_000 },
      { a: 'USDC', b: 'DAI', tvlUsd: 3_000_000 },
      { a: 'WBTC', b: 'WETH', tvlUsd: 6_000_000 },
      { a: 'LINK', b: 'WETH', tvlUsd: 2_000_000 },
      { a: 'UNI', b: 'WETH', tvlUsd: 1_500_000 },
      { a: 'TAIL1', b: 'WETH', tvlUsd: 800_000 },
      { a: 'TAIL2', b: 'WETH', tvlUsd: 500_000 },
    ],
  },
  {
    slug: 'sushiswap',
    name: 'SushiSwap',
    pools: [
      { a: 'WETH', b: 'USDC', tvlUsd: 4_000_000 },
      { a: 'WBTC', b: 'WETH', tvlUsd: 2_000_000 },
      { a: 'LINK', b: 'WETH', tvlUsd: 800_000 },
      { a: 'UNI', b: 'USDC', tvlUsd: 400_000 },
      { a: 'TAIL2', b: 'WETH', tvlUsd: 300_000 },
    ],
  },
];

export const V3_PLATFORM = { slug: 'uniswap-v3', name: 'Uniswap V3' } as const;

export const V3_POOLS: readonly V3PoolSpec[] = [
  {
    a: 'WETH',
    b: 'USDC',
    fee: 500,
    tvlUsd: 15_000_000,
    positions: [{ share: 0.3 }, { share: 0.4, width: 0.2 }, { share: 0.3, width: 0.06 }],
  },
  { a: 'WETH', b: 'USDC', fee: 3000, tvlUsd: 4_000_000, positions: [{ share: 0.5 }, { share: 0.5, width: 0.3 }] },
  { a: 'USDC', b: 'DAI', fee: 100, tvlUsd: 5_000_000, positions: [{ share: 0.2 }, { share: 0.8, width: 0.005 }] },
  { a: 'WBTC', b: 'WETH', fee: 3000, tvlUsd: 8_000_000, positions: [{ share: 0.4 }, { share: 0.6, width: 0.15 }] },
  { a: 'WBTC', b: 'USDC', fee: 3000, tvlUsd: 3_000_000, positions: [{ share: 0.5 }, { share: 0.5, width: 0.25 }] },
  { a: 'LINK', b: 'WETH', fee: 3000, tvlUsd: 2_000_000, positions: [{ share: 0.6 }, { share: 0.4, width: 0.3 }] },
  { a: 'UNI', b: 'WETH', fee: 3000, tvlUsd: 1_500_000, positions: [{ share: 1 }] },
  { a: 'TAIL1', b: 'WETH', fee: 10000, tvlUsd: 1_000_000, positions: [{ share: 1 }] },
];

export const V4_PLATFORM = { slug: 'uniswap-v4', name: 'Uniswap V4' } as const;

/** Hookless pools; `ETH` is the native coin (currency address(0)). WETH/USDC and UNI/WETH overlap V2's and V3's pairs at other fees. */
export const V4_POOLS: readonly V4PoolSpec[] = [
  { a: 'WETH', b: 'USDC', fee: 1000, tickSpacing: 20, tvlUsd: 6_000_000, positions: [{ share: 0.5 }, { share: 0.5, width: 0.2 }] },
  { a: 'ETH', b: 'USDC', fee: 500, tickSpacing: 10, tvlUsd: 8_000_000, positions: [{ share: 0.4 }, { share: 0.6, width: 0.15 }] },
  { a: 'ETH', b: 'WBTC', fee: 3000, tickSpacing: 60, tvlUsd: 3_000_000, positions: [{ share: 1 }] },
  { a: 'UNI', b: 'WETH', fee: 2500, tickSpacing: 50, tvlUsd: 800_000, positions: [{ share: 1 }] },
];

export const VAULTS_PLATFORM = { slug: 'erc4626-vaults', name: 'ERC-4626 Vaults' } as const;

export const VAULTS: readonly VaultSpec[] = [
  { asset: 'USDC', name: 'Steakhouse USDC', symbol: 'steakUSDC', apy: 0.08, seedUsd: 3_000_000 },
  { asset: 'WETH', name: 'Gauntlet WETH Prime', symbol: 'gtWETH', apy: 0.035, seedUsd: 2_000_000 },
  { asset: 'DAI', name: 'Savings Dai', symbol: 'sDAI', apy: 0.06, seedUsd: 2_500_000 },
];

export const AAVE_PLATFORM = { slug: 'aave-v3', name: 'Aave V3' } as const;

export const AAVE_RESERVES: readonly ReserveSpec[] = [
  { asset: 'USDC', ltv: 7700, liquidationThreshold: 8000, liquidationBonus: 10450, reserveFactor: 1000, stable: true, seedUsd: 6_000_000 },
  { asset: 'DAI', ltv: 7500, liquidationThreshold: 8000, liquidationBonus: 10500, reserveFactor: 1000, stable: true, seedUsd: 4_000_000 },
  { asset: 'WETH', ltv: 8000, liquidationThreshold: 8250, liquidationBonus: 10500, reserveFactor: 1500, stable: false, seedUsd: 8_000_000 },
  { asset: 'WBTC', ltv: 7300, liquidationThreshold: 7800, liquidationBonus: 10500, reserveFactor: 2000, stable: false, seedUsd: 5_000_000 },
];

/**
 * What each family's devnet facet (libs/protocols/src/<family>/devnet.ts) deploys and seeds: a
 * record, so a family the protocols know without its plan here does not compile.
 */
export const DEVNET_PLANS: DevnetPlans = {
  'uniswap-v2': V2_PLATFORMS,
  'uniswap-v3': { platform: V3_PLATFORM, pools: V3_POOLS, swapRouter02V2: V2_PLATFORMS[0]!.slug },
  erc4626: { platform: VAULTS_PLATFORM, vaults: VAULTS },
  'aave-v3': { platform: AAVE_PLATFORM, reserves: AAVE_RESERVES },
  'uniswap-v4': { platform: V4_PLATFORM, pools: V4_POOLS, universalRouter: { v2: V2_PLATFORMS[0]!.slug, v3: V3_PLATFORM.slug } },
};

/** Shape of the simulated history. */
export const SIMULATION = {
  /** days of activity before "now" */
  days: 30,
  /** blocks mined per simulated day (timestamps jump between them) */
  blocksPerDay: 24,
  traders: 40,
  liquidityProviders: 3,
  arbitrageurs: 2,
  /** user actions per block: uniform integer in this range */
  actionsPerBlock: [3, 12] as const,
} as const;
