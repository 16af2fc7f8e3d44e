import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListNetworksReply, RPC } from '@tokensvc/messages';
import { createTestDatabaseUrl, freePort, INFRA, PrivateNatsServer } from '@tokensvc/testing';
import type { NatsConnection } from 'nats';
import { ADMIN_TOKEN, GatewayHarness, serveRpc } from './harness';

jest.setTimeout(60_000); // real services; Jest ignores the project-level testTimeout (default 5 s)

/**
 * The console's server side: its files on both listeners (the public page, the admin page without
 * the token, 503 while not built), GET /v3/portal/usage (per-endpoint counts, quota, windows) and
 * GET /v3/indexing/status (the indexer's report forwarded, 503 when it is down). The page itself is
 * tested in a real browser by tools/platform/console.browser.e2e-spec.ts.
 */
describe('gateway console routes (real HTTP, Redis, Postgres, NATS)', () => {
  let nats: PrivateNatsServer;
  let responder: NatsConnection;
  let gw: GatewayHarness;
  let indexer: Server;
  let indexerAnswer: { status: number; body: unknown } = { status: 200, body: {} };
  const dir = mkdtempSync(join(tmpdir(), 'console-'));

  beforeAll(async () => {
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>public console</title>');
    writeFileSync(join(dir, 'admin.html'), '<!doctype html><title>admin console</title>');
    writeFileSync(join(dir, 'assets', 'console-ABC123.js'), 'console.log(1)\n//# sourceMappingURL=console-ABC123.js.map');
    writeFileSync(join(dir, 'assets', 'console-ABC123.js.map'), '{"version":3,"sources":["../src/main.ts"]}');
    indexer = createServer((_req, res) =>
      res.writeHead(indexerAnswer.status, { 'content-type': 'application/json' }).end(JSON.stringify(indexerAnswer.body)),
    );
    await new Promise<void>((r) => indexer.listen(0, '127.0.0.1', r));
    nats = new PrivateNatsServer(await freePort());
    await nats.start();
    responder = await serveRpc(nats.url, RPC.listNetworks, () => ListNetworksReply.fromJSON({ networks: ['ethereum'] }));
    gw = await GatewayHarness.start({
      infra: { databaseUrl: createTestDatabaseUrl('gw_console'), redisUrl: INFRA.redis, natsUrl: nats.url },
      options: {
        usageFlushMs: 60_000,
        console: { dir, indexerStatusUrl: `http://127.0.0.1:${(indexer.address() as AddressInfo).port}/status` },
      },
    });
  });

  afterAll(async () => {
    await gw?.close();
    await responder?.close();
    await nats?.dispose();
    await new Promise((r) => indexer?.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the public page with a self-only CSP, hashed assets cached for a year, and 404 for other names', async () => {
    const page = await gw.request('/console');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(await page.text()).toContain('public console');
    const js = await gw.request('/console/assets/console-ABC123.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/javascript/);
    expect(js.headers.get('cache-control')).toContain('immutable');
    // the source map is built but not served unless CONSOLE_SOURCE_MAPS=true (off in production)
    for (const bad of [
      '..%2Findex.html',
      'index.html',
      '.hidden.js',
      'nothing-here.js',
      '..%2F..%2Fpackage.json',
      'console-ABC123.js.map',
    ]) {
      const res = await gw.request(`/console/assets/${bad}`);
      expect({ bad, status: res.status }).toEqual({ bad, status: 404 });
    }
    // the key management page is not on the public listener, nor is the admin API
    expect((await gw.request('/admin/keys')).status).toBe(404);
  });

  it('serves the admin page on the admin listener without the token; the admin API there still needs it', async () => {
    const page = await gw.admin('/console');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('admin console');
    expect((await gw.admin('/console/assets/console-ABC123.js')).status).toBe(200);
    expect((await gw.admin('/admin/keys')).status).toBe(401);
    expect((await gw.admin('/admin/keys', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).status).toBe(200);
  });

  it('GET /v3/portal/usage: the calling key only; counts per endpoint move with calls; quota and windows from the limiter', async () => {
    const { key, record } = await gw.issue('free');
    const other = await gw.issue('paid');
    expect((await gw.request('/v3/portal/usage')).status).toBe(401);
    const first = (await (await gw.request('/v3/portal/usage', { key })).json()) as any;
    expect(first).toMatchObject({
      key: { id: record.id, displayPrefix: record.displayPrefix, tier: 'free' },
      day: new Date().toISOString().slice(0, 10),
      month: new Date().toISOString().slice(0, 7),
      quota: { limit: 50_000, used: 1, remaining: 49_999 },
      endpoints: [{ endpoint: 'GET /v3/portal/usage', today: 1, month: 1 }],
    });
    expect(first.rateLimits).toEqual([
      { surface: 'data', limit: 100, remaining: 99, windowSeconds: 60, resetSeconds: expect.any(Number) },
      { surface: 'trading', limit: 100, remaining: 100, windowSeconds: 60, resetSeconds: 0 },
    ]);
    for (let i = 0; i < 3; i++) expect((await gw.request('/v1/networks', { key })).status).toBe(200);
    expect((await gw.request('/v1/networks', { key: other.key })).status).toBe(200);
    const second = (await (await gw.request('/v3/portal/usage', { key })).json()) as any;
    expect(second.quota).toEqual({ limit: 50_000, used: 5, remaining: 49_995 });
    expect(second.endpoints).toEqual([
      { endpoint: 'GET /v1/networks', today: 3, month: 3 },
      { endpoint: 'GET /v3/portal/usage', today: 2, month: 2 },
    ]);
    expect(second.rateLimits[0]).toMatchObject({ surface: 'data', remaining: 95 });
    // daily totals come from Postgres, flushed before the read
    expect(second.days).toEqual([{ day: second.day, calls: 5 }]);
    expect((await gw.request('/v3/portal/usage?x=1', { key })).status).toBe(400);
  });

  it('GET /v3/indexing/status forwards the documented fields of the indexer report; 503 when it fails', async () => {
    const { key } = await gw.issue('free');
    const ethereum = {
      network: 'ethereum',
      head: 120,
      cursor: 100,
      lag: 20,
      blocksPerSecond: 4,
      eventsPerSecond: 9,
      etaSeconds: 5,
      percent: 83.3,
      caughtUp: false,
      secret: 'not passed on',
    };
    indexerAnswer = {
      status: 200,
      body: {
        networks: [
          ethereum,
          {
            network: 'base',
            head: null,
            cursor: null,
            lag: null,
            blocksPerSecond: 0,
            eventsPerSecond: 0,
            etaSeconds: null,
            percent: 0,
            caughtUp: false,
          },
        ],
      },
    };
    expect((await gw.request('/v3/indexing/status')).status).toBe(401);
    const res = await gw.request('/v3/indexing/status', { key });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    const { secret: _secret, ...documented } = ethereum;
    expect(body.networks).toEqual([documented, expect.objectContaining({ network: 'base', head: null, caughtUp: false })]);
    expect(Date.parse(body.readAt)).toBeGreaterThan(Date.now() - 10_000);
    indexerAnswer = { status: 500, body: { error: 'down' } };
    await new Promise((r) => setTimeout(r, 1100)); // past the one-second shared read
    const down = await gw.request('/v3/indexing/status', { key });
    expect(down.status).toBe(503);
    expect(((await down.json()) as { message: string }).message).toMatch(/indexer's status answered HTTP 500/);
  });

  it('answers 503 saying how to build when the console is not built', async () => {
    rmSync(join(dir, 'index.html'));
    const res = await gw.request('/console');
    expect(res.status).toBe(503);
    expect(((await res.json()) as { message: string }).message).toMatch(/npm run console:build/);
  });
});
