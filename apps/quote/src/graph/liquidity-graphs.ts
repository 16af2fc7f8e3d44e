/**
 * One NetworkGraph per enabled network, loaded from Postgres in the background at start and then
 * kept fresh by the pool event stream (and tick re-reads). Ready once every network is loaded;
 * until then quotes answer UNAVAILABLE instead of routing over an empty graph.
 */
import { Logger } from '@nestjs/common';
import { NETWORK_INFO, ZERO_ADDRESS, type Network } from '@tokensvc/domain';
import { ErrorCode, type IndexedHead, type PoolStateChanged } from '@tokensvc/messages';
import { ServiceError } from '@tokensvc/transport';
import type { CatalogToken } from './catalog';
import type { GraphRepository } from './graph.repository';
import { NetworkGraph } from './network-graph';
import { nativeAsWrapped, updateFromEvent } from './pool-codec';
import type { PoolEventStream } from './pool-event-stream';
import { TickRefresher } from './tick-refresher';

export interface GraphNetwork {
  network: Network;
  wrappedNative: string;
}

/** The native token is always known; it is priced like its wrapper when the indexer has no price. */
export function withNative(tokens: readonly CatalogToken[], network: Network, wrappedNative: string): CatalogToken[] {
  const wrapper = tokens.find((t) => t.address === wrappedNative);
  const native = tokens.find((t) => t.address === ZERO_ADDRESS);
  const symbol = NETWORK_INFO[network].nativeSymbol;
  const entry: CatalogToken = native ?? {
    address: ZERO_ADDRESS,
    symbol,
    name: symbol,
    decimals: 18,
    family: 'native',
    platform: 'native',
    underlying: [],
    poolAddress: null,
    priceUsd: 0,
  };
  const priced = { ...entry, family: 'native', priceUsd: entry.priceUsd > 0 ? entry.priceUsd : (wrapper?.priceUsd ?? 0) };
  return [...tokens.filter((t) => t.address !== ZERO_ADDRESS), priced];
}

export class LiquidityGraphs {
  private readonly logger = new Logger('LiquidityGraphs');
  private readonly graphs = new Map<Network, NetworkGraph>();
  private readonly ticks: TickRefresher;
  private refreshTimer: NodeJS.Timeout | undefined;
  private loading: Promise<void> | undefined;
  private stopped = false;
  ready = false;

  constructor(
    private readonly networks: readonly GraphNetwork[],
    private readonly repo: GraphRepository,
    private readonly events: PoolEventStream,
    private readonly catalogRefreshMs: number,
  ) {
    this.ticks = new TickRefresher(
      (network, pools) => this.repo.ticks(network, pools),
      (network, pool, list) => this.graphs.get(network)?.setTicks(pool, list),
      (e) => this.logger.warn(`tick refresh failed: ${(e as Error).message}`),
    );
  }

  /** Nest: loading runs in the background; readiness reports when it is done. */
  onApplicationBootstrap(): void {
    void this.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  /** Starts loading (retrying until it succeeds); resolves once every network is loaded. */
  start(): Promise<void> {
    this.loading ??= this.loadWithRetry();
    return this.loading;
  }

  get(network: Network): NetworkGraph {
    const graph = this.graphs.get(network);
    if (!this.ready || !graph) {
      const enabled = this.networks.some((n) => n.network === network);
      throw new ServiceError(
        enabled ? ErrorCode.ERROR_CODE_UNAVAILABLE : ErrorCode.ERROR_CODE_BAD_REQUEST,
        enabled ? `the ${network} liquidity graph is still loading; retry shortly` : `network ${network} is not enabled on this service`,
      );
    }
    return graph;
  }

  /** Resolves when pending tick re-reads are applied (tests). */
  settled(): Promise<void> {
    return this.ticks.idle();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    this.ticks.dispose();
    await this.events.close();
  }

  private async loadWithRetry(): Promise<void> {
    for (let attempt = 1; !this.stopped; attempt++) {
      try {
        await this.load();
        return;
      } catch (e) {
        this.logger.warn(`loading the liquidity graph failed (attempt ${attempt}): ${(e as Error).message}`);
        await new Promise((r) => setTimeout(r, Math.min(10_000, 500 * attempt)));
      }
    }
  }

  private async load(): Promise<void> {
    // The stream position first: everything published up to it is already in the database.
    const afterSeq = await this.events.lastSequence();
    for (const { network, wrappedNative } of this.networks) {
      const started = Date.now();
      const graph = new NetworkGraph(network);
      const [{ pools, ticks, head }, tokens] = await Promise.all([this.repo.load(network), this.repo.tokens(network)]);
      for (const update of pools) graph.applyPool({ ...update, pool: nativeAsWrapped(update.pool, wrappedNative) });
      for (const [pool, list] of ticks) graph.setTicks(pool, list);
      graph.setHead(head);
      graph.replaceTokens(withNative(tokens, network, wrappedNative));
      this.graphs.set(network, graph);
      this.logger.log(
        `${network}: liquidity graph loaded (${graph.poolCount} pools, ${tokens.length} tokens, block ${head.blockNumber}) in ${Date.now() - started} ms`,
      );
    }
    // Not awaited: without the indexer's stream yet, the snapshot still serves quotes.
    this.events
      .start(
        this.networks.map((n) => n.network),
        afterSeq,
        { pool: (network, event) => this.onPoolEvent(network, event), head: (network, head) => this.onHead(network, head) },
      )
      .catch((e: unknown) => this.logger.error(`pool event stream failed: ${(e as Error).message}`));
    this.refreshTimer = setInterval(() => void this.refreshCatalogs(), this.catalogRefreshMs);
    this.refreshTimer.unref();
    this.ready = true;
  }

  /** Held back until the batch's IndexedHead, so the graph never mixes two blocks' states. */
  private onPoolEvent(network: Network, event: PoolStateChanged): void {
    const update = updateFromEvent(event);
    const wrappedNative = this.networks.find((n) => n.network === network)?.wrappedNative;
    if (update)
      this.graphs.get(network)?.queuePool(wrappedNative ? { ...update, pool: nativeAsWrapped(update.pool, wrappedNative) } : update);
  }

  private onHead(network: Network, msg: IndexedHead): void {
    const graph = this.graphs.get(network);
    if (!graph) return;
    const changed = graph.applyHead({ blockNumber: Number(msg.blockNumber), blockHash: msg.blockHash, reorgEpoch: msg.reorgEpoch });
    for (const u of changed) if (u.pool.shape === 'concentrated') this.ticks.schedule(network, u.pool.address);
  }

  /** Token metadata and prices (new LP tokens, vaults, markets; USD prices for values and gas). */
  private async refreshCatalogs(): Promise<void> {
    for (const { network, wrappedNative } of this.networks) {
      try {
        this.graphs.get(network)?.replaceTokens(withNative(await this.repo.tokens(network), network, wrappedNative));
      } catch (e) {
        this.logger.warn(`${network}: token catalog refresh failed: ${(e as Error).message}`);
      }
    }
  }
}
