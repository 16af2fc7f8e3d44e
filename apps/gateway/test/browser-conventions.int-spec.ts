import { ERROR_CODES, TIER_POLICY } from '@tokensvc/api';
import { ErrorCode, ListNetworksReply, RPC } from '@tokensvc/messages';
import { createTestDatabaseUrl, freePort, INFRA, PrivateNatsServer } from '@tokensvc/testing';
import { RpcCallError } from '@tokensvc/transport';
import type { NatsConnection } from 'nats';
import { SAMPLE } from './fixtures';
import { GatewayHarness, serveRpc } from './harness';

jest.setTimeout(60_000); // real services; Jest ignores the project-level testTimeout (default 5 s)

const APP = 'https://app.example.com';
const OTHER = 'https://evil.example.net';
const IMAGE = '/images/tokens/ethereum/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48.svg';

/** What browser apps need: CORS for an allow-list, the token images served, a `code` in every error body. */
describe('gateway browser conventions (real HTTP, Redis, Postgres, NATS)', () => {
  let nats: PrivateNatsServer;
  let responder: NatsConnection;
  let gw: GatewayHarness;

  beforeAll(async () => {
    nats = new PrivateNatsServer(await freePort());
    await nats.start();
    responder = await serveRpc(nats.url, RPC.listNetworks, () => ListNetworksReply.fromJSON({ networks: ['ethereum'] }));
    gw = await GatewayHarness.start({
      infra: { databaseUrl: createTestDatabaseUrl('gw_browser'), redisUrl: INFRA.redis, natsUrl: nats.url },
      env: { CORS_ORIGINS: `${APP}, https://other-app.example.com` },
      options: {
        failedAuthLimit: 3,
        tierPolicy: { ...TIER_POLICY, free: { ...TIER_POLICY.free, perMinute: { data: 2, trading: 100 } } },
        served: {
          listPlatforms: async () => {
            throw new RpcCallError(ErrorCode.ERROR_CODE_UNAVAILABLE, 'token-data is down');
          },
        },
      },
    });
  });

  afterAll(async () => {
    await gw?.close();
    await responder?.close();
    await nats?.dispose();
  });

  describe('CORS', () => {
    it('answers a preflight from an allowed origin before authentication', async () => {
      const res = await gw.request('/v1/networks', {
        method: 'OPTIONS',
        headers: { origin: APP, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(APP);
      expect(res.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST, DELETE');
      expect(res.headers.get('access-control-allow-headers')).toBe('authorization');
      expect(res.headers.get('access-control-max-age')).toBe('600');
      expect(res.headers.get('vary')).toMatch(/origin/i);
    });

    it('allows DELETE (removing a webhook subscription) from an allowed origin', async () => {
      const res = await gw.request('/v3/portal/webhooks?id=00000000-0000-4000-8000-000000000000', {
        method: 'OPTIONS',
        headers: { origin: APP, 'access-control-request-method': 'DELETE', 'access-control-request-headers': 'authorization' },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(APP);
      expect((res.headers.get('access-control-allow-methods') ?? '').split(', ')).toContain('DELETE');
    });

    it('gives a simple request (an error one too) from an allowed origin the headers, rate-limit headers exposed', async () => {
      const { key } = await gw.issue('paid');
      const ok = await gw.request('/v1/networks', { key, headers: { origin: APP } });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('access-control-allow-origin')).toBe(APP);
      const exposed = (ok.headers.get('access-control-expose-headers') ?? '').split(',').map((h) => h.trim());
      expect(exposed).toEqual(
        expect.arrayContaining([
          'ratelimit-limit',
          'ratelimit-remaining',
          'ratelimit-reset',
          'ratelimit-policy',
          'retry-after',
          'x-request-id',
        ]),
      );
      const refused = await gw.request('/v1/networks', { headers: { origin: APP } });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('access-control-allow-origin')).toBe(APP);
    });

    it('gives an origin off the list no CORS header, and its preflight a 404', async () => {
      const { key } = await gw.issue('paid');
      const res = await gw.request('/v1/networks', { key, headers: { origin: OTHER } });
      expect(res.status).toBe(200);
      const cors = [...res.headers.keys()].filter((h) => h.startsWith('access-control-'));
      expect(cors).toEqual([]);
      const pre = await gw.request('/v1/networks', {
        method: 'OPTIONS',
        headers: { origin: OTHER, 'access-control-request-method': 'GET' },
      });
      expect(pre.status).toBe(404);
      expect([...pre.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([]);
      expect(await pre.json()).toMatchObject({ statusCode: 404, code: 'not_found' });
    });
  });

  describe('token images', () => {
    it('serves the same SVG for a path twice, another for another key, with long cache headers, an ETag, and no key', async () => {
      const a = await gw.request(IMAGE);
      expect(a.status).toBe(200);
      expect(a.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
      expect(a.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const etag = a.headers.get('etag');
      expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
      const body = await a.text();
      expect(body).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]*>.*<circle .*>A0B8<\/text><\/svg>$/);
      const again = await gw.request(IMAGE);
      expect(await again.text()).toBe(body);
      expect(again.headers.get('etag')).toBe(etag);
      const other = await gw.request('/images/tokens/base/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48.svg');
      expect(other.status).toBe(200);
      expect(await other.text()).not.toBe(body);
      const cached = await gw.request(IMAGE, { headers: { 'if-none-match': etag! } });
      expect(cached.status).toBe(304);
    });

    it.each([
      '/images/tokens/mars/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48.svg',
      '/images/tokens/ethereum/0xa0b8.svg',
      '/images/tokens/ethereum/0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48.png',
      '/images/tokens/ethereum',
    ])('answers 404 with the JSON error body for %s', async (path) => {
      const res = await gw.request(path);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ statusCode: 404, error: 'Not Found', message: expect.any(String), code: 'not_found' });
    });
  });

  describe('error codes', () => {
    const codeOf = async (res: Response): Promise<unknown> => ((await res.json()) as { code?: unknown }).code;

    it('documents the closed set of codes in the OpenAPI Error schema', async () => {
      const doc = (await (await gw.request('/docs/json')).json()) as {
        components: { schemas: Record<string, { properties: Record<string, { enum?: string[] }>; required?: string[] }> };
      };
      const error = doc.components.schemas['Error']!;
      expect(error.properties['code']?.enum).toEqual([...ERROR_CODES]);
      expect(error.required).toEqual(expect.arrayContaining(['statusCode', 'error', 'message', 'code']));
    });

    it('400 invalid_parameter, 401 unauthorized, 403 forbidden_plan, 404 not_found', async () => {
      const { key } = await gw.issue('free');
      const bad = await gw.request('/v2/tokens?limit=500', { key });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message: expect.stringMatching(/limit/),
        code: 'invalid_parameter',
      });
      const none = await gw.request('/v1/networks');
      expect(none.status).toBe(401);
      expect(await codeOf(none)).toBe('unauthorized');
      const forbidden = await gw.request(`/v2/tokens/history?${SAMPLE.tokenHistory.query}`, { key });
      expect(forbidden.status).toBe(403);
      expect(await codeOf(forbidden)).toBe('forbidden_plan');
      const missing = await gw.request('/v9/nothing');
      expect(missing.status).toBe(404);
      expect(await codeOf(missing)).toBe('not_found');
    });

    it('503 unavailable from a service, 429 rate_limited, then failed_auth_throttled', async () => {
      const { key: paid } = await gw.issue('paid');
      const down = await gw.request('/v2/platforms', { key: paid });
      expect(down.status).toBe(503);
      expect(await down.json()).toEqual({
        statusCode: 503,
        error: 'Service Unavailable',
        message: 'token-data is down',
        code: 'unavailable',
      });

      const { key } = await gw.issue('free');
      let last: Response | undefined;
      for (let i = 0; i < 3; i++) last = await gw.request('/v1/networks', { key });
      expect(last!.status).toBe(429);
      expect(await codeOf(last!)).toBe('rate_limited');

      // last: past the failed-auth budget this client's uncached keys all answer 429
      let throttled: Response | undefined;
      for (let i = 0; i < 5; i++) throttled = await gw.request('/v1/networks', { key: `tsk_live_${'x'.repeat(31)}${i}` });
      expect(throttled!.status).toBe(429);
      expect(await codeOf(throttled!)).toBe('failed_auth_throttled');
    });
  });
});
