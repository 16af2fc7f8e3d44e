/** Nest wiring of the order store and the signed-order relayer (part of QuoteModule). */
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import { Wallet } from 'ethers';
import Redis from 'ioredis';
import type { Pool } from 'pg';
import type { Network } from '@tokensvc/domain';
import { createPgPool } from '@tokensvc/persistence';
import { ChainClients } from '../chain/chain-clients';
import type { QuoteConfig } from '../config/quote-config';
import { LiquidityGraphs } from '../graph/liquidity-graphs';
import { OrderStore } from './order-store';
import { RelayMonitor } from './relay-monitor';
import { RelayQueue } from './relay-queue';
import { Relayer, type RelayNetwork } from './relayer';
import { SubmitOrderUseCase } from './submit-order.usecase';

export const RELAY_PG_POOL = Symbol('RELAY_PG_POOL');
export const RELAY_REDIS = Symbol('RELAY_REDIS');

/**
 * Starts the relay worker after the app is up (it resumes open submissions) and stops it first on
 * shutdown; deletes orders past their week every hour.
 */
@Injectable()
export class RelayLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private purger?: NodeJS.Timeout;

  constructor(
    private readonly queue: RelayQueue,
    private readonly store: OrderStore,
    private readonly monitor: RelayMonitor,
    @Inject(RELAY_PG_POOL) private readonly pool: Pool,
    @Inject(RELAY_REDIS) private readonly redis: Redis,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.start();
    this.monitor.start();
    const log = new Logger('OrderStore');
    this.purger = setInterval(
      () =>
        void this.store.purgeExpired().then(
          (n) => n > 0 && log.log(`${n} orders past their week deleted`),
          (e: Error) => log.warn(`purge: ${e.message}`),
        ),
      3_600_000,
    );
    this.purger.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.purger) clearInterval(this.purger);
    this.monitor.stop();
    await this.queue.close();
    this.redis.disconnect();
    await this.pool.end();
  }
}

export function relayProviders(config: QuoteConfig): Provider[] {
  const log = new Logger('Relayer');
  return [
    {
      provide: RELAY_PG_POOL,
      useFactory: () =>
        createPgPool({ connectionString: config.databaseUrl, max: 10, application_name: 'quote-relay' }, (m) => log.warn(m)),
    },
    {
      provide: RELAY_REDIS,
      useFactory: () =>
        new Redis(config.redisUrl, { maxRetriesPerRequest: 1, lazyConnect: false }).on('error', (e: Error) =>
          log.warn(`redis: ${e.message}`),
        ),
    },
    { provide: OrderStore, inject: [RELAY_PG_POOL], useFactory: (pool: Pool) => new OrderStore(pool, config.orderStore) },
    {
      provide: Relayer,
      inject: [RELAY_PG_POOL, OrderStore, ChainClients, LiquidityGraphs],
      useFactory: (pool: Pool, store: OrderStore, chains: ChainClients, graphs: LiquidityGraphs) => {
        const networks = new Map<Network, RelayNetwork>();
        for (const d of config.deployments) {
          const key = config.relay.wallets.get(d.network);
          // no Router, no orders to relay there (they are refused when built)
          if (key && d.router !== undefined)
            networks.set(d.network, {
              network: d.network,
              chainId: d.chainId,
              router: d.router,
              rpc: chains.get(d.network),
              wallet: new Wallet(key),
            });
        }
        return new Relayer({
          pool,
          store,
          networks,
          token: (network, address) => graphs.get(network).token(address),
          options: config.relay,
          log: (msg, extra) => log.log(`${msg} ${JSON.stringify(extra ?? {})}`),
        });
      },
    },
    {
      provide: RelayQueue,
      inject: [Relayer],
      useFactory: (relayer: Relayer) =>
        new RelayQueue(
          relayer,
          {
            redisUrl: config.redisUrl,
            prefix: config.relay.queuePrefix,
            pollMs: config.relay.pollMs,
            lockMs: config.relay.lockMs,
            concurrency: 50,
            sweepMs: 30_000,
          },
          (m) => log.warn(m),
        ),
    },
    {
      provide: RelayMonitor,
      inject: [RELAY_PG_POOL, Relayer],
      useFactory: (pool: Pool, relayer: Relayer) =>
        new RelayMonitor(
          pool,
          relayer.networks,
          { stuckAfterMs: config.relay.stuckAfterMs, intervalMs: config.relay.metricsIntervalMs },
          (m) => log.warn(m),
        ),
    },
    {
      provide: SubmitOrderUseCase,
      inject: [Relayer, RELAY_REDIS],
      useFactory: (relayer: Relayer, redis: Redis) => new SubmitOrderUseCase(relayer, redis, config.relay.submissionsPerCallerPerMinute),
    },
    RelayLifecycle,
  ];
}
