import { hashApiKey, isApiKeyFormat, type Tier } from '@tokensvc/api';
import type { ApiKeyRecord } from '@tokensvc/persistence';

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

const MAX_ENTRIES = 10_000;

/**
 * Key lookups with a short in-memory cache (hits and misses), so authentication is not a database
 * query per request. A revocation reaches every gateway within `ttlMs` (the admin API also drops
 * the entry at once on the replica that revoked). Expiry is checked on every request.
 */
export class KeyStore {
  private readonly cache = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<Entry>>();

  constructor(private readonly source: KeySource, private readonly ttlMs: number, private readonly now: () => number = Date.now) {}

  async lookup(key: string): Promise<KeyLookup> {
    // Malformed keys never reach the database.
    if (!isApiKeyFormat(key)) return { status: 'unknown' };
    // The cache is keyed by the key as sent (this process sees it in every request anyway), so a
    // hit costs no hashing; the database is only ever asked by hash.
    const entry = await this.entry(key);
    const r = entry.record;
    if (!r) return { status: 'unknown' };
    if (r.revokedAt && r.revokedAt.getTime() <= this.now()) return { status: 'revoked', displayPrefix: r.displayPrefix };
    if (r.expiresAt && r.expiresAt.getTime() <= this.now()) return { status: 'expired', displayPrefix: r.displayPrefix };
    return { status: 'valid', key: { id: r.id, displayPrefix: r.displayPrefix, tier: r.tier, rateLimitPerMinute: r.rateLimitPerMinute } };
  }

  /** Forgets a key (after a revocation or rotation through this gateway). */
  invalidate(id: string): void {
    for (const [key, e] of this.cache) if (e.record?.id === id) this.cache.delete(key);
  }

  private async entry(key: string): Promise<Entry> {
    const hit = this.cache.get(key);
    if (hit && this.now() - hit.fetchedAt < this.ttlMs) return hit;
    let pending = this.inflight.get(key);
    if (!pending) {
      // Concurrent misses for one key share one query.
      pending = this.fetch(key).finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    return pending;
  }

  private async fetch(key: string): Promise<Entry> {
    const entry = { record: await this.source.findByHash(hashApiKey(key)), fetchedAt: this.now() };
    this.cache.delete(key);
    if (this.cache.size >= MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(key, entry);
    return entry;
  }
}
