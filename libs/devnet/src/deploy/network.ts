/** Deploys every contract of one network; liquidity and history come afterwards from the seeder. */
import { AAVE_RESERVES, V2_PLATFORMS, V3_POOLS, VAULTS, tailSymbols, tokenSpecs } from '../config';
import type { ManifestPlatform, ManifestToken } from '../manifest';
import { type AcrossContracts, acrossHubPool, deployAcrossContracts } from './across';
import { deployAave } from './aave';
import { type BuildContext, mineNext, tokenBySymbol } from './context';
import { deployTokens, installMulticall3 } from './tokens';
import { deployV2Platform } from './uniswap-v2';
import { deploySwapRouter02, deployV3Platform } from './uniswap-v3';
import { type RouterContracts, deployRouterContracts } from './router';
import { deployVaults } from './vaults';

export interface NetworkDeployment {
  weth: string;
  multicall3: string;
  tokens: ManifestToken[];
  platforms: ManifestPlatform[];
  contracts: RouterContracts & Partial<AcrossContracts>;
  deployBlock: number;
  deployTimestamp: number;
}

/** Pool specs name long-tail tokens TAIL1/TAIL2 so one table serves every network; `ctx.aliases` renames the rest. */
export function symbolResolver(ctx: BuildContext): (symbol: string) => string {
  const [tail1, tail2] = tailSymbols(ctx.network);
  return (symbol) => {
    const s = symbol === 'TAIL1' ? tail1 : symbol === 'TAIL2' ? tail2 : symbol;
    return ctx.aliases?.[s] ?? s;
  };
}

/** `priceOf` gives the USD prices at the start of the history, where pools and feeds begin. */
export async function deployNetwork(ctx: BuildContext, priceOf: (symbol: string) => number): Promise<NetworkDeployment> {
  const resolve = symbolResolver(ctx);
  const multicall3 = await installMulticall3(ctx);
  ctx.log('deploying tokens, Uniswap V2/V3 and vaults');
  const tokens = deployTokens(ctx, tokenSpecs(ctx.network));
  const v2 = V2_PLATFORMS.map((spec) => deployV2Platform(ctx, spec, tokens, resolve));
  const v3 = deployV3Platform(ctx, V3_POOLS, tokens, resolve, priceOf);
  const vaults = deployVaults(ctx, VAULTS, tokens);
  const first = await mineNext(ctx);
  ctx.log('deploying Aave V3');
  const aave = await deployAave(ctx, AAVE_RESERVES, tokens, priceOf);
  const weth = tokenBySymbol(tokens, 'WETH').address;
  ctx.log('deploying the order Router');
  const router = await deployRouterContracts(ctx);
  // A block of its own after every protocol: no protocol address moves.
  const uniswapV2 = v2.find((p) => p.slug === 'uniswap-v2')!;
  const swapRouter02 = deploySwapRouter02(ctx, uniswapV2, v3, weth);
  await mineNext(ctx);
  // Appended after it (a block of its own), so every address above stays where it was.
  ctx.log('deploying Across (SpokePool and MulticallHandler)');
  const across = await deployAcrossContracts(ctx, weth, acrossHubPool());
  return {
    weth,
    multicall3,
    tokens,
    platforms: [...v2, { ...v3, addresses: { ...v3.addresses, swapRouter02 } }, vaults, aave],
    contracts: { ...router, ...across },
    deployBlock: first.number,
    deployTimestamp: first.timestamp,
  };
}
