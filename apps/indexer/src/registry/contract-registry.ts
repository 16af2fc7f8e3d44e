import type { Network } from '@tokensvc/domain';
import { type DiscoverySource, type IndexingRegistry, dexFacet, shapeOf } from '@tokensvc/protocols';
import { emptyPoolState } from '../model/pool-state';
import type { PoolInfo, PoolState, TokenSeed } from '../model/registry.types';
import type { PoolScope } from './scope';

export interface MarketInfo {
  address: string;
  platform: string;
}

export type { DiscoverySource } from '@tokensvc/protocols';

/**
 * Everything the pipeline knows about one network's contracts, in memory: registered tokens,
 * pools and their current state, vaults, markets, and the address list the log filter reads.
 * Rebuilt from Postgres at start and after a reorg or a failed batch, so it never drifts from the
 * committed rows. The watch list only grows (its length is a version for the prefetcher).
 */
export class ContractRegistry implements IndexingRegistry {
  readonly tokens = new Map<string, TokenSeed>();
  readonly pools = new Map<string, PoolInfo>();
  readonly poolStates = new Map<string, PoolState>();
  readonly markets = new Map<string, MarketInfo>();
  readonly sources = new Map<string, DiscoverySource>();
  /** V3 pool address by token, for reserve tracking from Transfers */
  readonly v3PoolsByToken = new Map<string, Set<string>>();
  private readonly watched = new Set<string>();
  private readonly watchList: string[] = [];

  /** which discoveries are registered (INDEXER_POOLS); `all` unless the loader says otherwise */
  constructor(
    readonly network: Network,
    readonly scope: PoolScope = { mode: 'all', listed: new Set() },
  ) {}

  /** addresses whose logs are read, in the order they were added */
  get addresses(): readonly string[] {
    return this.watchList;
  }

  watch(address: string): void {
    if (this.watched.has(address)) return;
    this.watched.add(address);
    this.watchList.push(address);
  }

  isWatched(address: string): boolean {
    return this.watched.has(address);
  }

  addSource(source: DiscoverySource): void {
    this.sources.set(source.address, source);
    this.watch(source.address);
  }

  addToken(token: TokenSeed): boolean {
    if (this.tokens.has(token.address)) return false;
    this.tokens.set(token.address, token);
    // The native coin has no contract (and no logs).
    if (token.family !== 'native') this.watch(token.address);
    return true;
  }

  addMarket(market: MarketInfo): void {
    this.markets.set(market.address, market);
    this.watch(market.address);
  }

  addPool(pool: PoolInfo, state?: PoolState): boolean {
    if (this.pools.has(pool.address)) return false;
    this.pools.set(pool.address, pool);
    this.poolStates.set(pool.address, state ?? { ...emptyPoolState(pool.family), blockNumber: pool.createdBlock, logIndex: 0 });
    // A pool inside a singleton (an id, not a contract) has no logs and no balances of its own:
    // its manager (a discovery source, watched) emits its events, its module counts its reserves.
    if (dexFacet(pool.family).singleton) return true;
    if (shapeOf(pool.family) === 'concentrated') {
      for (const t of [pool.token0, pool.token1]) {
        const set = this.v3PoolsByToken.get(t) ?? new Set<string>();
        set.add(pool.address);
        this.v3PoolsByToken.set(t, set);
      }
    }
    this.watch(pool.address);
    return true;
  }
}
