/**
 * DEVNET ONLY: the protocol modules' devnet facets (`@tokensvc/protocols/devnet`, an entry point of
 * its own so production code never loads them). libs/devnet implements the port (devnet-port.ts)
 * and runs every step of the build for each family here; it names no family itself.
 */
import type { PlatformFamily } from '@tokensvc/domain';
import { aaveV3Devnet } from './aave-v3/devnet';
import type {
  DevnetChain,
  DevnetDeployEnv,
  DevnetFacet,
  DevnetGrant,
  DevnetHistory,
  DevnetPlatform,
  DevnetPoolFacet,
  DevnetWorld,
} from './devnet-port';
import { erc4626Devnet } from './erc4626/devnet';
import { uniswapV2Devnet } from './uniswap-v2/devnet';
import { uniswapV3Devnet } from './uniswap-v3/devnet';
import { uniswapV4Devnet } from './uniswap-v4/devnet';

export * from './devnet-port';
export * from './devnet-math';
export * from './devnet-trading';
export { V2_DEVNET_ABI, v2PairAddress, type V2PlatformSpec, type V2PoolSpec } from './uniswap-v2/devnet';
export { V3_DEVNET_ABI, v3PoolAddress, type V3PlatformPlan, type V3PoolSpec, type V3PositionSpec } from './uniswap-v3/devnet';
export { V4_DEVNET_ABI, type V4PlatformPlan, type V4PoolSpec } from './uniswap-v4/devnet';
export { ERC4626_DEVNET_ABI, type VaultSpec, type VaultsPlan } from './erc4626/devnet';
export {
  AAVE_DEVNET_ABI,
  RATE_STRATEGIES,
  aaveMarketLabel,
  aaveReserves,
  deployLinked,
  deployReserveKit,
  reserveInput,
  type AavePlan,
  type ReserveKit,
  type ReserveSpec,
} from './aave-v3/devnet';

/** Every family's devnet facet; null for a family the devnet deploys nothing for. A family missing here does not compile. */
export const DEVNET_FACETS = {
  native: null,
  basic: null,
  'uniswap-v2': uniswapV2Devnet,
  'uniswap-v3': uniswapV3Devnet,
  'uniswap-v4': uniswapV4Devnet,
  erc4626: erc4626Devnet,
  'aave-v3': aaveV3Devnet,
} as const satisfies { readonly [F in PlatformFamily]: DevnetFacet<F, unknown> | null };

type Facets = typeof DEVNET_FACETS;

/** The families the devnet deploys (a facet here), derived from the facets. */
export type DevnetFamily = { [F in PlatformFamily]: Facets[F] extends null ? never : F }[PlatformFamily];

/** The world plan (libs/devnet's config) a family's facet is driven by. */
export type DevnetPlanOf<F extends DevnetFamily> = Facets[F] extends DevnetFacet<F, infer S> ? S : never;

/** One plan per family: a record, so a family without its plan does not compile. */
export type DevnetPlans = { readonly [F in DevnetFamily]: DevnetPlanOf<F> };

/**
 * The order the devnet runs each step in, family by family: the order it has always deployed and
 * seeded them in (so the built chains stay the same): the DEXes, then lending, then the vaults;
 * Uniswap V4, added later, last (so no earlier contract's address moves).
 * A record, so a new family must be given its place.
 */
const DEVNET_RANK: Record<DevnetFamily, number> = { 'uniswap-v2': 0, 'uniswap-v3': 1, 'aave-v3': 2, erc4626: 3, 'uniswap-v4': 4 };

export const DEVNET_ORDER: readonly DevnetFamily[] = (Object.keys(DEVNET_RANK) as DevnetFamily[]).sort(
  (a, b) => DEVNET_RANK[a] - DEVNET_RANK[b],
);

/** A family's facet with its plan applied: what libs/devnet iterates. */
export interface PlannedDevnetFacet {
  family: DevnetFamily;
  deploy(chain: DevnetChain, env: DevnetDeployEnv): Array<DevnetPlatform<DevnetFamily>>;
  deployMined(chain: DevnetChain, env: DevnetDeployEnv): Promise<Array<DevnetPlatform<DevnetFamily>>>;
  deployLate(chain: DevnetChain, env: DevnetDeployEnv, platforms: readonly DevnetPlatform[]): Record<string, Record<string, string>>;
  liquidityGrants(world: DevnetWorld): DevnetGrant[];
  addLiquidity(world: DevnetWorld): Promise<void>;
  /** null when the family's pools are not traded */
  pools: DevnetPoolFacet | null;
  history(world: DevnetWorld): DevnetHistory;
}

/**
 * A family's facet with its plan. A world with no platform of the family (a profile that deploys
 * only some families, such as the mainnet-shaped one) gets no liquidity and no history from it.
 */
function planned<F extends DevnetFamily>(family: F, plan: DevnetPlanOf<F>): PlannedDevnetFacet {
  const facet = DEVNET_FACETS[family] as DevnetFacet<F, DevnetPlanOf<F>>;
  const present = (world: DevnetWorld): boolean => world.platforms(family).length > 0;
  return {
    family,
    deploy: (chain, env) => facet.deploy?.(chain, plan, env) ?? [],
    deployMined: async (chain, env) => (await facet.deployMined?.(chain, plan, env)) ?? [],
    deployLate: (chain, env, platforms) => facet.deployLate?.(chain, plan, env, platforms) ?? {},
    liquidityGrants: (world) => (present(world) ? (facet.liquidity?.grants(world, plan) ?? []) : []),
    addLiquidity: async (world) => (present(world) ? facet.liquidity?.add(world, plan) : undefined),
    pools: facet.pools ?? null,
    history: (world) => (present(world) ? (facet.history?.(world, plan) ?? {}) : {}),
  };
}

/** Every family's facet with its plan, in DEVNET_ORDER. */
export function plannedDevnetFacets(plans: DevnetPlans): PlannedDevnetFacet[] {
  return DEVNET_ORDER.map((family) => planned(family, plans[family]));
}
