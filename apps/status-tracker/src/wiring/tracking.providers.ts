/** Nest wiring of the tracker: pg pool, bridge provider, RPC clients, store, tracker, queue, bridge event followers and their lifecycle. */
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import type { Pool } from 'pg';
import { AcrossBridgeProvider, type BridgeProvider } from '@tokensvc/bridge';
import { JsonRpcClient } from '@tokensvc/chain';
import type { Network } from '@tokensvc/domain';
import { createPgPool } from '@tokensvc/persistence';
import type { TrackerConfig } from '../config/tracker-config';
import { BridgeEventStore } from '../events/bridge-event-store';
import { BridgeEventFollowing } from '../events/event-following';
import { QuoteMatcher } from '../events/quote-matcher';
import { CrossChainStatusUseCase } from '../status/cross-chain-status.usecase';
import { OriginTransactionReader } from '../status/origin-transaction';
import { CrossChainOrderStore } from '../tracking/cross-chain-order-store';
import { CrossChainTracker } from '../tracking/tracker';
import { TrackingQueue } from '../tracking/tracking-queue';

export const TRACKER_PG_POOL = Symbol('TRACKER_PG_POOL');
export const BRIDGE_PROVIDER = Symbol('BRIDGE_PROVIDER');
/** The bridge followers' own connections: their commits and event wakes never queue behind the safety-net polls. */
export const TRACKER_EVENTS_PG_POOL = Symbol('TRACKER_EVENTS_PG_POOL');

/** Starts the worker (it re-queues the open rows), then the bridge followers, once the app is up; stops them first on shutdown. */
@Injectable()
export class TrackingLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    private readonly queue: TrackingQueue,
    private readonly following: BridgeEventFollowing,
    @Inject(TRACKER_PG_POOL) private readonly pool: Pool,
    @Inject(TRACKER_EVENTS_PG_POOL) private readonly eventsPool: Pool,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.start();
    this.following.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.following.stop();
    await this.queue.close();
    await this.pool.end();
    await this.eventsPool.end();
  }
}

export function trackingProviders(config: TrackerConfig): Provider[] {
  const log = new Logger('Tracker');
  // Every URL of RPC_URL_<NETWORK> (failover, caps, 429s) and its RPC_MAX_RPS_<NETWORK> budget.
  const chainClient = (n: TrackerConfig['networks'][number]): JsonRpcClient =>
    new JsonRpcClient([...n.rpcUrls], { timeoutMs: 10_000, maxRps: n.maxRps });
  const rpcUrls = Object.fromEntries(config.networks.map((n) => [n.network, n.rpcUrl])) as Partial<Record<Network, string>>;
  return [
    {
      provide: TRACKER_PG_POOL,
      useFactory: () =>
        createPgPool({ connectionString: config.databaseUrl, max: 10, application_name: 'status-tracker' }, (m) => log.warn(m)),
    },
    { provide: BRIDGE_PROVIDER, useFactory: (): BridgeProvider => new AcrossBridgeProvider({ config: config.across, rpcUrls }) },
    { provide: CrossChainOrderStore, inject: [TRACKER_PG_POOL], useFactory: (pool: Pool) => new CrossChainOrderStore(pool) },
    {
      provide: TRACKER_EVENTS_PG_POOL,
      useFactory: () =>
        createPgPool({ connectionString: config.databaseUrl, max: 8, application_name: 'status-tracker-events' }, (m) => log.warn(m)),
    },
    {
      provide: BridgeEventStore,
      inject: [TRACKER_EVENTS_PG_POOL],
      useFactory: (pool: Pool) => new BridgeEventStore(pool, new CrossChainOrderStore(pool)),
    },
    {
      provide: CrossChainTracker,
      inject: [CrossChainOrderStore, BRIDGE_PROVIDER, TRACKER_PG_POOL],
      useFactory: (store: CrossChainOrderStore, provider: BridgeProvider, pool: Pool) =>
        new CrossChainTracker(
          store,
          provider,
          new Map(config.networks.map((n) => [n.network, chainClient(n)])),
          { originNotFoundTimeoutMs: config.originNotFoundTimeoutMs },
          new BridgeEventStore(pool, store),
        ),
    },
    {
      provide: TrackingQueue,
      inject: [CrossChainTracker, CrossChainOrderStore],
      useFactory: (tracker: CrossChainTracker, store: CrossChainOrderStore) =>
        new TrackingQueue(
          tracker,
          store,
          {
            redisUrl: config.redisUrl,
            prefix: config.queuePrefix,
            pollMs: config.pollMs,
            pendingPollMs: config.pendingPollMs,
            lockMs: config.lockMs,
            concurrency: config.concurrency,
            sweepMs: config.sweepMs,
          },
          (m) => log.warn(m),
        ),
    },
    {
      provide: BridgeEventFollowing,
      inject: [BRIDGE_PROVIDER, BridgeEventStore, TRACKER_EVENTS_PG_POOL, CrossChainTracker, TrackingQueue],
      useFactory: (
        provider: BridgeProvider,
        events: BridgeEventStore,
        eventsPool: Pool,
        tracker: CrossChainTracker,
        queue: TrackingQueue,
      ) =>
        new BridgeEventFollowing(
          config.bridgeNetworks.map((network) => ({ network, rpc: chainClient(config.networks.find((c) => c.network === network)!) })),
          provider,
          new QuoteMatcher(new CrossChainOrderStore(eventsPool), provider.name),
          events,
          tracker.withStores(new CrossChainOrderStore(eventsPool), events),
          (orderId, txHash) => queue.add(orderId, txHash),
          {
            databaseUrl: config.databaseUrl,
            confirmations: config.followConfirmations,
            startBlocks: config.followStartBlocks,
            followMs: config.followMs,
            wakeConcurrency: 16,
          },
          (level, m) => (level === 'error' ? log.error(m) : log.warn(m)),
        ),
    },
    {
      provide: CrossChainStatusUseCase,
      inject: [CrossChainOrderStore, BRIDGE_PROVIDER, CrossChainTracker, TrackingQueue],
      useFactory: (store: CrossChainOrderStore, provider: BridgeProvider, tracker: CrossChainTracker, queue: TrackingQueue) =>
        new CrossChainStatusUseCase(
          store,
          provider,
          tracker,
          (orderId, txHash) => queue.add(orderId, txHash),
          config.bridgeNetworks,
          new OriginTransactionReader(new Map(config.networks.map((n) => [n.network, chainClient(n)])), provider),
          { maxTxsPerOrder: config.maxTxsPerOrder },
        ),
    },
    TrackingLifecycle,
  ];
}
