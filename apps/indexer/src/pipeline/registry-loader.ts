import { decodeAddressResult, multicall, SELECTORS, type JsonRpcClient, type PlatformDefinition } from '@tokensvc/chain';
import type { Network } from '@tokensvc/domain';
import { ADAPTERS } from '../adapters';
import type { TokenSeed } from '../model/registry.types';
import type { SqlTx } from '../model/sql-tx';
import { ContractRegistry } from '../registry/contract-registry';
import type { PoolScopeMode } from '../registry/scope';
import { loadPools } from '../store/pools.repo';
import { loadTokenSeeds } from '../store/tokens.repo';

export interface LoadedRegistry {
  registry: ContractRegistry;
  /** tokens known from configuration that are not stored yet: the next batch registers them */
  pendingSeeds: TokenSeed[];
}

/**
 * Builds a network's registry: the platforms' static contracts (factories, configurators,
 * markets) from config, then every stored token and pool from Postgres, then the seeds
 * (native token, listed tokens, vault lists) that are not stored yet. `poolScope`: which
 * discovered pools and aTokens are registered (see PoolScope).
 */
export async function loadRegistry(
  q: SqlTx,
  client: JsonRpcClient,
  network: Network,
  platforms: readonly PlatformDefinition[],
  listedTokens: readonly string[],
  poolScope: PoolScopeMode = 'listed',
): Promise<LoadedRegistry> {
  const registry = new ContractRegistry(network, { mode: poolScope, listed: new Set(listedTokens.map((t) => t.toLowerCase())) });
  for (const p of platforms) {
    const adapter = ADAPTERS[p.family];
    const market = adapter.staticContracts(p).find((c) => c.role === 'market')?.address;
    for (const c of adapter.staticContracts(p)) {
      if (c.role === 'source')
        registry.addSource({
          address: c.address,
          platform: p.slug,
          family: p.family,
          market,
          ...(p.options ? { options: p.options } : {}),
        });
      else registry.addMarket({ address: c.address, platform: p.slug });
    }
  }
  const stored = await loadTokenSeeds(q, network);
  for (const t of stored) registry.addToken(t);
  for (const { info, state } of await loadPools(q, network)) registry.addPool(info, state);

  const pendingSeeds: TokenSeed[] = [];
  const ctx = { network, listedTokens, readVaultAssets: (vaults: readonly string[]) => readVaultAssets(client, vaults) };
  for (const p of platforms) {
    for (const d of await ADAPTERS[p.family].seed(p, ctx)) {
      // Configured after the network's first batch: indexed from the block it is registered in.
      const token = stored.length > 0 && d.kind === 'token' ? { ...d.token, partial: true } : d.kind === 'token' ? d.token : undefined;
      if (token && registry.addToken(token)) pendingSeeds.push(token);
    }
  }
  return { registry, pendingSeeds };
}

async function readVaultAssets(client: JsonRpcClient, vaults: readonly string[]): Promise<Map<string, string | undefined>> {
  const results = await multicall(
    client,
    vaults.map((target) => ({ target, data: SELECTORS.asset })),
  );
  return new Map(vaults.map((v, i) => [v, decodeAddressResult(results[i])]));
}
