import { generateApiKey, hashApiKey } from '@tokensvc/api';
import type { ApiKeyRecord } from '@tokensvc/persistence';
import { httpMetrics } from '../http/metrics';
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
    const r: ApiKeyRecord = {
      id: `id-${this.rows.size}`,
      displayPrefix: key.slice(0, 15),
      tier: 'paid',
      label: 'l',
      rateLimitPerMinute: null,
      createdAt: new Date(0),
      lastUsedAt: null,
      expiresAt: null,
      revokedAt: null,
      rotatedFrom: null,
      ...patch,
    };
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

  it('counts cache hits and database lookups (gateway_key_cache_lookups_total)', async () => {
    const count = async (result: string): Promise<number> =>
      (await httpMetrics.keyCacheLookups.get()).values.find((v) => v.labels['result'] === result)?.value ?? 0;
    const src = new FakeKeys();
    const key = generateApiKey();
    src.add(key);
    const store = new KeyStore(src, 5000, clock);
    const before = { hit: await count('hit'), miss: await count('miss') };
    await store.lookup(key);
    await store.lookup(key);
    await store.lookup(key);
    await store.lookup(generateApiKey()); // unknown: asked once
    expect(await count('hit')).toBe(before.hit + 2);
    expect(await count('miss')).toBe(before.miss + 2);
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

  it('keeps the keys in use cached while a flood of unknown keys is tried', async () => {
    const src = new FakeKeys();
    const key = generateApiKey();
    src.add(key);
    const store = new KeyStore(src, 60_000, clock);
    await store.lookup(key);
    // twice the default bound of each cache: in one shared map the valid key would be evicted
    const base = generateApiKey().slice(0, -5);
    let unknown = 0;
    for (let i = 0; i < 20_000; i++)
      if ((await store.lookup(`${base}${i.toString(36).padStart(5, '0')}`)).status === 'unknown') unknown += 1;
    expect(unknown).toBe(20_000);
    expect(src.lookups).toBe(20_001);
    expect((await store.lookup(key)).status).toBe('valid');
    expect(src.lookups).toBe(20_001); // the valid key came from the cache
    expect(store.cached(key)?.status).toBe('valid');
  });

  it('bounds the unknown-key cache on its own', async () => {
    const src = new FakeKeys();
    const store = new KeyStore(src, 60_000, clock, { known: 2, unknown: 3 });
    const strangers = Array.from({ length: 4 }, () => generateApiKey());
    for (const k of strangers) await store.lookup(k);
    expect(store.cached(strangers[0]!)).toBeUndefined(); // the oldest went out
    for (const k of strangers.slice(1)) expect(store.cached(k)).toEqual({ status: 'unknown' });
    // only keys the table held count as found, fresh or stale
    const key = generateApiKey();
    src.add(key);
    await store.lookup(key);
    now += 120_000;
    expect([store.cached(key), store.wasFound(key), store.wasFound(strangers[3]!)]).toEqual([undefined, true, false]);
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
