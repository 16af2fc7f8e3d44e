import { Inject, Logger, Module, type BeforeApplicationShutdown, type DynamicModule, type OnApplicationBootstrap } from '@nestjs/common';
import type Redis from 'ioredis';
import type { Pool } from 'pg';
import { ApiKeysRepository } from '@tokensvc/persistence';
import type { Caller, TierPolicy } from '@tokensvc/api';
import { PG_POOL, REDIS } from '../infra/tokens';
import { EndpointUsage } from '../limits/endpoint-usage';
import { RateLimiter } from '../limits/rate-limiter';
import { UsageRecorder } from '../limits/usage-recorder';
import { AccessPolicy } from './access-policy';
import { KeyStore, type KeyCacheSizes } from './key-store';

/** The gateway options keys, limits, quotas and usage are built from (a part of GatewayOptions). */
export interface AccessOptions {
  /** the rolling rate-limit window (the spec's limits are per minute) */
  readonly rateWindowMs: number;
  /** tier x surface limits and monthly quotas */
  readonly tierPolicy: Readonly<Record<Caller, TierPolicy>>;
  /** how long a key lookup is reused in memory; bounds how late a revocation takes effect */
  readonly keyCacheTtlMs: number;
  /** bounds of the key cache: found keys and unknown keys apart */
  readonly keyCacheSizes: KeyCacheSizes;
  /**
   * failed authentications (unknown, malformed, revoked or expired key) per client address (IPv6:
   * per prefix) and window; past it the client's uncached keys answer 429 without a key lookup
   */
  readonly failedAuthLimit: number;
  /** how often the per-day usage counters are written to Postgres */
  readonly usageFlushMs: number;
  /** Redis key prefix of the limiter and quota counters */
  readonly redisPrefix: string;
}

const logger = new Logger('access');

/** Keys, limits, quotas and usage: what the access hook needs, built from the options. */
@Module({})
export class AccessModule implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    @Inject(UsageRecorder) private readonly usage: UsageRecorder,
    @Inject(EndpointUsage) private readonly endpointUsage: EndpointUsage,
  ) {}

  static forRoot(options: AccessOptions): DynamicModule {
    return {
      module: AccessModule,
      providers: [
        { provide: ApiKeysRepository, useFactory: (pg: Pool) => new ApiKeysRepository(pg), inject: [PG_POOL] },
        {
          provide: KeyStore,
          useFactory: (repo: ApiKeysRepository) => new KeyStore(repo, options.keyCacheTtlMs, Date.now, options.keyCacheSizes),
          inject: [ApiKeysRepository],
        },
        {
          provide: RateLimiter,
          useFactory: (redis: Redis) => new RateLimiter(redis, options.redisPrefix, options.rateWindowMs),
          inject: [REDIS],
        },
        {
          provide: UsageRecorder,
          useFactory: (repo: ApiKeysRepository) =>
            new UsageRecorder(repo, options.usageFlushMs, (e) =>
              logger.warn(`usage write failed, kept for the next flush: ${(e as Error).message}`),
            ),
          inject: [ApiKeysRepository],
        },
        {
          provide: EndpointUsage,
          useFactory: (redis: Redis) =>
            new EndpointUsage(redis, options.redisPrefix, options.usageFlushMs, (e) =>
              logger.warn(`endpoint usage write failed, kept for the next flush: ${(e as Error).message}`),
            ),
          inject: [REDIS],
        },
        {
          provide: AccessPolicy,
          useFactory: (keys: KeyStore, limiter: RateLimiter, usage: UsageRecorder, endpointUsage: EndpointUsage) =>
            new AccessPolicy({
              keys,
              limiter,
              usage,
              endpointUsage,
              tierPolicy: options.tierPolicy,
              failedAuthLimit: options.failedAuthLimit,
              onLimiterError: (e) => logger.error(`rate limiter failed: ${(e as Error).message}`),
              onKeyStoreError: (e) => logger.error(`API key lookup failed: ${(e as Error).message}`),
            }),
          inject: [KeyStore, RateLimiter, UsageRecorder, EndpointUsage],
        },
      ],
      exports: [ApiKeysRepository, KeyStore, RateLimiter, UsageRecorder, EndpointUsage, AccessPolicy],
    };
  }

  onApplicationBootstrap(): void {
    this.usage.start();
    this.endpointUsage.start();
  }

  /** Before the pools close (onApplicationShutdown), so the last counts reach Postgres. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([this.usage.close(), this.endpointUsage.close()]);
  }
}
