import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TOKEN_DATA_METRICS } from '../metrics';
import { CursorWatch } from './cursor-watch';
import { ReplyLru } from './lru';

/** Bounds of the hot-list cache; a new indexed block (or reorg) empties it. */
export const REPLY_CACHE = { maxEntries: 1000, ttlMs: 5000, pollMs: 500 } as const;

/** Every network's cursor block and hash: changes with each applied block and each reorg. */
const CURSOR_FINGERPRINT = `SELECT coalesce(string_agg(network || ':' || block_number || ':' || block_hash, ',' ORDER BY network), '') AS f FROM index_cursors`;

/**
 * Replies of the list, history and account use cases keyed by their normalised request, valid
 * until the indexer's cursor moves (polled every 500 ms) and never longer than the TTL (which also
 * bounds the staleness of live reads, e.g. native balances, when no indexer is running).
 */
@Injectable()
export class ReplyCache implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(ReplyCache.name);
  private readonly lru = new ReplyLru<unknown>(REPLY_CACHE.maxEntries, REPLY_CACHE.ttlMs);
  private readonly watch: CursorWatch;

  constructor(ds: DataSource) {
    this.watch = new CursorWatch(
      async () => ((await ds.query(CURSOR_FINGERPRINT)) as Array<{ f: string }>)[0]?.f ?? '',
      () => {
        this.lru.clear();
        TOKEN_DATA_METRICS.cacheClears.inc();
      },
      (e) => this.logger.warn(`index cursor poll failed, cache emptied: ${(e as Error).message}`),
      REPLY_CACHE.pollMs,
    );
  }

  async onModuleInit(): Promise<void> {
    await this.watch.check();
    this.watch.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.watch.stop();
  }

  /** The cached reply for (`name`, `key`), or `compute()`'s; errors are never cached. */
  get<T>(name: string, key: string, compute: () => Promise<T>): Promise<T> {
    return this.lru.getOrCompute(`${name} ${key}`, compute, (result) =>
      TOKEN_DATA_METRICS.cacheLookups.inc({ cache: name, result }),
    ) as Promise<T>;
  }
}
