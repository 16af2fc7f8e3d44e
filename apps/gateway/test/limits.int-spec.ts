import { TIER_POLICY } from '@tokensvc/api';
import { ListNetworksReply, RPC } from '@tokensvc/messages';
import { createTestDatabaseUrl, freePort, INFRA, PrivateNatsServer } from '@tokensvc/testing';
import type { NatsConnection } from 'nats';
import { SAMPLE } from './fixtures';
import { GatewayHarness, rateHeaders, serveRpc } from './harness';

jest.setTimeout(60_000); // real services; Jest ignores the project-level testTimeout (default 5 s)

/**
 * Limits over real HTTP with a 2 s window (the production window is 60 s; the limiter has no
 * window-specific logic): headers, 429 + retry-after, admission after reset, quotas, per-IP
 * anonymous budgets, usage rows, and how fast a revocation bites.
 */
const WINDOW_MS = 2000;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('gateway limits and quotas (real HTTP, Redis, Postgres, NATS)', () => {
  let nats: PrivateNatsServer;
  let responder: NatsConnection;
  let gw: GatewayHarness;

  beforeAll(async () => {
    nats = new PrivateNatsServer(await freePort());
    await nats.start();
    responder = await serveRpc(nats.url, RPC.listNetworks, () => ListNetworksReply.fromJSON({ networks: ['ethereum'] }));
    gw = await GatewayHarness.start({
      infra: { databaseUrl: createTestDatabaseUrl('gw_limits'), redisUrl: INFRA.redis, natsUrl: nats.url },
      env: { TRUSTED_PROXIES: '127.0.0.1' }, // the test client is the proxy: X-Forwarded-For names the caller
      options: {
        // answered by the gateway itself (501), so only the limiter is under test
        served: { approvalCrossChain: undefined },
        rateWindowMs: WINDOW_MS,
        keyCacheTtlMs: 300,
        usageFlushMs: 200,
        tierPolicy: {
          ...TIER_POLICY,
          anonymous: { ...TIER_POLICY.anonymous, perMinute: { data: undefined, trading: 3 } },
          free: { ...TIER_POLICY.free, perMinute: { data: 5, trading: 3 } },
          paid: { ...TIER_POLICY.paid, perMinute: { data: 50, trading: 3 }, monthlyCalls: 20 },
        },
      },
    });
  });

  afterAll(async () => {
    await gw?.close();
    await responder?.close();
    await nats?.dispose();
  });

  it('counts down in the headers, answers 429 with retry-after at the limit, and admits again after reset', async () => {
    const { key } = await gw.issue('free');
    for (let i = 0; i < 5; i++) {
      const res = await gw.request('/v1/networks', { key });
      expect(res.status).toBe(200);
      expect(rateHeaders(res)).toMatchObject({ limit: 5, remaining: 4 - i, policy: '5;w=2' });
      expect(rateHeaders(res).reset).toBeGreaterThanOrEqual(1);
    }
    const refused = await gw.request('/v1/networks', { key });
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(2);
    expect(rateHeaders(refused)).toMatchObject({ limit: 5, remaining: 0 });
    expect(((await refused.json()) as { message: string }).message).toMatch(/rate limit exceeded: 5 requests per 2 s on data endpoints/);
    await sleep(retryAfter * 1000);
    const again = await gw.request('/v1/networks', { key });
    expect(again.status).toBe(200);
  });

  it('does not spend quota on 401 and 403 answers', async () => {
    const { key } = await gw.issue('free');
    expect(rateHeaders(await gw.request('/v1/networks', { key })).remaining).toBe(4);
    for (let i = 0; i < 6; i++) {
      const forbidden = await gw.request(`/v2/tokens/history?${SAMPLE.tokenHistory.query}`, { key });
      expect(forbidden.status).toBe(403);
      expect(rateHeaders(forbidden).remaining).toBe(4);
      expect((await gw.request('/v1/networks', { key: `${key.slice(0, -1)}0` })).status).toBe(401);
    }
    expect(rateHeaders(await gw.request('/v1/networks', { key })).remaining).toBe(3);
  });

  it('limits anonymous trading calls per client address, and keyed ones per key', async () => {
    // an endpoint the gateway answers itself (501, not served yet), so only the limiter is under test
    const path = `/v2/approval/cross-chain?${SAMPLE.approvalCrossChain.query}`;
    const from = (ip: string): Promise<Response> => gw.request(path, { headers: { 'x-forwarded-for': ip } });
    for (let i = 0; i < 3; i++) expect((await from('10.0.0.1')).status).toBe(501);
    const refused = await from('10.0.0.1');
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { message: string }).message).toMatch(/anonymous callers from this address/);
    // Another address and a keyed caller each have their own budget.
    expect((await from('10.0.0.2')).status).toBe(501);
    const { key } = await gw.issue('free');
    expect((await gw.request(path, { key, headers: { 'x-forwarded-for': '10.0.0.1' } })).status).toBe(501);
  });

  it('answers 429 with a clear message once the monthly quota is used, and records usage per day', async () => {
    const { key, record } = await gw.issue('paid');
    for (let i = 0; i < 20; i++) expect((await gw.request('/v1/networks', { key })).status).toBe(200);
    const refused = await gw.request('/v1/networks', { key });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { message: string }).message).toMatch(
      /monthly quota exhausted: the paid plan allows 20 calls per month; it resets at \d{4}-\d{2}-01T00:00:00.000Z/,
    );
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(31 * 86_400);
    // Usage is written in batches (every 200 ms here): 20 admitted calls, the refusal not counted.
    await sleep(600);
    const today = new Date().toISOString().slice(0, 10);
    expect(await gw.keys.usage(record.id, today)).toEqual([{ day: today, calls: 20 }]);
    expect((await gw.keys.resolve(record.id)).lastUsedAt).not.toBeNull();
  });

  it('gives an enterprise key its custom data rate', async () => {
    const { key } = await gw.issue('enterprise', { rateLimitPerMinute: 7 });
    expect(rateHeaders(await gw.request('/v1/networks', { key })).policy).toBe('7;w=2');
  });

  it('stops a key revoked elsewhere (CLI, another replica) within the key cache TTL', async () => {
    const { key, record } = await gw.issue('paid');
    expect((await gw.request('/v1/networks', { key })).status).toBe(200);
    await gw.keys.revoke(record.id);
    const t0 = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - t0 < 5000) {
      status = (await gw.request('/v1/networks', { key })).status;
      if (status === 200) await sleep(25);
    }
    expect(status).toBe(401);
    // TTL 300 ms in this test (5 s by default), plus polling slack.
    expect(Date.now() - t0).toBeLessThan(600);
  });
});
