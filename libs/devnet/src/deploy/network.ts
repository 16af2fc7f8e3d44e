/** Deploys every contract of one network; liquidity and history come afterwards from the seeder. */
import { deriveAccount } from '../accounts';
import { AAVE_RESERVES, V2_PLATFORMS, V3_POOLS, VAULTS, tailSymbols, tokenSpecs } from '../config';
import type { ManifestPlatform, ManifestToken } from '../manifest';
import { type AcrossContracts, acrossHubPool, deployAcrossContracts } from './across';
import { deployAave } from './aave';
import { type BridgeContracts, deployBridgeContracts } from './bridge';
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
  contracts: RouterContracts & BridgeContracts & Partial<AcrossContracts>;
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
  // Queued into the bridge's block after every protocol: no extra block, no protocol address moves.
  const uniswapV2 = v2.find((p) => p.slug === 'uniswap-v2')!;
  const swapRouter02 = deploySwapRouter02(ctx, uniswapV2, v3, weth);
  ctx.log('deploying the bridge (escrow and settler)');
  // The filler attests its own fills on the devnet; the seeder derives the same account (World.actors.filler).
  const bridge = await deployBridgeContracts(ctx, deriveAccount(ctx.seed, 'filler', 0).address);
  // Appended after the bridge (a block of its own), so every address above stays where it was.
  ctx.log('deploying Across (SpokePool and MulticallHandler)');
  const across = await deployAcrossContracts(ctx, weth, acrossHubPool());
  return {
    weth,
    multicall3,
    tokens,
    platforms: [...v2, { ...v3, addresses: { ...v3.addresses, swapRouter02 } }, vaults, aave],
    contracts: { ...router, ...bridge, ...across },
    deployBlock: first.number,
    deployTimestamp: first.timestamp,
  };
}
