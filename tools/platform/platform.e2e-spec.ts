/**
 * The five apps as real processes over real NATS, Postgres, Redis and the test devnet:
 * the spec's catalogue endpoints end to end through the gateway, the 503 answers when
 * token-data or the bus goes away (within the request timeout), recovery, and graceful stop.
 */
import { readFileSync } from 'node:fs';
import { Wallet } from 'ethers';
import { Pool } from 'pg';
import { ApiKeysRepository, dropDatabase, migrate } from '@tokensvc/persistence';
import {
  APPS,
  createTestDatabaseUrl,
  freePort,
  freePortRange,
  hasBinary,
  INFRA,
  PrivateNatsServer,
  startApp,
  stopProcess,
  testDevnet,
  waitForHttp,
  type AppName,
  type AppProcess,
  type PlatformEnv,
} from '@tokensvc/testing';

const TIMEOUT_MS = 1500;

describe('platform end to end (five apps over NATS)', () => {
  const dbUrl = createTestDatabaseUrl('platform');
  let nats: PrivateNatsServer | undefined;
  let env: PlatformEnv;
  let base: string;
  const procs = new Map<AppName, AppProcess>();
  const logs: string[] = [];
  // Data endpoints need an API key (issue 5): one paid key, issued straight into the database.
  let apiKey = '';

  const start = (app: AppName): AppProcess => {
    const p = startApp(app, env, (name, line) => logs.push(`[${name}] ${line}`));
    procs.set(app, p);
    return p;
  };
  const get = async (path: string): Promise<{ status: number; body: any; headers: Headers; ms: number }> => {
    const t = Date.now();
    const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${apiKey}` }, signal: AbortSignal.timeout(10_000) });
    return { status: res.status, body: await res.json(), headers: res.headers, ms: Date.now() - t };
  };

  beforeAll(async () => {
    // A private nats-server lets the test stop the bus; without the binary the shared one is used.
    // It runs the production bus permissions: every app connects as its own NATS user.
    if (hasBinary('nats-server')) {
      nats = new PrivateNatsServer(await freePort(), { auth: true });
      await nats.start();
    }
    await migrate(dbUrl);
    const pool = new Pool({ connectionString: dbUrl, max: 1 });
    apiKey = (await new ApiKeysRepository(pool).issue({ tier: 'paid', label: 'platform e2e' })).key;
    await pool.end();
    const devnet = testDevnet();
    env = {
      databaseUrl: dbUrl,
      natsUrl: nats?.url ?? INFRA.nats,
      natsPasswords: nats?.passwords,
      redisUrl: INFRA.redis,
      rpcUrls: devnet.rpcUrls,
      manifestPath: devnet.manifestPath,
      gatewayPort: await freePort(),
      healthPortBase: await freePortRange(5),
      natsRequestTimeoutMs: TIMEOUT_MS,
      logLevel: 'warn',
    };
    base = `http://127.0.0.1:${env.gatewayPort}`;
    for (const app of APPS) start(app);
    await waitForHttp(`${base}/health/ready`, 180_000, (s, body) => s === 200 && !body.includes('"down"'));
  }, 240_000);

  afterAll(async () => {
    await Promise.all([...procs.values()].map((p) => stopProcess(p)));
    await nats?.dispose();
    await dropDatabase(dbUrl);
  });

  it('GET /health answers 200 {status, timestamp} without a key', async () => {
    const r = await get('/health');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['status', 'timestamp']);
    expect(new Date(r.body.timestamp).toISOString()).toBe(r.body.timestamp);
    expect(r.headers.get('x-request-id')).toBeTruthy();
  });

  it('readiness reports NATS, Postgres, Redis and every service', async () => {
    const r = await get('/health/ready');
    expect(r.status).toBe(200);
    expect(r.body.checks).toEqual({ nats: 'up', postgres: 'up', redis: 'up' });
    expect(r.body.services).toEqual({ 'token-data': 'up', indexer: 'up', quote: 'up', 'status-tracker': 'up' });
  });

  it('GET /v1/networks lists the devnet networks (gateway -> NATS -> token-data -> Postgres)', async () => {
    const r = await get('/v1/networks');
    expect(r.status).toBe(200);
    expect(r.body).toEqual(['ethereum', 'base', 'arbitrum']);
  });

  it('GET /v2/platforms returns Platform records, with both V2-family platforms on every network', async () => {
    const r = await get('/v2/platforms');
    expect(r.status).toBe(200);
    for (const p of r.body) expect(Object.keys(p).sort()).toEqual(['image', 'name', 'network', 'platform']);
    const slugs = (n: string): string[] =>
      r.body.filter((p: { network: string }) => p.network === n).map((p: { platform: string }) => p.platform);
    for (const n of ['ethereum', 'arbitrum', 'base']) {
      expect(slugs(n)).toEqual(expect.arrayContaining(['native', 'basic', 'uniswap-v2', 'sushiswap']));
    }
    const dex = await get('/v2/platforms?type=dex');
    expect(dex.body.length).toBeGreaterThanOrEqual(6);
    expect(dex.body.every((p: { platform: string }) => !['native', 'basic'].includes(p.platform))).toBe(true);
    const none = await get('/v2/platforms?type=nothing-like-this');
    expect(none).toMatchObject({ status: 200, body: [] });
  });

  it('trading endpoints answer from the quote service, whose graph the indexer feeds (no key needed)', async () => {
    type Net = { network: string; weth: string; tokens: Array<{ symbol: string; address: string }>; contracts: { router: string } };
    const eth = (JSON.parse(readFileSync(testDevnet().manifestPath, 'utf8')) as { networks: Net[] }).networks.find(
      (n) => n.network === 'ethereum',
    )!;
    const usdc = eth.tokens.find((t) => t.symbol === 'USDC')!.address.toLowerCase();
    const path = `/v2/portal/estimate?inputToken=ethereum:${usdc}&inputAmount=1000000000&outputToken=ethereum:${eth.weth.toLowerCase()}`;
    // the quote service learns pools and tokens as the indexer writes and publishes them
    const until = Date.now() + 90_000;
    let r = await fetch(`${base}${path}`);
    while (r.status !== 200 && Date.now() < until) {
      await new Promise((ok) => setTimeout(ok, 2000));
      r = await fetch(`${base}${path}`);
    }
    // A refusal says why, with what the indexer and the quote service logged.
    if (r.status !== 200)
      throw new Error(
        `estimate answered ${r.status}: ${await r.text()}\nindexer and quote log tail:\n${logs
          .filter((l) => /^\[(indexer|quote)\]/.test(l))
          .slice(-40)
          .join('\n')}`,
      );
    const estimate = (await r.json()) as { outputAmount: string; minOutputAmount: string };
    // 1,000 USDC at the devnet's ~3,000 USD per ETH
    const weth = Number(BigInt(estimate.outputAmount)) / 1e18;
    expect(weth).toBeGreaterThan(0.25);
    expect(weth).toBeLessThan(0.4);
    expect(BigInt(estimate.minOutputAmount)).toBeLessThanOrEqual(BigInt(estimate.outputAmount));
    const sender = `0x${'11'.repeat(20)}`;
    const a = await fetch(`${base}/v2/approval?sender=${sender}&inputToken=ethereum:${usdc}&inputAmount=1000000000`);
    expect(a.status).toBe(200);
    const approval = (await a.json()) as { context: { spender: string; shouldApprove: boolean }; approve?: { to: string } };
    expect(approval.context.spender.toLowerCase()).toBe(eth.contracts.router.toLowerCase());
    expect(approval.context.shouldApprove).toBe(true);
    expect(approval.approve?.to.toLowerCase()).toBe(usdc);
  });

  it('stores quotes: GET /v2/portal/status returns the order, POST /v2/portal checks the signature (no chain writes here)', async () => {
    type Net = { network: string; weth: string; tokens: Array<{ symbol: string; address: string }> };
    const eth = (JSON.parse(readFileSync(testDevnet().manifestPath, 'utf8')) as { networks: Net[] }).networks.find(
      (n) => n.network === 'ethereum',
    )!;
    const usdc = eth.tokens.find((t) => t.symbol === 'USDC')!.address.toLowerCase();
    const wallet = Wallet.createRandom();
    const q = await fetch(
      `${base}/v2/portal?sender=${wallet.address}&inputToken=ethereum:${usdc}&inputAmount=1000000000&outputToken=ethereum:${eth.weth.toLowerCase()}&slippageTolerancePercentage=1&validate=false`,
    );
    if (q.status !== 200) throw new Error(`/v2/portal answered ${q.status}: ${await q.text()}`);
    const order = (await q.json()) as {
      context: { orderId: string };
      tx: unknown;
      signedOrder: {
        domain: Record<string, unknown>;
        types: Record<string, Array<{ name: string; type: string }>>;
        value: Record<string, unknown>;
      };
    };
    const status = await fetch(`${base}/v2/portal/status?orderId=${order.context.orderId}`);
    expect(status.status).toBe(200);
    expect(await status.json()).toEqual({ ...order, status: 'quoted', txHashes: [] });
    // Signed by someone other than the sender: refused before anything is sent.
    const stranger = await Wallet.createRandom().signTypedData(order.signedOrder.domain, order.signedOrder.types, order.signedOrder.value);
    const post = await fetch(`${base}/v2/portal?orderId=${order.context.orderId}&signature=${stranger}`, { method: 'POST' });
    expect(post.status).toBe(400);
    expect(await post.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: expect.stringMatching(/^signature does not match the order: it recovers to 0x[0-9a-f]{40}, not the sender/),
      code: 'invalid_parameter',
    });
    const unknown = await fetch(`${base}/v2/portal/status?orderId=0b1c8a2e-0000-4000-8000-000000000000`);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { message: string }).message).toMatch(/not found: it was never quoted/);
  });

  it('answers bad input and unknown routes with {statusCode, error, message}', async () => {
    expect(await get('/v2/platforms?colour=red')).toMatchObject({
      status: 400,
      body: { statusCode: 400, error: 'Bad Request', message: expect.stringContaining('"colour"') },
    });
    expect(await get('/v1/networks?x=1')).toMatchObject({ status: 400, body: { message: expect.stringContaining('takes no parameters') } });
    expect(await get('/v9/nothing')).toMatchObject({
      status: 404,
      body: { statusCode: 404, error: 'Not Found', message: expect.stringContaining('/v9/nothing') },
    });
  });

  it('answers 503 within its timeout while token-data is down, and recovers when it is back', async () => {
    await stopProcess(procs.get('token-data')!);
    const down = await get('/v1/networks');
    expect(down.status).toBe(503);
    expect(down.body.message).toMatch(/token-data service unavailable/);
    expect(down.ms).toBeLessThan(TIMEOUT_MS + 1000);
    start('token-data');
    await waitForHttp(`${base}/health/ready`, 30_000, (s, body) => s === 200 && !body.includes('"down"'));
    // Its ping subject can answer a moment before its data subjects are subscribed (seen on a loaded
    // machine): "recovers" is the first answer within the bound, not the very next request.
    const until = Date.now() + 30_000;
    let back = await get('/v1/networks');
    while (back.status === 503 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 250));
      back = await get('/v1/networks');
    }
    expect(back.body).toEqual(['ethereum', 'base', 'arbitrum']);
  }, 90_000);

  it('answers 503 while NATS itself is down, readiness says so, and everything recovers when it is back', async () => {
    if (!nats) throw new Error('nats-server binary is required for this test (apt-get install nats-server)');
    await nats.stop();
    await new Promise((r) => setTimeout(r, 300));
    const down = await get('/v2/platforms');
    expect(down.status).toBe(503);
    expect(down.ms).toBeLessThan(TIMEOUT_MS + 1000);
    expect(down.body.message).toMatch(/unavailable/);
    // /health/ready is answered from a check at most 2 s old (issue 16: cheap and cached): it says so within that
    await waitForHttp(
      `${base}/health/ready`,
      5_000,
      (s, body) => s === 503 && (JSON.parse(body) as { checks: { nats?: string } }).checks.nats === 'down',
    );
    await nats.start();
    await waitForHttp(`${base}/health/ready`, 30_000, (s, body) => s === 200 && !body.includes('"down"'));
    expect((await get('/v2/platforms')).status).toBe(200);
  }, 60_000);

  it('every app shuts down gracefully on SIGTERM (exit code 0)', async () => {
    const codes = await Promise.all(
      [...procs.values()].map(async (p) => {
        await stopProcess(p, 10_000);
        return [p.name, await p.exited] as const;
      }),
    );
    expect(Object.fromEntries(codes)).toEqual(Object.fromEntries(APPS.map((a) => [a, 0])));
  }, 30_000);
});
