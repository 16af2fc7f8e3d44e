import { connect } from 'node:net';
import { createTestDatabaseUrl, freePort, INFRA } from '@tokensvc/testing';
import type { GatewayHarness } from './harness';
import { startFuzzGateway } from './param-fuzz';

/** Sends raw bytes over loopback and reads everything until the server closes the connection. */
function raw(baseUrl: string, request: string): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    // Written, not ended: a half-closed client may see its in-flight request dropped. The server closes (connection: close, or after a 431).
    socket.write(request);
  });
}

/** Status, and the bytes after the header block. */
function split(response: string): { status: number; headers: string; body: string } {
  const end = response.indexOf('\r\n\r\n');
  return { status: Number(response.slice(9, 12)), headers: response.slice(0, end).toLowerCase(), body: response.slice(end + 4) };
}

/** The Should-fix points of issue 16 about gateway input, over real HTTP (gateway with NATS backends absent). */
describe('gateway input edges (HTTP, loopback)', () => {
  let gw: GatewayHarness;
  let key: string;

  beforeAll(async () => {
    ({ gw, key } = await startFuzzGateway(
      {
        databaseUrl: createTestDatabaseUrl('gw_input_edges'),
        redisUrl: INFRA.redis,
        closedNatsUrl: `nats://127.0.0.1:${await freePort()}`,
      },
      { listen: true },
    ));
  });

  afterAll(async () => {
    await gw?.close();
  });

  it('answers a HEAD without a body, also when its headers are too large (431), and a GET the JSON error', async () => {
    const long = `/v2/tokens?search=${'a'.repeat(20_000)}`;
    const head = split(await raw(gw.baseUrl, `HEAD ${long} HTTP/1.1\r\nhost: x\r\n\r\n`));
    expect(head.status).toBe(431);
    expect(head.body).toBe('');
    const get = split(await raw(gw.baseUrl, `GET ${long} HTTP/1.1\r\nhost: x\r\n\r\n`));
    expect(get.status).toBe(431);
    expect(JSON.parse(get.body)).toEqual({
      statusCode: 431,
      error: 'Request Header Fields Too Large',
      message: expect.stringMatching(/exceed 16 kB/),
      code: 'payload_too_large',
    });
    // Errors answered by the app (no key, a bad query) carry no body to a HEAD either.
    for (const path of ['/v2/tokens', `/v2/tokens?limit=0`]) {
      const r = split(
        await raw(
          gw.baseUrl,
          `HEAD ${path} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n${path.includes('limit') ? `authorization: Bearer ${key}\r\n` : ''}\r\n`,
        ),
      );
      expect([path, r.status, r.body]).toEqual([path, path.includes('limit') ? 400 : 401, '']);
    }
  });

  it('trims list elements and refuses a single value with surrounding whitespace, saying so', async () => {
    // `networks` passes validation and is forwarded (503: no token-data behind this gateway).
    expect((await gw.request('/v2/tokens?networks=ethereum%20', { key })).status).toBe(503);
    const res = await gw.request('/v2/tokens?limit=%2010', { key });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe(
      'invalid limit " 10": must be an integer from 1 to 250, without leading or trailing whitespace',
    );
  });

  it('keeps repeated list elements: equal amounts pair with their tokens, and a repeated input token is a 400 saying so', async () => {
    const USDC = 'ethereum:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
    const LINK = 'ethereum:0x514910771af9ca656af840dff83e8264ecf986ca';
    const DAI = 'ethereum:0x6b175474e89094c44da98b954eedfa2cae4a6a0e';
    const out = 'ethereum:0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
    // two tokens with equal amounts pass validation and are forwarded (503: no quote service behind this gateway)
    expect(
      (
        await gw.request(
          `/v2/portal/multi/estimate?inputTokens=${USDC},${LINK}&inputAmounts=1000000000000000,1000000000000000&outputToken=${out}`,
          { key },
        )
      ).status,
    ).toBe(503);
    const res = await gw.request(
      `/v2/portal/multi/estimate?inputTokens=${USDC},${DAI},${USDC}&inputAmounts=1000000,2000000000000000000,1000000&outputToken=${out}`,
      { key },
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(`inputTokens repeats ${USDC}: give each token once`);
  });

  it('refuses a mixed-case address with a wrong EIP-55 checksum and takes all-lower and all-upper ones', async () => {
    const q = (owner: string): Promise<Response> => gw.request(`/v2/account?networks=base&owner=${owner}`, { key });
    const res = await q('0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eb48');
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(
      /^invalid owner ".*": has a wrong EIP-55 checksum \(mixed case\); the checksummed form is 0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48/,
    );
    for (const ok of [
      '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
      '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
      '0xA0B86991C6218B36C1D19D4A2E9EB0CE3606EB48',
    ])
      expect([ok, (await q(ok)).status]).toEqual([ok, 503]);
  });

  it('refuses a request with two Host headers (400), before authentication', async () => {
    const twice = split(
      await raw(gw.baseUrl, `GET /v1/networks HTTP/1.1\r\nhost: a.example\r\nhost: b.example\r\nconnection: close\r\n\r\n`),
    );
    expect(twice.status).toBe(400);
    expect(JSON.parse(twice.body)).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'more than one Host header: send exactly one',
      code: 'invalid_parameter',
    });
    const once = split(await raw(gw.baseUrl, `GET /health HTTP/1.1\r\nhost: a.example\r\nconnection: close\r\n\r\n`));
    expect(once.status).toBe(200);
  });

  it('serves /health whatever cache-busting query a monitor adds', async () => {
    const res = await gw.request('/health?_=1732600000000&nocache=1');
    expect(res.status).toBe(200);
    expect(((await res.json()) as { status: string }).status).toBe('ok');
  });
});
