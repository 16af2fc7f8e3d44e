/** Deploys every contract of one network; liquidity and history come afterwards from the seeder. */
import { plannedDevnetFacets } from '@tokensvc/protocols/devnet';
import { DEVNET_PLANS, tokenSpecs } from '../config';
import type { ManifestPlatform, ManifestToken } from '../manifest';
import { type AcrossContracts, acrossHubPool, deployAcrossContracts } from './across';
import { type BuildContext, devnetChain, mineNext, tokenBySymbol } from './context';
import { deployTokens, installMulticall3 } from './tokens';
import { type RouterContracts, deployRouterContracts } from './router';

export { symbolResolver } from './context';

export interface NetworkDeployment {
  weth: string;
  multicall3: string;
  tokens: ManifestToken[];
  platforms: ManifestPlatform[];
  contracts: RouterContracts & Partial<AcrossContracts>;
  deployBlock: number;
  deployTimestamp: number;
}

/**
 * `priceOf` gives the USD prices at the start of the history, where pools and feeds begin. Each
 * protocol family deploys itself (its devnet facet in libs/protocols) in three places: with the
 * tokens in the first deploy block, after it, and after the order Router in a block of its own.
 */
export async function deployNetwork(ctx: BuildContext, priceOf: (symbol: string) => number): Promise<NetworkDeployment> {
  const chain = devnetChain(ctx);
  const facets = plannedDevnetFacets(DEVNET_PLANS);
  const multicall3 = await installMulticall3(ctx);
  ctx.log('deploying tokens and the protocols of the first block');
  const tokens = deployTokens(ctx, tokenSpecs(ctx.network));
  const env = { tokens, priceOf };
  const platforms: ManifestPlatform[] = facets.flatMap((f) => f.deploy(chain, env));
  const first = await mineNext(ctx);
  ctx.log('deploying the protocols that mine blocks of their own');
  for (const f of facets) platforms.push(...(await f.deployMined(chain, env)));
  const weth = tokenBySymbol(tokens, 'WETH').address;
  ctx.log('deploying the order Router');
  const router = await deployRouterContracts(ctx);
  // A block of its own after every protocol: no protocol address moves.
  const late = Object.assign({}, ...facets.map((f) => f.deployLate(chain, env, platforms))) as Record<string, Record<string, string>>;
  await mineNext(ctx);
  // Appended after it (a block of its own), so every address above stays where it was.
  ctx.log('deploying Across (SpokePool and MulticallHandler)');
  const across = await deployAcrossContracts(ctx, weth, acrossHubPool());
  return {
    weth,
    multicall3,
    tokens,
    platforms: platforms.map((p) => (late[p.slug] ? { ...p, addresses: { ...p.addresses, ...late[p.slug] } } : p)),
    contracts: { ...router, ...across },
    deployBlock: first.number,
    deployTimestamp: first.timestamp,
  };
}
