import { isApiKeyFormat } from '@tokensvc/api';
import { ListNetworksReply, RPC } from '@tokensvc/messages';
import { loadGatewayConfig } from '@tokensvc/config';
import { createTestDatabaseUrl, freePort, INFRA, PrivateNatsServer, startApp, stopProcess } from '@tokensvc/testing';
import type { NatsConnection } from 'nats';
import { adminServer } from '../src/bootstrap';
import { ADMIN_TOKEN, GatewayHarness, serveRpc } from './harness';

jest.setTimeout(60_000); // real services; Jest ignores the project-level testTimeout (default 5 s)

/**
 * The admin HTTP API on its own listener: token guard (constant-time, any length, 32+ characters
 * at boot, failed attempts throttled), create, list, get, revoke, rotate; absent from the public port.
 */
describe('gateway admin API (real HTTP, Postgres)', () => {
  let nats: PrivateNatsServer;
  let responder: NatsConnection;
  let gw: GatewayHarness;
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

  beforeAll(async () => {
    nats = new PrivateNatsServer(await freePort());
    await nats.start();
    responder = await serveRpc(nats.url, RPC.listNetworks, () => ListNetworksReply.fromJSON({ networks: ['ethereum'] }));
    // a failure budget above the guard test's 6 wrong tokens; the throttle test has a gateway of its own
    gw = await GatewayHarness.start({
      infra: { databaseUrl: createTestDatabaseUrl('gw_admin'), redisUrl: INFRA.redis, natsUrl: nats.url },
      options: { adminFailureLimit: 50 },
    });
  });

  afterAll(async () => {
    await gw?.close();
    await responder?.close();
    await nats?.dispose();
  });

  const create = async (body: unknown): Promise<{ status: number; json: any }> => {
    const res = await gw.admin('/admin/keys', { method: 'POST', headers: admin, body });
    return { status: res.status, json: await res.json() };
  };

  it('refuses a missing or wrong admin token of any length, and API keys', async () => {
    const { key } = await gw.issue('enterprise');
    for (const authorization of [
      undefined,
      'Bearer x',
      `Bearer ${ADMIN_TOKEN}x`,
      `Bearer ${ADMIN_TOKEN.slice(0, -1)}`,
      `Bearer ${'a'.repeat(5000)}`,
      `Bearer ${key}`,
    ]) {
      const res = await gw.admin('/admin/keys', { headers: authorization === undefined ? {} : { authorization } });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { message: string }).message).toMatch(/admin token missing or wrong/);
    }
    expect((await gw.admin('/admin/keys', { headers: { authorization: ADMIN_TOKEN } })).status).toBe(200);
  });

  it('issues a key shown once, which then works; validates the body', async () => {
    const created = await create({ tier: 'paid', label: 'acme' });
    expect(created.status).toBe(201);
    expect(isApiKeyFormat(created.json.key)).toBe(true);
    expect(created.json.record).toMatchObject({
      tier: 'paid',
      label: 'acme',
      displayPrefix: created.json.key.slice(0, 15),
      revokedAt: null,
    });
    expect((await gw.request('/v1/networks', { key: created.json.key })).status).toBe(200);
    // The list shows records, never keys.
    const listed = JSON.stringify(await (await gw.admin('/admin/keys', { headers: admin })).json());
    expect(listed).toContain(created.json.record.id);
    expect(listed).not.toContain(created.json.key);

    const bad = await create({ tier: 'gold', label: '', extra: 1 });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toMatch(/unknown query parameter "extra"/);
    const bad2 = await create({ tier: 'gold' });
    expect(bad2.json.message).toMatch(/invalid tier "gold": must be one of free, paid, enterprise; missing required query parameter label/);
    expect((await create({ tier: 'free', label: 'x', rateLimitPerMinute: 10 })).json.message).toMatch(/enterprise keys only/);
    expect((await create({ tier: 'enterprise', label: 'x', rateLimitPerMinute: 5000 })).status).toBe(400);
    expect((await create({ tier: 'free', label: 'x', expiresAt: '2001-01-01T00:00:00Z' })).json.message).toMatch(/must be in the future/);
    expect((await create([1, 2])).json.message).toMatch(/body must be a JSON object/);
  });

  it('revokes by id or display prefix, at once on this replica', async () => {
    const { json } = await create({ tier: 'free', label: 'to-revoke' });
    expect((await gw.request('/v1/networks', { key: json.key })).status).toBe(200);
    const res = await gw.admin(`/admin/keys/${json.record.displayPrefix}`, { method: 'DELETE', headers: admin });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).key.revokedAt).not.toBeNull();
    expect((await gw.request('/v1/networks', { key: json.key })).status).toBe(401);
    expect((await gw.admin('/admin/keys/00000000-0000-0000-0000-000000000000', { method: 'DELETE', headers: admin })).status).toBe(404);
  });

  it('rotates: the new key works, the old one stops (at once, or after a grace period)', async () => {
    const first = (await create({ tier: 'paid', label: 'rotating' })).json;
    const rotated = await gw.admin(`/admin/keys/${first.record.id}/rotate`, { method: 'POST', headers: admin });
    expect(rotated.status).toBe(201);
    const second = (await rotated.json()) as any;
    expect(second.record).toMatchObject({ tier: 'paid', label: 'rotating', rotatedFrom: first.record.id });
    expect((await gw.request('/v1/networks', { key: first.key })).status).toBe(401);
    expect((await gw.request('/v1/networks', { key: second.key })).status).toBe(200);

    const graced = (await (
      await gw.admin(`/admin/keys/${second.record.id}/rotate?graceSeconds=3600`, { method: 'POST', headers: admin })
    ).json()) as any;
    expect((await gw.request('/v1/networks', { key: second.key })).status).toBe(200);
    expect((await gw.request('/v1/networks', { key: graced.key })).status).toBe(200);
    const old = (await (await gw.admin(`/admin/keys/${second.record.id}`, { headers: admin })).json()) as any;
    expect(new Date(old.key.expiresAt).getTime()).toBeGreaterThan(Date.now() + 3500_000);
  });

  it('shows a key with its usage per day', async () => {
    const { json } = await create({ tier: 'paid', label: 'usage' });
    for (let i = 0; i < 3; i++) await gw.request('/v1/networks', { key: json.key });
    await new Promise((r) => setTimeout(r, 5500)); // default usage flush: every 5 s
    const res = (await (await gw.admin(`/admin/keys/${json.record.id}?days=2`, { headers: admin })).json()) as any;
    expect(res.usage).toEqual([{ day: new Date().toISOString().slice(0, 10), calls: 3 }]);
  });

  it('is disabled (403) when ADMIN_TOKEN is not configured', async () => {
    const off = await GatewayHarness.start({
      infra: { databaseUrl: createTestDatabaseUrl('gw_noadmin'), redisUrl: INFRA.redis, natsUrl: nats.url },
      env: { ADMIN_TOKEN: '' },
      listen: false,
    });
    try {
      const res = await adminServer(off.app).inject({ method: 'GET', url: '/admin/keys', headers: { authorization: 'Bearer anything' } });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toMatch(/admin API is disabled/);
    } finally {
      await off.close();
    }
  });
  it('is not served on the public port: /admin answers 404 there, even with the right token', async () => {
    for (const [method, path] of [
      ['GET', '/admin/keys'],
      ['POST', '/admin/keys'],
      ['GET', '/admin/keys/x'],
      ['DELETE', '/admin/keys/x'],
      ['POST', '/admin/keys/x/rotate'],
    ] as const) {
      const res = await gw.request(path, {
        method,
        headers: admin,
        ...(method === 'POST' ? { body: { tier: 'free', label: 'public' } } : {}),
      });
      expect(`${method} ${path} ${res.status}`).toBe(`${method} ${path} 404`);
    }
    expect((await gw.admin('/admin/keys', { headers: admin })).status).toBe(200);
    // and the public routes are not on the admin port
    expect((await gw.admin('/v1/networks', { headers: admin })).status).toBe(404);
    expect(new URL(gw.adminUrl).port).not.toBe(new URL(gw.baseUrl).port);
  });

  it('refuses to boot with an ADMIN_TOKEN shorter than 32 characters (the gateway process exits 1 saying why)', async () => {
    const lines: string[] = [];
    const env = {
      databaseUrl: createTestDatabaseUrl('gw_shortadmin'),
      natsUrl: nats.url,
      redisUrl: INFRA.redis,
      rpcUrls: {},
      gatewayPort: await freePort(),
      extraEnv: { ADMIN_TOKEN: 'x'.repeat(31) },
    };
    const gateway = startApp('gateway', env, (_app, line) => lines.push(line));
    const code = await Promise.race([gateway.exited, new Promise<'running'>((r) => setTimeout(() => r('running'), 30_000))]);
    if (code === 'running') await stopProcess(gateway);
    expect(code).toBe(1);
    expect(lines.join('\n')).toMatch(/ADMIN_TOKEN must be at least 32 characters \(got 31\)/);
    // 32 characters boot (the same check the process ran)
    expect(loadGatewayConfig({ ADMIN_TOKEN: 'x'.repeat(32) }).adminToken).toHaveLength(32);
  });

  it('throttles failed admin token attempts per client (429 with retry-after, even for the right token), not successful calls', async () => {
    const limit = 5;
    const strict = await GatewayHarness.start({
      infra: { databaseUrl: createTestDatabaseUrl('gw_admin_throttle'), redisUrl: INFRA.redis, natsUrl: nats.url },
      options: { adminFailureLimit: limit, rateWindowMs: 3000 },
    });
    try {
      // Successful calls give their slot back: many in a row stay 200.
      for (let i = 0; i < 3 * limit; i++) expect((await strict.admin('/admin/keys', { headers: admin })).status).toBe(200);
      // A concurrent burst of wrong tokens: exactly `limit` are judged (401), the rest wait (429).
      const burst = await Promise.all(
        Array.from({ length: 4 * limit }, (_, i) => strict.admin('/admin/keys', { headers: { authorization: `Bearer wrong-${i}` } })),
      );
      const statuses = burst.map((r) => r.status);
      expect(statuses.filter((s) => s === 401)).toHaveLength(limit);
      expect(statuses.filter((s) => s === 429)).toHaveLength(3 * limit);
      const refused = burst.find((r) => r.status === 429)!;
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(3);
      expect(((await refused.json()) as { message: string }).message).toMatch(
        /too many failed admin token attempts from this address: 5 per 3 s/,
      );
      // While throttled even the right token waits, so a guesser cannot tell a hit.
      expect((await strict.admin('/admin/keys', { headers: admin })).status).toBe(429);
      await new Promise((r) => setTimeout(r, retryAfter * 1000 + 200));
      expect((await strict.admin('/admin/keys', { headers: admin })).status).toBe(200);
    } finally {
      await strict.close();
    }
  });
});
