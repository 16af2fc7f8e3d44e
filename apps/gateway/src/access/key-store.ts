import { hashApiKey, isApiKeyFormat, type Tier } from '@tokensvc/api';
import type { ApiKeyRecord } from '@tokensvc/persistence';
import { httpMetrics } from '../http/metrics';

/** What the gateway knows about a key while serving a request (never the key itself). */
export interface KeyIdentity {
  readonly id: string;
  readonly displayPrefix: string;
  readonly tier: Tier;
  readonly rateLimitPerMinute: number | null;
}

export type KeyLookup =
  | { readonly status: 'valid'; readonly key: KeyIdentity }
  | { readonly status: 'unknown' | 'revoked' | 'expired'; readonly displayPrefix?: string };

export interface KeySource {
  findByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
}

interface Entry {
  readonly record: ApiKeyRecord | undefined;
  readonly fetchedAt: number;
}

export interface KeyCacheSizes {
  /** keys found in the table (valid, revoked, expired) */
  readonly known: number;
  /** keys the table does not hold: kept apart, so a flood of them cannot evict the keys in use */
  readonly unknown: number;
}

export const DEFAULT_KEY_CACHE_SIZES: KeyCacheSizes = { known: 10_000, unknown: 10_000 };

/**
 * Key lookups with a short in-memory cache (hits and misses), so authentication is not a database
 * query per request. A revocation reaches every gateway within `ttlMs` (the admin API also drops
 * the entry at once on the replica that revoked). Expiry is checked on every request.
 *
 * Found and unknown keys live in two bounded maps: anyone can invent unknown keys at no cost, and
 * in one shared map each would push out a real key (the next request of its owner then waits for
 * the database). The failed-auth throttle bounds how many unknown keys one client can try.
 */
export class KeyStore {
  private readonly known = new Map<string, Entry>();
  private readonly unknown = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<Entry>>();

  constructor(
    private readonly source: KeySource,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
    private readonly sizes: KeyCacheSizes = DEFAULT_KEY_CACHE_SIZES,
  ) {}

  async lookup(key: string): Promise<KeyLookup> {
    return this.cached(key) ?? this.judge((await this.entry(key)).record);
  }

  /**
   * The answer without asking the database: malformed keys and fresh cache entries; undefined
   * when only a query can tell.
   */
  cached(key: string): KeyLookup | undefined {
    // Malformed keys never reach the database.
    if (!isApiKeyFormat(key)) return { status: 'unknown' };
    // The caches are keyed by the key as sent (this process sees it in every request anyway), so a
    // hit costs no hashing; the database is only ever asked by hash.
    const hit = this.known.get(key) ?? this.unknown.get(key);
    if (!hit || this.now() - hit.fetchedAt >= this.ttlMs) return undefined;
    httpMetrics.keyCacheLookups.inc({ result: 'hit' });
    return this.judge(hit.record);
  }

  /**
   * Whether the table held this key when it was last looked up (a fresh or stale entry): a key in
   * use or recently revoked, not a guess. At most `sizes.known` keys answer true.
   */
  wasFound(key: string): boolean {
    return this.known.has(key);
  }

  /** Forgets a key (after a revocation or rotation through this gateway). */
  invalidate(id: string): void {
    for (const [key, e] of this.known) if (e.record?.id === id) this.known.delete(key);
  }

  private judge(r: ApiKeyRecord | undefined): KeyLookup {
    if (!r) return { status: 'unknown' };
    if (r.revokedAt && r.revokedAt.getTime() <= this.now()) return { status: 'revoked', displayPrefix: r.displayPrefix };
    if (r.expiresAt && r.expiresAt.getTime() <= this.now()) return { status: 'expired', displayPrefix: r.displayPrefix };
    return { status: 'valid', key: { id: r.id, displayPrefix: r.displayPrefix, tier: r.tier, rateLimitPerMinute: r.rateLimitPerMinute } };
  }

  private async entry(key: string): Promise<Entry> {
    let pending = this.inflight.get(key);
    if (!pending) {
      // Concurrent misses for one key share one query.
      pending = this.fetch(key).finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    return pending;
  }

  private async fetch(key: string): Promise<Entry> {
    httpMetrics.keyCacheLookups.inc({ result: 'miss' });
    const entry = { record: await this.source.findByHash(hashApiKey(key)), fetchedAt: this.now() };
    this.known.delete(key);
    this.unknown.delete(key);
    const [map, max] = entry.record ? [this.known, this.sizes.known] : [this.unknown, this.sizes.unknown];
    // Oldest first out: entries are re-inserted on every fetch, so insertion order is fetch order.
    if (map.size >= max) map.delete(map.keys().next().value as string);
    map.set(key, entry);
    return entry;
  }
}
