import { endpointList, openApiPath, type OpenApiDocument } from '@tokensvc/api';
import { loadGatewayConfig } from '@tokensvc/config';
import { ListNetworksReply, ListPlatformsReply, RPC } from '@tokensvc/messages';
import { createTestDatabaseUrl, freePort, INFRA, PrivateNatsServer } from '@tokensvc/testing';
import type { NatsConnection } from 'nats';
import { accessOf } from '../src/operations/operations';
import { createGateway, routeTable } from '../src/bootstrap';
import { SAMPLE } from './fixtures';
import { GatewayHarness, serveRpc } from './harness';

jest.setTimeout(60_000); // real services; Jest ignores the project-level testTimeout (default 5 s)

/** The route table, the docs, the error shapes, upstream failures, metrics and logs. */
describe('gateway routes, docs and errors (real HTTP, Redis, Postgres, NATS)', () => {
  let nats: PrivateNatsServer;
  let responders: NatsConnection[];
  let gw: GatewayHarness;
  let paid: string;

  beforeAll(async () => {
    nats = new PrivateNatsServer(await freePort());
    await nats.start();
    responders = [
      await serveRpc(nats.url, RPC.listNetworks, () => ListNetworksReply.fromJSON({ networks: ['ethereum', 'arbitrum', 'base'] })),
      // Slower than the gateway's 1 s NATS timeout: the gateway must answer 504, not hang.
      await serveRpc(nats.url, RPC.listPlatforms, async () => {
        await new Promise((r) => setTimeout(r, 1500));
        return ListPlatformsReply.fromJSON({ platforms: [] });
      }),
    ];
    gw = await GatewayHarness.start({
      infra: { databaseUrl: createTestDatabaseUrl('gw_routes'), redisUrl: INFRA.redis, natsUrl: nats.url },
      env: { LOG_LEVEL: 'info' },
      options: {
        served: {
          // a deployment that does not serve this route (it answers 501)
          approvalCrossChain: undefined,
          tokenMetrics: async () => {
            throw new Error('db password=hunter2 leaked into an error');
          },
        },
      },
    });
    paid = (await gw.issue('paid')).key;
  });

  afterAll(async () => {
    await gw?.close();
    await Promise.all((responders ?? []).map((r) => r.close()));
    await nats?.dispose();
  });

  it('gives every route in the Fastify table an access class and documents it in /docs/json', async () => {
    const routes = routeTable(gw.app);
    expect(routes.length).toBeGreaterThan(2 * endpointList().length);
    const doc = (await (await gw.request('/docs/json')).json()) as OpenApiDocument;
    const undocumented: string[] = [];
    for (const r of routes) {
      expect([r.method, r.url, accessOf(r.method, r.url)]).toEqual([r.method, r.url, expect.any(String)]);
      if (r.method === 'HEAD') continue;
      const op = doc.paths[openApiPath(r.url)]?.[r.method.toLowerCase()];
      if (!op) undocumented.push(`${r.method} ${r.url}`);
      else expect(op['x-access']).toBe(accessOf(r.method, r.url));
    }
    expect(undocumented).toEqual([]);
    // And the reverse: every documented operation is a route.
    const served = new Set(routes.map((r) => `${r.method} ${openApiPath(r.url)}`));
    for (const [path, ops] of Object.entries(doc.paths))
      for (const m of Object.keys(ops)) expect(served).toContain(`${m.toUpperCase()} ${path}`);
  });

  it('refuses to start when a route has no access class', async () => {
    const config = loadGatewayConfig({
      DATABASE_URL: createTestDatabaseUrl('unused'),
      REDIS_URL: INFRA.redis,
      NATS_URL: nats.url,
      LOG_LEVEL: 'error',
    });
    const app = await createGateway(config);
    const fastify = app.getHttpAdapter().getInstance();
    fastify.get('/rogue', async () => 'open to all');
    await app.init();
    await expect(fastify.ready()).rejects.toThrow(/routes without an access class: GET \/rogue/);
    await app.close();
  });

  it('serves the docs UI and its assets', async () => {
    const page = await gw.request('/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toContain('/docs/assets/swagger-init.js');
    // like the console's page: self-only CSP without inline script, never framed, no sniffing
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    const init = await gw.request('/docs/assets/swagger-init.js');
    expect(init.status).toBe(200);
    expect(await init.text()).toContain("url: '/docs/json'");
    expect((await gw.request('/docs/json')).headers.get('x-content-type-options')).toBe('nosniff');
    const css = await gw.request('/docs/assets/swagger-ui.css');
    expect(css.status).toBe(200);
    expect(css.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await gw.request('/docs/assets/..%2F..%2Fpackage.json')).status).toBe(404);
  });

  it('answers unknown routes with 404 and the error body', async () => {
    const res = await gw.request('/v9/nothing?x=1');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'no route GET /v9/nothing; see /docs for the routes',
      code: 'not_found',
    });
  });

  it('answers 400 naming unknown parameters and bad values with the accepted ones', async () => {
    const unknown = await gw.request('/v1/networks?foo=1&bar=2', { key: paid });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { message: string }).message).toBe(
      'unknown query parameters "foo", "bar"; this endpoint takes no parameters',
    );
    const bad = await gw.request('/v2/tokens?limit=500&sortDirection=up', { key: paid });
    expect(bad.status).toBe(400);
    const message = ((await bad.json()) as { message: string }).message;
    expect(message).toContain('invalid limit "500": must be an integer from 1 to 250');
    expect(message).toContain('invalid sortDirection "up": must be one of asc, desc');
  });

  it('answers 501 from the served table for declared endpoints no service answers yet', async () => {
    const res = await gw.request(`/v2/approval/cross-chain?${SAMPLE.approvalCrossChain.query}`, { key: paid });
    expect(res.status).toBe(501);
    expect(await res.json()).toEqual({
      statusCode: 501,
      error: 'Not Implemented',
      message: '/v2/approval/cross-chain is not served by this deployment yet',
      code: 'not_implemented',
    });
  });

  it('forwards /v1/networks over NATS, and answers 504 when the service is too slow', async () => {
    const ok = await gw.request('/v1/networks', { key: paid });
    expect(await ok.json()).toEqual(['ethereum', 'arbitrum', 'base']);
    const slow = await gw.request('/v2/platforms', { key: paid });
    expect(slow.status).toBe(504);
    expect(((await slow.json()) as { message: string }).message).toMatch(/did not answer within 1000 ms/);
  });

  it('answers an internal failure with 500, the request id and no detail; logs the id, never the key', async () => {
    const lines: string[] = [];
    const capture = (stream: NodeJS.WriteStream) =>
      jest.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
        lines.push(String(chunk));
        return true;
      });
    const spies = [capture(process.stdout), capture(process.stderr)];
    let res: Response;
    try {
      res = await gw.request(`/v3/tokens/metrics?${SAMPLE.tokenMetrics.query}`, { key: paid, headers: { 'x-request-id': 'req-test-500' } });
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      for (const s of spies) s.mockRestore();
    }
    expect(res.status).toBe(500);
    expect(res.headers.get('x-request-id')).toBe('req-test-500');
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({
      statusCode: 500,
      error: 'Internal Server Error',
      message: 'internal error; quote request id req-test-500 when reporting it',
      code: 'internal',
    });
    expect(text).not.toMatch(/hunter2|\sat\s/);
    const logs = lines.join('');
    expect(logs).toContain('"requestId":"req-test-500"');
    expect(logs).toContain('"route":"/v3/tokens/metrics"');
    expect(logs).toContain(`"key":"${paid.slice(0, 15)}"`);
    expect(logs).not.toContain(paid);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  });

  it('exposes per-route, per-status metrics and the limiter/auth counters', async () => {
    await gw.request('/v1/networks');
    const text = await (await gw.request('/metrics')).text();
    expect(text).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/v1\/networks"[^}]*status="200"/);
    expect(text).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/v1\/networks"[^}]*status="401"/);
    expect(text).toMatch(/gateway_auth_rejections_total\{[^}]*reason="missing"/);
  });

  it('reports liveness and readiness', async () => {
    expect(((await (await gw.request('/health')).json()) as { status: string }).status).toBe('ok');
    const ready = await gw.request('/health/ready');
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { checks: Record<string, unknown> }).checks).toMatchObject({
      nats: expect.anything(),
      postgres: expect.anything(),
      redis: expect.anything(),
    });
  });

  it('fails closed with 503 when Redis is unreachable, while /health stays up', async () => {
    const down = await GatewayHarness.start({
      infra: { databaseUrl: createTestDatabaseUrl('gw_noredis'), redisUrl: 'redis://127.0.0.1:1', natsUrl: nats.url },
    });
    try {
      const { key } = await down.issue('paid');
      const res = await down.request('/v1/networks', { key });
      expect(res.status).toBe(503);
      expect(((await res.json()) as { message: string }).message).toMatch(/rate limiter unavailable/);
      expect((await down.request('/health')).status).toBe(200);
      expect((await down.request('/health/ready')).status).toBe(503);
    } finally {
      await down.close();
    }
  });
});
