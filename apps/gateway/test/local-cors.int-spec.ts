import { createTestDatabaseUrl, devPlatformCors, freePort, INFRA, PrivateNatsServer } from '@tokensvc/testing';
import { GatewayHarness } from './harness';

jest.setTimeout(60_000); // real services; Jest ignores the project-level testTimeout (default 5 s)

/** A browser's preflight for GET /v1/networks with the API key header, from `origin`. */
const preflight = (gw: GatewayHarness, origin: string): Promise<Response> =>
  gw.request('/v1/networks', {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
  });
const corsHeaders = (res: Response): string[] => [...res.headers.keys()].filter((h) => h.startsWith('access-control-'));

/**
 * A browser app on the developer's machine (a dev server on localhost, any port) calls the gateway
 * `npm start` runs: its configuration (devPlatformCors, what tools/platform/start.ts hands the
 * apps) answers the preflight; the production default (no CORS_ORIGINS) still does not.
 */
describe('CORS for local origins: under npm start, and not in production by default (real HTTP, Redis, Postgres, NATS)', () => {
  let nats: PrivateNatsServer;
  let dev: GatewayHarness;
  let prod: GatewayHarness;

  beforeAll(async () => {
    nats = new PrivateNatsServer(await freePort());
    await nats.start();
    const infra = (name: string) => ({ databaseUrl: createTestDatabaseUrl(name), redisUrl: INFRA.redis, natsUrl: nats.url });
    dev = await GatewayHarness.start({ infra: infra('gw_cors_dev'), env: devPlatformCors({}).env });
    prod = await GatewayHarness.start({ infra: infra('gw_cors_prod') });
  });

  afterAll(async () => {
    await dev?.close();
    await prod?.close();
    await nats?.dispose();
  });

  it('npm start sets CORS_ORIGINS=local unless the developer set CORS_ORIGINS, and says so', () => {
    const said = expect.stringContaining('http://localhost:<any port>, http://127.0.0.1:<any port>');
    expect(devPlatformCors({})).toEqual({ env: { CORS_ORIGINS: 'local' }, summary: said });
    const app = 'https://app.example.com';
    expect(devPlatformCors({ CORS_ORIGINS: app })).toEqual({
      env: { CORS_ORIGINS: app },
      summary: `CORS: the origins of CORS_ORIGINS=${app}`,
    });
    expect(devPlatformCors({ CORS_ORIGINS: '' })).toEqual({ env: { CORS_ORIGINS: '' }, summary: 'CORS: off (CORS_ORIGINS is empty)' });
  });

  const local = ['http://localhost:5173', 'http://127.0.0.1:8080', 'http://localhost', 'http://[::1]:3000'];
  it.each(local)('under npm start: answers the preflight from %s before authentication', async (origin) => {
    const res = await preflight(dev, origin);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    expect(res.headers.get('access-control-allow-headers')).toBe('authorization');
    // the request itself (a 401 here: no key) carries the header too, so the app can read the answer
    const refused = await dev.request('/v1/networks', { headers: { origin } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(origin);
  });

  const elsewhere = ['https://app.example.com', 'http://localhost.evil.example', 'http://127.0.0.1.nip.io:5173', 'null'];
  it.each(elsewhere)('under npm start: an origin off this machine (%s) gets no CORS header', async (origin) => {
    const res = await preflight(dev, origin);
    expect(res.status).toBe(404);
    expect(corsHeaders(res)).toEqual([]);
  });

  it('in production (CORS_ORIGINS unset): the preflight from http://localhost:5173 is refused, no CORS header', async () => {
    const res = await preflight(prod, 'http://localhost:5173');
    expect(res.status).toBe(404);
    expect(corsHeaders(res)).toEqual([]);
  });
});
