import { Global, Inject, Logger, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import type { Pool } from 'pg';
import type { GatewayConfig } from '@tokensvc/config';
import { createPgPool } from '@tokensvc/persistence';
import { NatsRpcClient } from '@tokensvc/transport';
import { GATEWAY_CONFIG, PG_POOL, REDIS } from './tokens';

const logger = new Logger('infra');

/** The gateway's clients: NATS request/reply to the services, Postgres (keys, usage), Redis (limits). */
@Global()
@Module({})
export class InfraModule implements OnApplicationShutdown {
  constructor(
    private readonly rpc: NatsRpcClient,
    @Inject(PG_POOL) private readonly pg: Pool,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  static forRoot(config: GatewayConfig): DynamicModule {
    return {
      module: InfraModule,
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        {
          provide: NatsRpcClient,
          useFactory: () => {
            const client = new NatsRpcClient(config.natsUrl, config.natsRequestTimeoutMs, 'gateway');
            void client.start();
            return client;
          },
        },
        {
          provide: PG_POOL,
          useFactory: () =>
            createPgPool(
              { connectionString: config.databaseUrl, max: 10, connectionTimeoutMillis: 2000, application_name: 'gateway' },
              (m) => logger.warn(m),
            ),
        },
        // Offline queue off: while Redis is down commands fail at once instead of piling up.
        // Auto-pipelining sends the limiter calls of one event-loop tick in one write.
        {
          provide: REDIS,
          useFactory: () => {
            const redis = new Redis(config.redisUrl, {
              lazyConnect: false,
              enableOfflineQueue: false,
              maxRetriesPerRequest: 1,
              connectTimeout: 2000,
              enableAutoPipelining: true,
            });
            // Connection errors repeat on every retry: log the first of each outage only.
            let down = false;
            redis.on('error', (e: Error) => {
              if (!down) logger.warn(`redis unreachable: ${e.message}`);
              down = true;
            });
            redis.on('ready', () => (down = false));
            return redis;
          },
        },
      ],
      exports: [GATEWAY_CONFIG, NatsRpcClient, PG_POOL, REDIS],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    // QUIT needs a live connection; otherwise disconnect, or the client keeps reconnecting.
    const redis = this.redis.status === 'ready' ? this.redis.quit() : Promise.resolve(this.redis.disconnect());
    await Promise.allSettled([this.rpc.close(), this.pg.end(), redis]);
  }
}
