import type { DataSource } from 'typeorm';
import { TOKEN_DATA_METRICS } from '../metrics';
import { ReplyLru } from './lru';
import { ReplyCache } from './reply-cache';

const lookups = async (cache: string, result: string): Promise<number> =>
  (await TOKEN_DATA_METRICS.cacheLookups.get()).values.find((v) => v.labels['cache'] === cache && v.labels['result'] === result)?.value ??
  0;

describe('reply cache metrics', () => {
  it('ReplyLru tells each lookup: hit, miss, or joined a computation in flight', async () => {
    const lru = new ReplyLru<number>(10, 1000, () => 0);
    const seen: string[] = [];
    let release: (v: number) => void = () => undefined;
    const slow = new Promise<number>((r) => (release = r));
    const first = lru.getOrCompute(
      'a',
      () => slow,
      (r) => seen.push(r),
    );
    const second = lru.getOrCompute(
      'a',
      () => Promise.resolve(0),
      (r) => seen.push(r),
    );
    release(7);
    expect([await first, await second]).toEqual([7, 7]);
    expect(
      await lru.getOrCompute(
        'a',
        () => Promise.resolve(0),
        (r) => seen.push(r),
      ),
    ).toBe(7);
    expect(seen).toEqual(['miss', 'joined', 'hit']);
  });

  it('ReplyCache counts lookups per cache and result, and each clear on a cursor move', async () => {
    let fingerprint = 'ethereum:1:0xa';
    const ds = { query: async () => [{ f: fingerprint }] } as unknown as DataSource;
    const cache = new ReplyCache(ds);
    await cache.onModuleInit();
    try {
      const before = {
        hit: await lookups('list', 'hit'),
        miss: await lookups('list', 'miss'),
        clears: (await TOKEN_DATA_METRICS.cacheClears.get()).values[0]?.value ?? 0,
      };
      expect(await cache.get('list', 'k', async () => 1)).toBe(1);
      expect(await cache.get('list', 'k', async () => 2)).toBe(1);
      expect(await cache.get('list', 'k', async () => 3)).toBe(1);
      fingerprint = 'ethereum:2:0xb';
      await (cache as unknown as { watch: { check(): Promise<void> } }).watch.check();
      expect(await cache.get('list', 'k', async () => 4)).toBe(4);
      expect(await lookups('list', 'hit')).toBe(before.hit + 2);
      expect(await lookups('list', 'miss')).toBe(before.miss + 2);
      expect((await TOKEN_DATA_METRICS.cacheClears.get()).values[0]?.value).toBe(before.clears + 1);
    } finally {
      await cache.onModuleDestroy();
    }
  });
});
