/**
 * DEVNET ONLY: how the local devnet (libs/devnet, through the port in ../devnet-port.ts) deploys
 * and seeds ERC-4626 vaults. Nothing in production runs it.
 * Each vault is the project's `TestVault` (OpenZeppelin's ERC4626 plus an owner `harvest` that
 * pays yield in) over one of the network's tokens.
 */
import { loadArtifact } from '@tokensvc/contracts';
import { type DevnetFacet, type DevnetWorld, devnetToken, lazyInterface } from '../devnet-port';
import { usdToUnits } from '../devnet-math';
import { addPosition } from '../devnet-trading';

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

/** Pays a day of yield into every vault so share prices grow at the configured APY. */
async function queueHarvests(world: DevnetWorld, plan: VaultsPlan): Promise<void> {
  const { chain } = world;
  const vaults = world.platform('erc4626').vaults;
  const totals = await chain.read(vaults.map((v) => ({ to: v.address, iface: ERC4626_DEVNET_ABI.vault(), fn: 'totalAssets' })));
  vaults.forEach((v, i) => {
    const spec = plan.vaults.find((s) => s.symbol === v.symbol);
    const total = BigInt(totals[i]![0]);
    const amount = (total * BigInt(Math.round(((spec?.apy ?? 0.05) / 365) * 1e9))) / 1_000_000_000n;
    if (amount === 0n) return;
    world.portfolio.debit(chain.deployer, v.asset, amount);
    chain.call(chain.deployer, v.address, ERC4626_DEVNET_ABI.vault(), 'harvest', [amount], { gas: 200_000n, label: `harvest ${v.symbol}` });
  });
}

/**
 * A user deposits into or withdraws from a vault. Each user's deposits are tracked so that
 * withdrawals never exceed what was deposited.
 */
function queueVaultAction(world: DevnetWorld, book: Map<string, Map<string, bigint>>, user: string, step: number): boolean {
  const { chain, rng, portfolio } = world;
  const vault = rng.pick(world.platform('erc4626').vaults);
  let positions = book.get(user);
  if (!positions) book.set(user, (positions = new Map()));
  const deposited = positions.get(vault.address) ?? 0n;
  const abi = ERC4626_DEVNET_ABI.vault();
  if (deposited > 0n && rng.chance(0.4)) {
    // Share price only rises, so half the deposited assets is always withdrawable.
    const assets = (deposited * BigInt(rng.int(10, 50))) / 100n;
    if (assets === 0n) return false;
    chain.call(user, vault.address, abi, 'withdraw', [assets, user, user], { gas: 300_000n, label: `withdraw ${vault.symbol}` });
    addPosition(positions, vault.address, -assets);
    portfolio.credit(user, vault.asset, assets);
    return true;
  }
  const wanted = usdToUnits(rng.logUniform(100, 50_000), world.price(vault.assetSymbol, step), vault.decimals);
  const assets = portfolio.debitUpTo(user, vault.asset, wanted, 0.5);
  if (assets === 0n) return false;
  world.approveOnce(user, vault.asset, vault.address);
  chain.call(user, vault.address, abi, 'deposit', [assets, user], { gas: 300_000n, label: `deposit ${vault.symbol}` });
  addPosition(positions, vault.address, assets);
  return true;
}

/** Roles: vaults (the list of vault addresses, for consumers that only read roles). */
export const erc4626Devnet: DevnetFacet<'erc4626', VaultsPlan> = {
  family: 'erc4626',
  deploy(chain, plan, { tokens }) {
    const vaults = plan.vaults.map((spec) => {
      const asset = devnetToken(tokens, spec.asset);
      const address = chain.deploy(
        chain.deployer,
        loadArtifact('TestVault'),
        [asset.address, spec.name, spec.symbol, chain.deployer],
        spec.symbol,
        4_000_000n,
      );
      // OpenZeppelin's ERC4626 without a decimals offset: shares have the asset's decimals.
      return { address, name: spec.name, symbol: spec.symbol, decimals: asset.decimals, asset: asset.address, assetSymbol: asset.symbol };
    });
    return [
      {
        slug: plan.platform.slug,
        name: plan.platform.name,
        family: 'erc4626',
        addresses: { vaults: vaults.map((v) => v.address) },
        pools: [],
        vaults,
        markets: [],
      },
    ];
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
  history(world, plan) {
    const book = new Map<string, Map<string, bigint>>();
    return {
      // The owner harvests once a day.
      upkeep: async (_step, heartbeat) => {
        if (heartbeat) await queueHarvests(world, plan);
      },
      actions: [{ slot: 5, weight: 8, run: (trader, _pools, step) => queueVaultAction(world, book, trader, step) }],
    };
  },
};
