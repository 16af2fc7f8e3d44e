import { isApiKeyFormat } from '@tokensvc/api';
import { ListNetworksReply, RPC } from '@tokensvc/messages';
import { createTestDatabaseUrl, freePort, INFRA, PrivateNatsServer } from '@tokensvc/testing';
import type { NatsConnection } from 'nats';
import { ADMIN_TOKEN, GatewayHarness, serveRpc } from './harness';

jest.setTimeout(60_000); // real services; Jest ignores the project-level testTimeout (default 5 s)

/** The admin HTTP API: token guard (constant-time, any length), create, list, get, revoke, rotate. */
describe('gateway admin API (real HTTP, Postgres)', () => {
  let nats: PrivateNatsServer;
  let responder: NatsConnection;
  let gw: GatewayHarness;
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

  beforeAll(async () => {
    nats = new PrivateNatsServer(await freePort());
    await nats.start();
    responder = await serveRpc(nats.url, RPC.listNetworks, () => ListNetworksReply.fromJSON({ networks: ['ethereum'] }));
    gw = await GatewayHarness.start({ infra: { databaseUrl: createTestDatabaseUrl('gw_admin'), redisUrl: INFRA.redis, natsUrl: nats.url } });
  });

  afterAll(async () => {
    await gw?.close();
    await responder?.close();
    await nats?.dispose();
  });

  const create = async (body: unknown): Promise<{ status: number; json: any }> => {
    const res = await gw.request('/admin/keys', { method: 'POST', headers: admin, body });
    return { status: res.status, json: await res.json() };
  };

  it('refuses a missing or wrong admin token of any length, and API keys', async () => {
    const { key } = await gw.issue('enterprise');
    for (const authorization of [undefined, 'Bearer x', `Bearer ${ADMIN_TOKEN}x`, `Bearer ${ADMIN_TOKEN.slice(0, -1)}`, `Bearer ${'a'.repeat(5000)}`, `Bearer ${key}`]) {
      const res = await gw.request('/admin/keys', { headers: authorization === undefined ? {} : { authorization } });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { message: string }).message).toMatch(/admin token missing or wrong/);
    }
    expect((await gw.request('/admin/keys', { headers: { authorization: ADMIN_TOKEN } })).status).toBe(200);
  });

  it('issues a key shown once, which then works; validates the body', async () => {
    const created = await create({ tier: 'paid', label: 'acme' });
    expect(created.status).toBe(201);
    expect(isApiKeyFormat(created.json.key)).toBe(true);
    expect(created.json.record).toMatchObject({ tier: 'paid', label: 'acme', displayPrefix: created.json.key.slice(0, 15), revokedAt: null });
    expect((await gw.request('/v1/networks', { key: created.json.key })).status).toBe(200);
    // The list shows records, never keys.
    const listed = JSON.stringify(await (await gw.request('/admin/keys', { headers: admin })).json());
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
    const res = await gw.request(`/admin/keys/${json.record.displayPrefix}`, { method: 'DELETE', headers: admin });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).key.revokedAt).not.toBeNull();
    expect((await gw.request('/v1/networks', { key: json.key })).status).toBe(401);
    expect((await gw.request('/admin/keys/00000000-0000-0000-0000-000000000000', { method: 'DELETE', headers: admin })).status).toBe(404);
  });

  it('rotates: the new key works, the old one stops (at once, or after a grace period)', async () => {
    const first = (await create({ tier: 'paid', label: 'rotating' })).json;
    const rotated = await gw.request(`/admin/keys/${first.record.id}/rotate`, { method: 'POST', headers: admin });
    expect(rotated.status).toBe(201);
    const second = (await rotated.json()) as any;
    expect(second.record).toMatchObject({ tier: 'paid', label: 'rotating', rotatedFrom: first.record.id });
    expect((await gw.request('/v1/networks', { key: first.key })).status).toBe(401);
    expect((await gw.request('/v1/networks', { key: second.key })).status).toBe(200);

    const graced = (await (await gw.request(`/admin/keys/${second.record.id}/rotate?graceSeconds=3600`, { method: 'POST', headers: admin })).json()) as any;
    expect((await gw.request('/v1/networks', { key: second.key })).status).toBe(200);
    expect((await gw.request('/v1/networks', { key: graced.key })).status).toBe(200);
    const old = (await (await gw.request(`/admin/keys/${second.record.id}`, { headers: admin })).json()) as any;
    expect(new Date(old.key.expiresAt).getTime()).toBeGreaterThan(Date.now() + 3500_000);
  });

  it('shows a key with its usage per day', async () => {
    const { json } = await create({ tier: 'paid', label: 'usage' });
    for (let i = 0; i < 3; i++) await gw.request('/v1/networks', { key: json.key });
    await new Promise((r) => setTimeout(r, 5500)); // default usage flush: every 5 s
    const res = (await (await gw.request(`/admin/keys/${json.record.id}?days=2`, { headers: admin })).json()) as any;
    expect(res.usage).toEqual([{ day: new Date().toISOString().slice(0, 10), calls: 3 }]);
  });

  it('is disabled (403) when ADMIN_TOKEN is not configured', async () => {
    const off = await GatewayHarness.start({ infra: { databaseUrl: createTestDatabaseUrl('gw_noadmin'), redisUrl: INFRA.redis, natsUrl: nats.url }, env: { ADMIN_TOKEN: '' }, listen: false });
    try {
      const res = await off.app.getHttpAdapter().getInstance().inject({ method: 'GET', url: '/admin/keys', headers: { authorization: 'Bearer anything' } });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toMatch(/admin API is disabled/);
    } finally {
      await off.close();
    }
  });
});
