/**
 * The part of the devnet manifest the derivation tests need (a structural subset of
 * @tokensvc/devnet's NetworkManifest, so this helper does not depend on the devnet tooling).
 */
export interface WorldToken {
  symbol: string;
  name: string;
  decimals: number;
  address: string;
  priceUsd: number;
}

export interface WorldPlatform {
  slug: string;
  family: 'uniswap-v2' | 'uniswap-v3' | 'erc4626' | 'aave-v3';
  addresses: Record<string, string | string[]>;
  pools: Array<{ address: string; token0: string; token1: string; fee: number; tickSpacing?: number }>;
  vaults: Array<{ address: string; name: string; symbol: string; decimals: number; asset: string }>;
  markets: Array<{ asset: string; symbol: string; aToken: string; variableDebtToken: string }>;
}

export interface World {
  network: 'ethereum' | 'arbitrum' | 'base';
  tokens: WorldToken[];
  platforms: WorldPlatform[];
  history: { deployBlock: number; deployTimestamp: number; lastBlock: number; lastTimestamp: number };
}

export const lower = (a: string): string => a.toLowerCase();

export function platformsOf(world: World, family: WorldPlatform['family']): WorldPlatform[] {
  return world.platforms.filter((p) => p.family === family);
}

export function aavePoolAddress(world: World): string {
  const aave = platformsOf(world, 'aave-v3')[0];
  const pool = aave?.addresses['pool'];
  if (typeof pool !== 'string') throw new Error('the devnet has no aave-v3 pool');
  return lower(pool);
}
