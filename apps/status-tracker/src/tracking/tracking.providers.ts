/** Nest wiring of the tracker: pg pool, bridge provider, RPC clients, store, tracker, queue and its lifecycle. */
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import type { Pool } from 'pg';
import { DevnetBridgeProvider } from '@tokensvc/bridge';
import { JsonRpcClient } from '@tokensvc/chain';
import type { Network } from '@tokensvc/domain';
import { createPgPool } from '@tokensvc/persistence';
import type { TrackerConfig } from '../config/tracker-config';
import { CrossChainStatusUseCase } from '../status/cross-chain-status.usecase';
import { CrossChainOrderStore } from './cross-chain-order-store';
import { CrossChainTracker } from './tracker';
import { TrackingQueue } from './tracking-queue';

export const TRACKER_PG_POOL = Symbol('TRACKER_PG_POOL');
export const BRIDGE_PROVIDER = Symbol('BRIDGE_PROVIDER');

/** Starts the worker once the app is up (it re-queues the open rows) and stops it first on shutdown. */
@Injectable()
export class TrackingLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    private readonly queue: TrackingQueue,
    @Inject(TRACKER_PG_POOL) private readonly pool: Pool,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close();
    await this.pool.end();
  }
}

export function trackingProviders(config: TrackerConfig): Provider[] {
  const log = new Logger('Tracker');
  const rpcUrls = Object.fromEntries(config.networks.map((n) => [n.network, n.rpcUrl])) as Partial<Record<Network, string>>;
  return [
    { provide: TRACKER_PG_POOL, useFactory: () => createPgPool({ connectionString: config.databaseUrl, max: 10, application_name: 'status-tracker' }, (m) => log.warn(m)) },
    { provide: BRIDGE_PROVIDER, useFactory: () => new DevnetBridgeProvider({ config: config.bridge, rpcUrls }) },
    { provide: CrossChainOrderStore, inject: [TRACKER_PG_POOL], useFactory: (pool: Pool) => new CrossChainOrderStore(pool) },
    {
      provide: CrossChainTracker,
      inject: [CrossChainOrderStore, BRIDGE_PROVIDER],
      useFactory: (store: CrossChainOrderStore, provider: DevnetBridgeProvider) =>
        new CrossChainTracker(store, provider, new Map(config.networks.map((n) => [n.network, new JsonRpcClient(n.rpcUrl, { timeoutMs: 10_000 })])), { originNotFoundTimeoutMs: config.originNotFoundTimeoutMs }),
    },
    {
      provide: TrackingQueue,
      inject: [CrossChainTracker, CrossChainOrderStore],
      useFactory: (tracker: CrossChainTracker, store: CrossChainOrderStore) =>
        new TrackingQueue(tracker, store, { redisUrl: config.redisUrl, prefix: config.queuePrefix, pollMs: config.pollMs, lockMs: config.lockMs, concurrency: config.concurrency, sweepMs: config.sweepMs, sliceMs: 5 * 60_000 }, (m) => log.warn(m)),
    },
    {
      provide: CrossChainStatusUseCase,
      inject: [CrossChainOrderStore, BRIDGE_PROVIDER, CrossChainTracker, TrackingQueue],
      useFactory: (store: CrossChainOrderStore, provider: DevnetBridgeProvider, tracker: CrossChainTracker, queue: TrackingQueue) =>
        new CrossChainStatusUseCase(store, provider, tracker, (orderId, txHash) => queue.add(orderId, txHash), provider.networks.map((n) => n.network)),
    },
    TrackingLifecycle,
  ];
}
