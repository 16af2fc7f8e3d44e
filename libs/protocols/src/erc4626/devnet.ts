/**
 * DEVNET ONLY: how the local devnet (libs/devnet, through the port in ../devnet-port.ts) deploys
 * and seeds ERC-4626 vaults. Nothing in production runs it.
 * Each vault is the project's `TestVault` (OpenZeppelin's ERC4626 plus an owner `harvest` that
 * pays yield in) over one of the network's tokens.
 */
import { loadArtifact } from '@tokensvc/contracts';
import { type DevnetFacet, devnetToken, lazyInterface } from '../devnet-port';
import { usdToUnits } from '../devnet-math';

export interface VaultSpec {
  asset: string;
  name: string;
  symbol: string;
  /** yield the simulated harvests add per year */
  apy: number;
  /** assets the LP deposits at seeding, USD */
  seedUsd: number;
}

export interface VaultsPlan {
  platform: { slug: string; name: string };
  vaults: readonly VaultSpec[];
}

export const ERC4626_DEVNET_ABI = {
  vault: lazyInterface(() => loadArtifact('TestVault').abi),
};

/** Roles: vaults (the list of vault addresses, for consumers that only read roles). */
export const erc4626Devnet: DevnetFacet<'erc4626', VaultsPlan> = {
  family: 'erc4626',
  deploy(chain, plan, { tokens }) {
    const vaults = plan.vaults.map((spec) => {
      const asset = devnetToken(tokens, spec.asset);
      const address = chain.deploy(chain.deployer, loadArtifact('TestVault'), [asset.address, spec.name, spec.symbol, chain.deployer], spec.symbol, 4_000_000n);
      // OpenZeppelin's ERC4626 without a decimals offset: shares have the asset's decimals.
      return { address, name: spec.name, symbol: spec.symbol, decimals: asset.decimals, asset: asset.address, assetSymbol: asset.symbol };
    });
    return [{ slug: plan.platform.slug, name: plan.platform.name, family: 'erc4626', addresses: { vaults: vaults.map((v) => v.address) }, pools: [], vaults, markets: [] }];
  },
  liquidity: {
    // The third liquidity provider (the lending one) deposits into every vault.
    grants(world, plan) {
      const lp = world.accounts.liquidityProviders[2]!;
      return plan.vaults.map((v) => ({ to: lp, symbol: world.chain.resolve(v.asset), usd: v.seedUsd }));
    },
    add(world, plan) {
      const { chain, portfolio } = world;
      const lp = world.accounts.liquidityProviders[2]!;
      for (const v of world.platform('erc4626').vaults) {
        const spec = plan.vaults.find((s) => s.symbol === v.symbol)!;
        const amount = usdToUnits(spec.seedUsd, world.price(v.assetSymbol, 0), world.token(v.assetSymbol).decimals);
        world.approveOnce(lp, v.asset, v.address);
        chain.call(lp, v.address, ERC4626_DEVNET_ABI.vault(), 'deposit', [amount, lp], { gas: 300_000n, label: `deposit ${v.symbol}` });
        portfolio.debit(lp, v.asset, amount);
        // The owner pays simulated yield in; approve once now.
        world.approveOnce(chain.deployer, v.asset, v.address);
      }
    },
  },
};
