import { endpointList, ERROR_CODES, PAID_METRIC_FIELDS, PUBLIC_METRIC_FIELDS, type AccessClass, type EndpointId } from '@tokensvc/api';
import {
  ApprovalReply,
  CrossChainStatusReply,
  DeleteWebhookReply,
  ListWebhooksReply,
  RegisterWebhookReply,
  EstimateReply,
  ListNetworksReply,
  ListPlatformsReply,
  MultiOrderReply,
  OrderReply,
  StoredOrderReply,
  RPC,
  TokenHistoryReply,
  TokenHoldersReply,
  TokenMetricsReply,
  TokenTransactionsReply,
} from '@tokensvc/messages';
import { createTestDatabaseUrl, freePort, INFRA, PrivateNatsServer } from '@tokensvc/testing';
import type { NatsConnection } from 'nats';
import { PLAN_FORBIDS } from '../src/access/access-policy';
import type { ServedTable } from '../src/api/served';
import { BALANCE, SAMPLE, TOKEN } from './fixtures';
import { GatewayHarness, rateHeaders, serveRpc } from './harness';

jest.setTimeout(60_000); // real services; Jest ignores the project-level testTimeout (default 5 s)

/**
 * The auth matrix over real HTTP, for every endpoint of the public interface: no key, malformed
 * and unknown keys, revoked, expired, free, paid and enterprise keys, both header forms.
 */
type Credential = 'none' | 'garbage' | 'unknown' | 'revoked' | 'expired' | 'free' | 'free-bare' | 'paid' | 'paid-bare' | 'enterprise';
const CREDENTIALS: Credential[] = [
  'none',
  'garbage',
  'unknown',
  'revoked',
  'expired',
  'free',
  'free-bare',
  'paid',
  'paid-bare',
  'enterprise',
];

/** What an admitted call answers: the fakes and NATS stand-ins answer 200, the rest is declared but unserved. */
const ADMITTED: Partial<Record<EndpointId, number>> = {
  listTokens: 200,
  account: 200,
  listNetworks: 200,
  listPlatforms: 200,
  tokenHistory: 200,
  tokenTransactions: 200,
  tokenMetrics: 200,
  tokenHolders: 200,
  estimate: 200,
  approval: 200,
  approvalCrossChain: 200,
  portal: 200,
  portalMulti: 200,
  estimateMulti: 200,
  portalSubmit: 200,
  portalStatus: 200,
  crossChainStatus: 200,
  crossChainStatusStream: 200,
  webhookRegister: 201,
  webhookList: 200,
  webhookDelete: 200,
  health: 200,
};

function expectedStatus(access: AccessClass, id: EndpointId, c: Credential): number {
  const admitted = ADMITTED[id] ?? 501;
  const invalid = c === 'garbage' || c === 'unknown' || c === 'revoked' || c === 'expired';
  switch (access) {
    case 'public':
      return admitted;
    case 'trading':
      return invalid ? 401 : admitted;
    case 'data':
      return invalid || c === 'none' ? 401 : admitted;
    case 'data-paid':
      if (invalid || c === 'none') return 401;
      return c === 'free' || c === 'free-bare' ? 403 : admitted;
    case 'admin':
      throw new Error('admin routes are not in the public interface');
  }
}

describe('gateway auth matrix (real HTTP, Redis, Postgres, NATS)', () => {
  let nats: PrivateNatsServer;
  let gw: GatewayHarness;
  let responders: NatsConnection[] = [];
  const keys = {} as Record<Credential, string | undefined>;

  beforeAll(async () => {
    nats = new PrivateNatsServer(await freePort());
    await nats.start();
    responders = [
      await serveRpc(nats.url, RPC.listNetworks, () => ListNetworksReply.fromJSON({ networks: ['ethereum', 'base'] })),
      await serveRpc(nats.url, RPC.listPlatforms, () =>
        ListPlatformsReply.fromJSON({ platforms: [{ platform: 'uniswap-v2', name: 'Uniswap V2', image: 'i', network: 'ethereum' }] }),
      ),
      // empty answers through the real forwarding code of the paid endpoints
      await serveRpc(nats.url, RPC.tokenHistory, () => TokenHistoryReply.fromJSON({})),
      await serveRpc(nats.url, RPC.tokenTransactions, () => TokenTransactionsReply.fromJSON({ pageInfo: { hasNextPage: false } })),
      await serveRpc(nats.url, RPC.tokenMetrics, () => TokenMetricsReply.fromJSON({})),
      await serveRpc(nats.url, RPC.tokenHolders, () => TokenHoldersReply.fromJSON({})),
      await serveRpc(nats.url, RPC.estimate, () => EstimateReply.fromJSON({})),
      await serveRpc(nats.url, RPC.approval, () => ApprovalReply.fromJSON({})),
      await serveRpc(nats.url, RPC.buildOrder, () => OrderReply.fromJSON({})),
      await serveRpc(nats.url, RPC.buildMultiOrder, () => MultiOrderReply.fromJSON({})),
      await serveRpc(nats.url, RPC.submitOrder, () => StoredOrderReply.fromJSON({ relay: { status: 'pending', txHashes: [] } })),
      await serveRpc(nats.url, RPC.orderStatus, () => StoredOrderReply.fromJSON({ relay: { status: 'quoted', txHashes: [] } })),
      await serveRpc(nats.url, RPC.crossChainStatus, (req) =>
        CrossChainStatusReply.fromJSON({
          txHash: req.txHash,
          status: 'PENDING',
          crossChainProvider: 'across',
          fromChainId: '1',
          toChainId: '8453',
        }),
      ),
      await serveRpc(nats.url, RPC.listWebhooks, () => ListWebhooksReply.fromJSON({ webhooks: [] })),
      await serveRpc(nats.url, RPC.deleteWebhook, (req) => DeleteWebhookReply.fromJSON({ id: req.id })),
      await serveRpc(nats.url, RPC.registerWebhook, (req) =>
        RegisterWebhookReply.fromJSON({
          id: 'w-1',
          secret: 'whsec_x',
          orderId: req.orderId,
          txHash: req.txHash,
          url: req.url,
          status: 'PENDING',
          createdAt: new Date().toISOString(),
        }),
      ),
    ];
    gw = await GatewayHarness.start({
      infra: { databaseUrl: createTestDatabaseUrl('gw_auth'), redisUrl: INFRA.redis, natsUrl: nats.url },
      // Stand-ins for token-data's answers: the gateway's transform and headers are what is tested.
      options: {
        // the matrix sends ~100 invalid keys from one address: the failed-auth throttle has tests of its own (client-limits.int-spec.ts)
        failedAuthLimit: 100_000,
        served: {
          listTokens: async () => ({ totalItems: 1, pageItems: 1, more: false, page: 0, tokens: [TOKEN] }),
          account: async () => ({ totalQueried: 1, balances: [BALANCE] }),
          // the SSE stream answers JSON here: the matrix reads every body as JSON (the stream itself: sse/status-stream.int-spec.ts)
          crossChainStatusStream: (async () => ({ standIn: 'stream' })) as unknown as ServedTable['crossChainStatusStream'],
        },
      },
    });
    const revoked = await gw.issue('free');
    await gw.keys.revoke(revoked.record.id);
    const free = (await gw.issue('free')).key;
    const paid = (await gw.issue('paid')).key;
    Object.assign(keys, {
      none: undefined,
      garbage: 'hello world',
      unknown: `tsk_live_${'x'.repeat(32)}`,
      revoked: revoked.key,
      expired: (await gw.issue('paid', { expiresAt: new Date(Date.now() - 60_000) })).key,
      free,
      'free-bare': free,
      paid,
      'paid-bare': paid,
      enterprise: (await gw.issue('enterprise')).key,
    });
  });

  afterAll(async () => {
    await gw?.close();
    await Promise.all(responders.map((r) => r.close()));
    await nats?.dispose();
  });

  it('answers every endpoint x credential as its access class says, with a message and the limit headers', async () => {
    const failures: string[] = [];
    let checked = 0;
    for (const { id, def } of endpointList()) {
      const sample = SAMPLE[id];
      for (const c of CREDENTIALS) {
        const res = await gw.request(`${def.path}?${sample.query}`, {
          method: sample.method,
          key: keys[c],
          form: c.endsWith('-bare') ? 'bare' : 'bearer',
        });
        const body = (await res.json()) as { statusCode?: number; message?: string; code?: string };
        const want = expectedStatus(def.access, id, c);
        const where = `${sample.method ?? 'GET'} ${def.path} [${c}]`;
        if (res.status !== want) failures.push(`${where}: ${res.status} (want ${want}) ${JSON.stringify(body).slice(0, 160)}`);
        if (
          res.status >= 400 &&
          (body.statusCode !== res.status || !body.message || !(ERROR_CODES as readonly unknown[]).includes(body.code))
        )
          failures.push(`${where}: error body without statusCode/message/code`);
        if (res.status === 403 && body.message !== PLAN_FORBIDS) failures.push(`${where}: 403 message "${body.message}"`);
        // Limited routes carry the headers on every answer that has a caller (all but 401).
        const limited = def.access !== 'public' && res.status !== 401;
        if (limited !== res.headers.has('ratelimit-limit') || limited !== res.headers.has('ratelimit-policy'))
          failures.push(`${where}: rate headers ${limited ? 'missing' : 'unexpected'}`);
        if (!res.headers.get('x-request-id')) failures.push(`${where}: no x-request-id`);
        checked += 1;
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBe(endpointList().length * CREDENTIALS.length);
  });

  it('accepts "bearer" in any case and surrounding spaces', async () => {
    for (const header of [`bearer ${keys.paid}`, `BEARER   ${keys.paid}`, `  ${keys.paid}  `]) {
      const res = await gw.request('/v1/networks', { headers: { authorization: header } });
      expect(res.status).toBe(200);
    }
  });

  it('names the reason on 401: missing, unknown, revoked, expired', async () => {
    const message = async (key?: string): Promise<string> =>
      ((await (await gw.request('/v1/networks', { key })).json()) as { message: string }).message;
    expect(await message()).toMatch(/API key required/);
    expect(await message(keys.unknown)).toMatch(/invalid API key/);
    expect(await message(keys.revoked)).toMatch(/has been revoked/);
    expect(await message(keys.expired)).toMatch(/has expired/);
    // The message shows the display prefix at most, never the key.
    expect(await message(keys.revoked)).not.toContain(keys.revoked!);
  });

  it('removes the paid-only token metrics for free keys and keeps them for paid keys', async () => {
    const metricsOf = async (path: string, key: string, list: 'tokens' | 'balances'): Promise<Record<string, string>> => {
      const res = await gw.request(path, { key });
      expect(res.status).toBe(200);
      const body = (await res.json()) as Record<string, { metrics: Record<string, string>; symbol: string }[]>;
      expect(body[list]![0]!.symbol).toBe('USDC');
      return body[list]![0]!.metrics;
    };
    for (const [path, list] of [
      [`/v2/tokens?${SAMPLE.listTokens.query}`, 'tokens'],
      [`/v2/account?${SAMPLE.account.query}`, 'balances'],
    ] as const) {
      const free = await metricsOf(path, keys.free!, list);
      expect(Object.keys(free).sort()).toEqual([...PUBLIC_METRIC_FIELDS].sort());
      for (const key of [keys.paid!, keys.enterprise!]) {
        const paid = await metricsOf(path, key, list);
        expect(Object.keys(paid).sort()).toEqual([...PUBLIC_METRIC_FIELDS, ...PAID_METRIC_FIELDS].sort());
      }
    }
  });

  it('sends the tier limits in the headers: free 100, paid 500, enterprise 3000 on data; 100 on trading', async () => {
    const policy = async (path: string, key?: string): Promise<string | null> => rateHeaders(await gw.request(path, { key })).policy;
    expect(await policy('/v1/networks', keys.free)).toBe('100;w=60');
    expect(await policy('/v1/networks', keys.paid)).toBe('500;w=60');
    expect(await policy('/v1/networks', keys.enterprise)).toBe('3000;w=60');
    expect(await policy(`/v2/portal/estimate?${SAMPLE.estimate.query}`, keys.paid)).toBe('100;w=60');
    expect(await policy(`/v2/portal/estimate?${SAMPLE.estimate.query}`)).toBe('100;w=60');
  });
});
