import { createTokensvc, tokens, TokensvcError, unwrap } from './index';
import { errorBody, FakeServer, json } from './testing/fake-server';

const RATE = { 'ratelimit-limit': '100', 'ratelimit-remaining': '0', 'ratelimit-reset': '1', 'ratelimit-policy': '100;w=60' };

describe('SDK client: typed errors, the 429 retry, paging (fake server on loopback)', () => {
  let server: FakeServer;
  beforeEach(async () => {
    server = await new FakeServer().start();
  });
  afterEach(() => server.stop());

  it('an error answer is a TokensvcError with the status, the code, the message, the rate-limit headers and the request id', async () => {
    server.handler = (_req, res) =>
      json(res, 400, errorBody(400, 'Bad Request', 'invalid limit "500": must be an integer from 1 to 250', 'invalid_parameter'), {
        ...RATE,
        'x-request-id': 'req-1',
      });
    const svc = createTokensvc({ baseUrl: `${server.baseUrl}/`, apiKey: 'k1' });
    const err = await unwrap(svc.api.GET('/v2/tokens', { params: { query: { limit: 500 } } })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TokensvcError);
    expect(err).toMatchObject({
      status: 400,
      code: 'invalid_parameter',
      message: 'invalid limit "500": must be an integer from 1 to 250',
      requestId: 'req-1',
      rateLimit: { limit: 100, remaining: 0, reset: 1, policy: '100;w=60' },
    });
    expect(server.requests[0]!.headers['authorization']).toBe('Bearer k1');
    expect(server.requests[0]!.url.search).toBe('?limit=500');
  });

  it('a body that is not the service error shape is code "unknown" with the status in the message', async () => {
    server.handler = (_req, res) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('bad gateway');
    };
    const svc = createTokensvc({ baseUrl: server.baseUrl });
    await expect(unwrap(svc.api.GET('/v1/networks'))).rejects.toMatchObject({
      status: 502,
      code: 'unknown',
      message: 'HTTP 502: bad gateway',
    });
  });

  it('a 429 is thrown at once by default, carrying retry-after', async () => {
    server.handler = (_req, res) =>
      json(res, 429, errorBody(429, 'Too Many Requests', 'rate limit exceeded', 'rate_limited'), { ...RATE, 'retry-after': '7' });
    const svc = createTokensvc({ baseUrl: server.baseUrl });
    await expect(unwrap(svc.api.GET('/v1/networks'))).rejects.toMatchObject({
      status: 429,
      code: 'rate_limited',
      rateLimit: { retryAfter: 7, remaining: 0 },
    });
    expect(server.requests).toHaveLength(1);
    expect(svc.rateLimit.retryAfter).toBe(7);
  });

  it('with retry on, a 429 is retried after the retry-after it names, then the answer is returned', async () => {
    let n = 0;
    server.handler = (_req, res) =>
      n++ === 0
        ? json(res, 429, errorBody(429, 'Too Many Requests', 'slow down', 'rate_limited'), { 'retry-after': '1' })
        : json(res, 200, ['ethereum', 'base'], RATE);
    const svc = createTokensvc({ baseUrl: server.baseUrl, retry: { maxRetries: 2 } });
    const t = Date.now();
    expect(await unwrap(svc.api.GET('/v1/networks'))).toEqual(['ethereum', 'base']);
    expect(Date.now() - t).toBeGreaterThanOrEqual(950);
    expect(server.requests).toHaveLength(2);
    expect(svc.rateLimit).toEqual({ limit: 100, remaining: 0, reset: 1, policy: '100;w=60' });
  });

  it('retries a POST with its query again, stops after maxRetries, and does not wait longer than maxWaitMs', async () => {
    server.handler = (_req, res) =>
      json(res, 429, errorBody(429, 'Too Many Requests', 'slow down', 'rate_limited'), { 'retry-after': '0' });
    const svc = createTokensvc({ baseUrl: server.baseUrl, retry: { maxRetries: 2 } });
    await expect(unwrap(svc.api.POST('/v2/portal', { params: { query: { orderId: 'o1', signature: '0xab' } } }))).rejects.toMatchObject({
      code: 'rate_limited',
    });
    expect(server.requests.map((r) => `${r.method} ${r.url.search}`)).toEqual(Array(3).fill('POST ?orderId=o1&signature=0xab'));

    server.requests.length = 0;
    server.handler = (_req, res) =>
      json(res, 429, errorBody(429, 'Too Many Requests', 'quota', 'quota_exhausted'), { 'retry-after': '3600' });
    const patient = createTokensvc({ baseUrl: server.baseUrl, retry: { maxRetries: 5, maxWaitMs: 10_000 } });
    await expect(unwrap(patient.api.GET('/v1/networks'))).rejects.toMatchObject({
      code: 'quota_exhausted',
      rateLimit: { retryAfter: 3600 },
    });
    expect(server.requests).toHaveLength(1);
  });

  it('an abort ends the wait before a retry', async () => {
    server.handler = (_req, res) =>
      json(res, 429, errorBody(429, 'Too Many Requests', 'slow down', 'rate_limited'), { 'retry-after': '30' });
    const svc = createTokensvc({ baseUrl: server.baseUrl, retry: { maxRetries: 1 } });
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(new Error('user gave up')), 100);
    const t = Date.now();
    await expect(unwrap(svc.api.GET('/v1/networks', { signal: ctl.signal }))).rejects.toThrow('user gave up');
    expect(Date.now() - t).toBeLessThan(5000);
  });

  it('tokens() pages through GET /v2/tokens until more is false, with list parameters comma-separated', async () => {
    const all = Array.from({ length: 5 }, (_, i) => ({ key: `base:0x${String(i).padStart(40, '0')}`, symbol: `T${i}` }));
    server.handler = (_req, res, url) => {
      const limit = Number(url.searchParams.get('limit'));
      const page = Number(url.searchParams.get('page'));
      const slice = all.slice(page * limit, page * limit + limit);
      json(res, 200, { totalItems: all.length, pageItems: slice.length, more: (page + 1) * limit < all.length, page, tokens: slice });
    };
    const svc = createTokensvc({ baseUrl: server.baseUrl, apiKey: 'k' });
    const seen: string[] = [];
    for await (const t of tokens(svc, { networks: ['base', 'ethereum'], sortBy: 'liquidity' }, { pageSize: 2 })) seen.push(t.symbol);
    expect(seen).toEqual(['T0', 'T1', 'T2', 'T3', 'T4']);
    expect(server.requests.map((r) => r.url.search)).toEqual(
      [0, 1, 2].map((p) => `?networks=base,ethereum&sortBy=liquidity&limit=2&page=${p}`),
    );

    server.requests.length = 0;
    const first: string[] = [];
    for await (const t of tokens(svc, {}, { pageSize: 2, maxPages: 1 })) first.push(t.symbol);
    expect(first).toEqual(['T0', 'T1']);
    expect(server.requests).toHaveLength(1);
  });

  it('tokens() throws the typed error of a failing page', async () => {
    server.handler = (_req, res) => json(res, 401, errorBody(401, 'Unauthorized', 'API key missing', 'unauthorized'));
    const svc = createTokensvc({ baseUrl: server.baseUrl });
    const it = tokens(svc);
    await expect(it.next()).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
  });
});
