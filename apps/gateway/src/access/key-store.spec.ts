import { generateApiKey, hashApiKey } from '@tokensvc/api';
import type { ApiKeyRecord } from '@tokensvc/persistence';
import { KeyStore, type KeySource } from './key-store';

/** A key table in memory that counts its lookups. */
class FakeKeys implements KeySource {
  readonly rows = new Map<string, ApiKeyRecord>();
  lookups = 0;
  async findByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    this.lookups += 1;
    const r = this.rows.get(hash);
    return r ? { ...r } : undefined; // a copy, like a row from the database
  }
  add(key: string, patch: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
    const r: ApiKeyRecord = { id: `id-${this.rows.size}`, displayPrefix: key.slice(0, 15), tier: 'paid', label: 'l', rateLimitPerMinute: null, createdAt: new Date(0), lastUsedAt: null, expiresAt: null, revokedAt: null, rotatedFrom: null, ...patch };
    this.rows.set(hashApiKey(key), r);
    return r;
  }
}

describe('KeyStore', () => {
  let now = 1_000_000;
  const clock = (): number => now;

  it('caches lookups for the TTL, then sees a revocation', async () => {
    const src = new FakeKeys();
    const key = generateApiKey();
    const row = src.add(key);
    const store = new KeyStore(src, 5000, clock);
    expect(await store.lookup(key)).toMatchObject({ status: 'valid', key: { id: row.id, tier: 'paid' } });
    for (let i = 0; i < 100; i++) await store.lookup(key);
    expect(src.lookups).toBe(1);
    row.revokedAt = new Date(now);
    now += 4999;
    expect((await store.lookup(key)).status).toBe('valid');
    now += 1;
    expect(await store.lookup(key)).toEqual({ status: 'revoked', displayPrefix: row.displayPrefix });
    expect(src.lookups).toBe(2);
  });

  it('checks expiry on every request, not on fetch', async () => {
    const src = new FakeKeys();
    const key = generateApiKey();
    src.add(key, { expiresAt: new Date(now + 1000) });
    const store = new KeyStore(src, 60_000, clock);
    expect((await store.lookup(key)).status).toBe('valid');
    now += 1000;
    expect((await store.lookup(key)).status).toBe('expired');
  });

  it('never queries for malformed keys, caches unknown ones, and shares concurrent misses', async () => {
    const src = new FakeKeys();
    const store = new KeyStore(src, 5000, clock);
    expect((await store.lookup('hello')).status).toBe('unknown');
    expect((await store.lookup(`Bearer ${generateApiKey()}`)).status).toBe('unknown');
    expect(src.lookups).toBe(0);
    const stranger = generateApiKey();
    await Promise.all(Array.from({ length: 20 }, () => store.lookup(stranger)));
    await store.lookup(stranger);
    expect(src.lookups).toBe(1);
  });

  it('forgets a key on invalidate', async () => {
    const src = new FakeKeys();
    const key = generateApiKey();
    const row = src.add(key);
    const store = new KeyStore(src, 60_000, clock);
    await store.lookup(key);
    row.revokedAt = new Date(now);
    store.invalidate(row.id);
    expect((await store.lookup(key)).status).toBe('revoked');
  });
});
