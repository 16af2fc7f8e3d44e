import { gunzipSync, gzipSync } from 'node:zlib';
import { request as httpRequest } from 'node:http';
import { PAID_METRIC_FIELDS, PUBLIC_METRIC_FIELDS } from '@tokensvc/api';
import { AccountReply, ErrorCode, ListTokensReply, RPC, Token, type RpcContract } from '@tokensvc/messages';
import { createTestDatabaseUrl, freePort, INFRA, PrivateNatsServer } from '@tokensvc/testing';
import { BODY_ENCODING_HEADER, BODY_MEDIA_TYPE, BODY_REPLY_HEADER, bodySubjects } from '@tokensvc/transport';
import { connect, headers as natsHeaders, JSONCodec, type NatsConnection, type Subscription } from 'nats';
import { acceptsGzip } from '../src/http/encoded-body';
import { TOKEN } from './fixtures';

import { GatewayHarness } from './harness';

/** the stand-in's label of TOKEN's network, as token-data sends it (issue 23) */
const BLOCK = { network: TOKEN.network, number: String(TOKEN.block.number), hash: TOKEN.block.hash ?? undefined, final: TOKEN.block.final };

jest.setTimeout(60_000);

/**
 * /v2/account and /v2/tokens when token-data answers with the HTTP body itself (reply-body.ts in
 * @tokensvc/transport): the gateway asks for its caller's view, sends the bytes untouched (gzipped
 * ones as they are to clients that accept gzip, inflated for the others), maps error replies as
 * before, and still maps and cuts by tier a token-data that answers the reply message.
 */
const json = JSONCodec<{ id: string; data: Record<string, unknown> }>();
const OWNER = (n: number): string => `0x${String(n).padStart(40, '0')}`;
const LARGE = JSON.stringify({
  totalQueried: 1,
  balances: Array.from({ length: 3000 }, (_, i) => ({ key: `ethereum:${OWNER(i)}`, note: 'x'.repeat(100) })),
});

/**
 * A stand-in token-data on the bus. Owner 1: a body naming the view it was asked for; 2: a gzipped
 * body; 3: an error reply; 4: the reply message (a token-data that does not encode bodies).
 */
async function standIn(natsUrl: string, contract: RpcContract<unknown, unknown>, seen: string[]): Promise<NatsConnection> {
  const nc = await connect({ servers: natsUrl });
  // the view is asked for on the subject (`<subject>.view.<view>`)
  for (const subject of bodySubjects(contract.subject)) void answer(nc.subscribe(subject, { queue: contract.service }), contract, seen);
  await nc.flush();
  return nc;
}

async function answer(sub: Subscription, contract: RpcContract<unknown, unknown>, seen: string[]): Promise<void> {
  for await (const m of sub) {
    const packet = json.decode(m.data);
    const view = /\.view\.(\w+)$/.exec(m.subject)?.[1] ?? '';
    seen.push(view);
    const which = Number(BigInt((packet.data['owner'] as string | undefined) ?? (packet.data['search'] as string | undefined) ?? '0'));
    const h = natsHeaders();
    h.set(BODY_REPLY_HEADER, BODY_MEDIA_TYPE);
    if (which === 1) m.respond(Buffer.from(JSON.stringify({ view, standIn: true })), { headers: h });
    else if (which === 2) {
      h.set(BODY_ENCODING_HEADER, 'gzip');
      m.respond(gzipSync(LARGE), { headers: h });
    } else if (which === 3)
      m.respond(
        JSONCodec().encode({ id: packet.id, err: { code: ErrorCode.ERROR_CODE_NOT_FOUND, message: 'unknown owner' }, isDisposed: true }),
      );
    else {
      const token = Token.fromJSON(TOKEN);
      const response =
        contract === RPC.account
          ? AccountReply.toJSON({
              totalQueried: 1,
              balances: [{ token, balance: 1.5, balanceUsd: 1.5, rawBalance: '1500000' }],
              blocks: [BLOCK],
            })
          : ListTokensReply.toJSON({ totalItems: 1, pageItems: 1, more: false, page: 0, tokens: [token], blocks: [BLOCK] });
      m.respond(JSONCodec().encode({ id: packet.id, response, isDisposed: true }));
    }
  }
}

/** GET without the fetch API's automatic inflation: status, headers and the raw bytes */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('data replies that are the HTTP body', () => {
  let nats: PrivateNatsServer;
  let gw: GatewayHarness;
  const standIns: NatsConnection[] = [];
  const seen: string[] = [];
  let paid = '';
  let free = '';

  beforeAll(async () => {
    nats = new PrivateNatsServer(await freePort());
    await nats.start();
    standIns.push(
      await standIn(nats.url, RPC.account as RpcContract<unknown, unknown>, seen),
      await standIn(nats.url, RPC.listTokens as RpcContract<unknown, unknown>, seen),
    );
    gw = await GatewayHarness.start({
      infra: { databaseUrl: createTestDatabaseUrl('gw_bodies'), redisUrl: INFRA.redis, natsUrl: nats.url },
    });
    paid = (await gw.issue('paid')).key;
    free = (await gw.issue('free')).key;
  });
  afterAll(async () => {
    await gw?.close();
    await Promise.all(standIns.map((nc) => nc.close()));
    await nats?.dispose();
  });

  const account = (owner: number): string => `${gw.baseUrl}/v2/account?owner=${OWNER(owner)}&networks=ethereum`;

  it("asks for the caller's view and sends the body's bytes as they are, as JSON, with the usual headers", async () => {
    for (const [key, view] of [
      [paid, 'paid'],
      [free, 'free'],
    ] as const) {
      const res = await rawGet(account(1), { authorization: `Bearer ${key}` });
      const want = JSON.stringify({ view, standIn: true });
      expect(res.status).toBe(200);
      expect(res.bytes.toString()).toBe(want);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['content-length']).toBe(String(Buffer.byteLength(want)));
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['ratelimit-limit']).toBeDefined();
      expect(res.headers['x-request-id']).toBeDefined();
    }
    const list = await rawGet(`${gw.baseUrl}/v2/tokens?search=1`, { authorization: `Bearer ${free}` });
    expect(list.bytes.toString()).toBe(JSON.stringify({ view: 'free', standIn: true }));
    expect(seen.slice(-3)).toEqual(['paid', 'free', 'free']);
  });

  it('passes a gzipped body through to clients that accept gzip and inflates it for the others', async () => {
    const zipped = await rawGet(account(2), { authorization: `Bearer ${paid}`, 'accept-encoding': 'br, gzip;q=0.8' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers['vary']).toMatch(/accept-encoding/i);
    expect(gunzipSync(zipped.bytes).toString()).toBe(LARGE);
    for (const accept of [undefined, 'identity', 'gzip;q=0, deflate']) {
      const plain = await rawGet(account(2), { authorization: `Bearer ${paid}`, ...(accept ? { 'accept-encoding': accept } : {}) });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers['content-length']).toBe(String(Buffer.byteLength(LARGE)));
      expect(plain.bytes.toString()).toBe(LARGE);
    }
  });

  it('maps an error reply to its HTTP status and message', async () => {
    const res = await gw.request(`/v2/account?owner=${OWNER(3)}&networks=ethereum`, { key: paid });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'unknown owner', code: 'not_found' });
  });

  it('maps a reply message as before and cuts the paid metrics for free keys', async () => {
    for (const path of [`/v2/account?owner=${OWNER(4)}&networks=ethereum`, '/v2/tokens?search=4']) {
      const list = path.startsWith('/v2/account') ? 'balances' : 'tokens';
      const metrics = async (key: string): Promise<string[]> =>
        Object.keys(((await (await gw.request(path, { key })).json()) as Record<string, Array<{ metrics: object }>>)[list]![0]!.metrics);
      expect((await metrics(free)).sort()).toEqual([...PUBLIC_METRIC_FIELDS].sort());
      expect((await metrics(paid)).sort()).toEqual([...PUBLIC_METRIC_FIELDS, ...PAID_METRIC_FIELDS].sort());
      // each record carries its network's block label in the public shape
      const record = ((await (await gw.request(path, { key: paid })).json()) as Record<string, Array<{ block: unknown }>>)[list]![0]!;
      expect(record.block).toEqual(TOKEN.block);
    }
  });

  it('reads Accept-Encoding with q-values', () => {
    expect(acceptsGzip('gzip')).toBe(true);
    expect(acceptsGzip('GZIP ; q=0.5')).toBe(true);
    expect(acceptsGzip(['deflate', 'gzip'])).toBe(true);
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('gzip;q=0, *')).toBe(false);
    expect(acceptsGzip('*;q=0')).toBe(false);
    expect(acceptsGzip('identity')).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
  });
});
