import { TIER_POLICY } from '@tokensvc/api';
import { ListNetworksReply, RPC } from '@tokensvc/messages';
import { ApiKeysRepository } from '@tokensvc/persistence';
import { createTestDatabaseUrl, freePort, INFRA, PrivateNatsServer } from '@tokensvc/testing';
import type { FastifyInstance } from 'fastify';
import type { NatsConnection } from 'nats';
import { SAMPLE } from './fixtures';
import { GatewayHarness, serveRpc } from './harness';

jest.setTimeout(60_000); // real services; Jest ignores the project-level testTimeout (default 5 s)

/**
 * Who a client is for its budgets: IPv6 clients per /64, IPv4-mapped addresses as IPv4, the
 * client behind the listed proxies (X-Forwarded-For from anyone else ignored), and failed
 * authentications throttled per client before they reach the key table. Requests are injected
 * with the socket address a client would have (`remoteAddress`).
 */
const WINDOW_MS = 3000;
const FAILED_AUTH_LIMIT = 10;
// answered by the gateway itself (501, not served yet), so only the limiter is under test
const TRADING = `/v2/approval/cross-chain?${SAMPLE.approvalCrossChain.query}`;

describe('gateway per-client limits (real Redis, Postgres, NATS)', () => {
  let nats: PrivateNatsServer;
  let responder: NatsConnection;
  let gw: GatewayHarness;
  let fastify: FastifyInstance;
  let lookups: jest.SpyInstance;

  /** One request as a client at socket address `from`, with optional X-Forwarded-For and key. */
  const call = async (
    from: string,
    opts: { xff?: string; key?: string; path?: string } = {},
  ): Promise<{ status: number; retryAfter: string | undefined; message: string }> => {
    const headers: Record<string, string> = {};
    if (opts.xff !== undefined) headers['x-forwarded-for'] = opts.xff;
    if (opts.key !== undefined) headers['authorization'] = `Bearer ${opts.key}`;
    const res = await fastify.inject({ method: 'GET', url: opts.path ?? TRADING, remoteAddress: from, headers });
    return {
      status: res.statusCode,
      retryAfter: res.headers['retry-after'] as string | undefined,
      message: res.statusCode >= 400 ? (res.json() as { message: string }).message : '',
    };
  };
  /** statuses of calls made one after the other */
  const inTurn = async (calls: (() => Promise<{ status: number }>)[]): Promise<number[]> => {
    const out: number[] = [];
    for (const c of calls) out.push((await c()).status);
    return out;
  };
  /** well-formed keys this service never issued */
  const unknownKey = (i: number): string => `tsk_live_${'u'.repeat(26)}${i.toString(36).padStart(6, '0')}`;

  beforeAll(async () => {
    nats = new PrivateNatsServer(await freePort());
    await nats.start();
    responder = await serveRpc(nats.url, RPC.listNetworks, () => ListNetworksReply.fromJSON({ networks: ['ethereum'] }));
    gw = await GatewayHarness.start({
      infra: { databaseUrl: createTestDatabaseUrl('gw_client_limits'), redisUrl: INFRA.redis, natsUrl: nats.url },
      env: { TRUSTED_PROXIES: '10.0.0.0/8, fd00::/8' },
      listen: false,
      options: {
        served: { approvalCrossChain: undefined },
        rateWindowMs: WINDOW_MS,
        keyCacheTtlMs: 60_000,
        keyCacheSizes: { known: 50, unknown: 50 },
        failedAuthLimit: FAILED_AUTH_LIMIT,
        tierPolicy: { ...TIER_POLICY, anonymous: { ...TIER_POLICY.anonymous, perMinute: { data: undefined, trading: 3 } } },
      },
    });
    fastify = gw.app.getHttpAdapter().getInstance();
    lookups = jest.spyOn(gw.app.get(ApiKeysRepository), 'findByHash');
  });

  afterAll(async () => {
    await gw?.close();
    await responder?.close();
    await nats?.dispose();
  });

  it('gives all the addresses of one IPv6 /64 one budget, and another /64 its own', async () => {
    const net = '2001:db8:64:1';
    for (const host of ['::1', ':ffff:ffff:ffff:ffff', ':1234:5678:9abc:def0']) expect((await call(`${net}${host}`)).status).toBe(501);
    const refused = await call(`${net}::beef`);
    expect(refused.status).toBe(429);
    expect(refused.message).toMatch(/anonymous callers from this address/);
    expect(
      await inTurn(['2001:db8:64:1:8000::1', '2001:0db8:0064:0001:0000:0000:0000:0002', '2001:db8:64:1::1%eth0'].map((a) => () => call(a))),
    ).toEqual([429, 429, 429]);
    // the neighbouring /64s (same /48 and /63) are other subscribers
    expect((await call('2001:db8:64:2::1')).status).toBe(501);
    expect((await call('2001:db8:64::1')).status).toBe(501);
  });

  it('counts an IPv4-mapped IPv6 address as that IPv4 client', async () => {
    for (let i = 0; i < 3; i++) expect((await call('::ffff:192.0.2.77')).status).toBe(501);
    expect((await call('192.0.2.77')).status).toBe(429);
    expect((await call('192.0.2.78')).status).toBe(501);
  });

  it('believes X-Forwarded-For only from the listed proxies: the right-most entry not sent by one of them', async () => {
    // From an untrusted peer, a spoofed X-Forwarded-For is ignored: every request is the peer's.
    expect(await inTurn([1, 2, 3, 4].map((i) => () => call('198.51.100.7', { xff: `203.0.113.${i}` })))).toEqual([501, 501, 501, 429]);
    // Through a listed proxy (IPv4 or IPv6 CIDR), the client it saw is the budget, whichever proxy relays it.
    expect(
      await inTurn(['10.1.2.3', 'fd00::7', '10.200.0.1', '10.9.9.9'].map((proxy) => () => call(proxy, { xff: '203.0.113.50' }))),
    ).toEqual([501, 501, 501, 429]);
    expect((await call('10.9.9.9', { xff: '203.0.113.51' })).status).toBe(501);
    // A client cannot prepend addresses: what the proxy appended (the right-most untrusted) counts.
    expect(await inTurn([1, 2, 3].map((i) => () => call('10.1.2.3', { xff: `192.0.2.${i}, 203.0.113.60` })))).toEqual([501, 501, 501]);
    expect((await call('10.1.2.3', { xff: '192.0.2.9, 203.0.113.60' })).status).toBe(429);
    // Through two listed proxies, the address before them is the client.
    expect(await inTurn([1, 2, 3, 4].map(() => () => call('10.1.2.3', { xff: '203.0.113.70, 10.0.0.9' })))).toEqual([501, 501, 501, 429]);
    expect((await call('10.1.2.3', { xff: '203.0.113.71, 10.0.0.9' })).status).toBe(501);
  });

  it('throttles a burst of unknown keys per client: the later ones get 429 with retry-after; over the budget one lookup at a time, none for keys memory judged', async () => {
    lookups.mockClear();
    const from = '198.51.100.20';
    // each lookup held 5 ms, counting how many run at once
    const repo = gw.app.get(ApiKeysRepository);
    const original = ApiKeysRepository.prototype.findByHash;
    let inFlight = 0;
    let mostInFlight = 0;
    lookups.mockImplementation(async (hash: string) => {
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      try {
        await new Promise((r) => setTimeout(r, 5));
        return await original.call(repo, hash);
      } finally {
        inFlight--;
      }
    });
    const burst = await Promise.all(
      Array.from({ length: 6 * FAILED_AUTH_LIMIT }, (_, i) => call(from, { key: unknownKey(1000 + i), path: '/v1/networks' })),
    );
    const by = (s: number): number => burst.filter((r) => r.status === s).length;
    expect([by(401), by(429)]).toEqual([FAILED_AUTH_LIMIT, 5 * FAILED_AUTH_LIMIT]);
    // the budget's lookups, plus over-budget ones one at a time: far fewer than the burst
    expect(lookups.mock.calls.length).toBeLessThan(6 * FAILED_AUTH_LIMIT);
    const refused = burst.find((r) => r.status === 429)!;
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(WINDOW_MS / 1000);
    expect(refused.message).toMatch(/too many failed authentication attempts from this address: 10 per 3 s/);
    // Over the budget, a concurrent burst of never-seen keys holds one lookup at a time.
    mostInFlight = 0;
    lookups.mockClear();
    const over = await Promise.all(Array.from({ length: 20 }, (_, i) => call(from, { key: unknownKey(4000 + i), path: '/v1/networks' })));
    expect(over.map((r) => r.status)).toEqual(Array(20).fill(429));
    expect(mostInFlight).toBe(1);
    expect(lookups.mock.calls.length).toBeGreaterThanOrEqual(1);
    lookups.mockRestore();
    lookups = jest.spyOn(gw.app.get(ApiKeysRepository), 'findByHash');
    // Sequential tries: a malformed key and a key already found unknown are 429 without a query; a key never seen is looked up (and is a 429).
    for (const key of ['not-a-key', unknownKey(1000)]) expect((await call(from, { key, path: '/v1/networks' })).status).toBe(429);
    expect(lookups).toHaveBeenCalledTimes(0);
    expect((await call(from, { key: unknownKey(5000), path: '/v1/networks' })).status).toBe(429);
    expect(lookups).toHaveBeenCalledTimes(1);
    // Another client is judged as usual.
    expect((await call('198.51.100.21', { key: unknownKey(5001), path: '/v1/networks' })).status).toBe(401);
    // After the window the client is heard again.
    await new Promise((r) => setTimeout(r, Number(refused.retryAfter) * 1000 + 100));
    expect((await call(from, { key: unknownKey(5002), path: '/v1/networks' })).status).toBe(401);
  });

  it('does not count valid keys as failures, and serves a cached valid key while its client is throttled', async () => {
    const { key } = await gw.issue('free');
    const from = '2001:db8:77:1::1';
    // More successful calls than the failure budget, the first one a cache miss.
    for (let i = 0; i < 2 * FAILED_AUTH_LIMIT; i++) expect((await call(from, { key, path: '/v1/networks' })).status).toBe(200);
    for (let i = 0; i < FAILED_AUTH_LIMIT; i++)
      expect((await call(`2001:db8:77:1::${i + 2}`, { key: unknownKey(7000 + i), path: '/v1/networks' })).status).toBe(401);
    expect((await call(from, { key: unknownKey(7100), path: '/v1/networks' })).status).toBe(429);
    expect((await call(from, { key, path: '/v1/networks' })).status).toBe(200);
  });

  it('does not lock out a valid key never seen before: 20 junk keys from its address, then the new key answers 200', async () => {
    const from = '198.51.100.150';
    const junk = await inTurn(
      Array.from({ length: 20 }, (_, i) => () => call(from, { key: unknownKey(40_000 + i), path: '/v1/networks' })),
    );
    expect(junk).toEqual([...Array(FAILED_AUTH_LIMIT).fill(401), ...Array(20 - FAILED_AUTH_LIMIT).fill(429)]);
    const { key } = await gw.issue('free');
    expect((await call(from, { key, path: '/v1/networks' })).status).toBe(200);
    // guessing stays throttled: the next junk key is still a 429, and the valid key took no slot
    expect((await call(from, { key: unknownKey(40_100), path: '/v1/networks' })).status).toBe(429);
    expect((await call(from, { key, path: '/v1/networks' })).status).toBe(200);
  });

  it('refreshes a key in use without the failed-auth budget: guesses from the same address do not lock its owner out', async () => {
    const short = await GatewayHarness.start({
      infra: { databaseUrl: createTestDatabaseUrl('gw_client_limits_ttl'), redisUrl: INFRA.redis, natsUrl: nats.url },
      listen: false,
      options: { keyCacheTtlMs: 200, failedAuthLimit: 3, rateWindowMs: WINDOW_MS },
    });
    try {
      const f = short.app.getHttpAdapter().getInstance();
      const get = async (key: string): Promise<number> =>
        (
          await f.inject({
            method: 'GET',
            url: '/v1/networks',
            remoteAddress: '198.51.100.90',
            headers: { authorization: `Bearer ${key}` },
          })
        ).statusCode;
      const { key, record } = await short.issue('free');
      expect(await get(key)).toBe(200);
      expect([await get(unknownKey(9000)), await get(unknownKey(9001)), await get(unknownKey(9002)), await get(unknownKey(9003))]).toEqual([
        401, 401, 401, 429,
      ]);
      await new Promise((r) => setTimeout(r, 300)); // the valid key's cache entry is stale now
      expect(await get(key)).toBe(200);
      // revoked meanwhile: refused as revoked, not hidden behind the throttle
      await short.keys.revoke(record.id);
      await new Promise((r) => setTimeout(r, 300));
      expect(await get(key)).toBe(401);
      expect(await get(unknownKey(9004))).toBe(429);
    } finally {
      await short.close();
    }
  });

  it('keeps valid keys cached while many unknown keys are tried (separate bounded caches)', async () => {
    const { key } = await gw.issue('paid');
    expect((await call('192.0.2.200', { key, path: '/v1/networks' })).status).toBe(200);
    lookups.mockClear();
    // 6x the unknown-key cache bound, from 30 clients (each within its failure budget)
    // (30 at a time: the point is the cache, not how many lookups the pool takes at once)
    const seen = new Set<number>();
    for (let batch = 0; batch < 10; batch++) {
      const tries = Array.from({ length: 30 }, (_, i) =>
        call(`203.0.113.${100 + i}`, { key: unknownKey(20_000 + batch * 30 + i), path: '/v1/networks' }),
      );
      for (const r of await Promise.all(tries)) seen.add(r.status);
    }
    expect(seen).toEqual(new Set([401]));
    expect(lookups).toHaveBeenCalledTimes(300);
    expect((await call('192.0.2.200', { key, path: '/v1/networks' })).status).toBe(200);
    expect(lookups).toHaveBeenCalledTimes(300); // the valid key came from the cache
  });

  it('answers 503 with retry-after, not 500, when the key table cannot be read, and spends no failed-auth slot', async () => {
    lookups.mockClear();
    lookups.mockRejectedValue(new Error('timeout exceeded when trying to connect'));
    try {
      const r = await call('198.51.100.77', { key: unknownKey(30_001), path: '/v1/networks' });
      expect(r.status).toBe(503);
      expect(r.retryAfter).toBeDefined();
      expect(r.message).toMatch(/key check unavailable/);
    } finally {
      lookups.mockRestore();
      lookups = jest.spyOn(gw.app.get(ApiKeysRepository), 'findByHash');
    }
    // the slot was given back: the client still has its whole budget of failed attempts
    const statuses = await inTurn(
      Array.from(
        { length: FAILED_AUTH_LIMIT },
        (_, i) => () => call('198.51.100.77', { key: unknownKey(30_100 + i), path: '/v1/networks' }),
      ),
    );
    expect(statuses).toEqual(Array(FAILED_AUTH_LIMIT).fill(401));
  });

  it("shares one judgement among a client's concurrent first requests with one new valid key: no 429, one lookup", async () => {
    const { key } = await gw.issue('paid');
    lookups.mockClear();
    // three times the failed-auth budget, all at once, before the key is in the cache
    const statuses = await Promise.all(
      Array.from({ length: 3 * FAILED_AUTH_LIMIT }, () => call('198.51.100.90', { key, path: '/v1/networks' })),
    );
    expect(statuses.map((r) => r.status)).toEqual(Array(3 * FAILED_AUTH_LIMIT).fill(200));
    expect(lookups).toHaveBeenCalledTimes(1);
  });
});
