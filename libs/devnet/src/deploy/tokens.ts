import { loadArtifact, loadWeth9Artifact } from '@tokensvc/contracts';
import { MULTICALL3_ADDRESS } from '@tokensvc/domain';
import { type TokenSpec, WETH_SPEC } from '../config';
import type { ManifestToken } from '../manifest';
import type { BuildContext } from './context';

/** Queues WETH9 and the ERC-20s; addresses are known before the block is mined. */
export function deployTokens(ctx: BuildContext, specs: readonly TokenSpec[]): ManifestToken[] {
  const { writer, deployer } = ctx;
  const weth = writer.deploy(deployer, loadWeth9Artifact(), [], 'WETH9', 1_500_000n);
  const tokens: ManifestToken[] = [
    { symbol: WETH_SPEC.symbol, name: WETH_SPEC.name, decimals: WETH_SPEC.decimals, address: weth, priceUsd: WETH_SPEC.priceUsd },
  ];
  for (const spec of specs) {
    const address = writer.deploy(
      deployer,
      loadArtifact('TestERC20'),
      [spec.name, spec.symbol, spec.decimals, deployer],
      spec.symbol,
      3_000_000n,
    );
    tokens.push({ symbol: spec.symbol, name: spec.name, decimals: spec.decimals, address, priceUsd: spec.priceUsd });
  }
  return tokens;
}

/** Multicall3 lives at the same address on every real chain; install our build there directly. */
export async function installMulticall3(ctx: BuildContext): Promise<string> {
  await ctx.rpc.call('anvil_setCode', [MULTICALL3_ADDRESS, loadArtifact('Multicall3').deployedBytecode]);
  return MULTICALL3_ADDRESS;
}
