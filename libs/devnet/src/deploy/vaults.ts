import { loadArtifact } from '@tokensvc/contracts';
import { VAULTS_PLATFORM, type VaultSpec } from '../config';
import type { ManifestPlatform, ManifestToken } from '../manifest';
import { type BuildContext, tokenBySymbol } from './context';

export function deployVaults(ctx: BuildContext, specs: readonly VaultSpec[], tokens: readonly ManifestToken[]): ManifestPlatform {
  const vaults = specs.map((spec) => {
    const asset = tokenBySymbol(tokens, spec.asset);
    const address = ctx.writer.deploy(ctx.deployer, loadArtifact('TestVault'), [asset.address, spec.name, spec.symbol, ctx.deployer], spec.symbol, 4_000_000n);
    // OpenZeppelin's ERC4626 without a decimals offset: shares have the asset's decimals.
    return { address, name: spec.name, symbol: spec.symbol, decimals: asset.decimals, asset: asset.address, assetSymbol: asset.symbol };
  });
  // Vault addresses also appear under addresses.vaults for consumers that only read roles.
  return { slug: VAULTS_PLATFORM.slug, name: VAULTS_PLATFORM.name, family: 'erc4626', addresses: { vaults: vaults.map((v) => v.address) }, pools: [], vaults, markets: [] };
}
