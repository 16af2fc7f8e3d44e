/**
 * The golden check (docs/golden-check.md): a fixed, deterministic list of requests through the
 * gateway of the whole platform, on a devnet built at a fixed time, answers byte for byte what
 * `tools/platform/golden/answers.json` recorded -- calldata included -- except the narrow, named
 * masks of tools/platform/golden.ts (order ids and wall-clock times).
 *
 *   npx jest tools/platform/golden.e2e-spec.ts                   compares; a difference fails with the request and JSON path
 *   GOLDEN_UPDATE=1 npx jest tools/platform/golden.e2e-spec.ts   records the golden file anew
 *
 * The chain: a private devnet (ethereum, arbitrum, base; TEST_DEVNET_BASE_PORT + 50..52) loaded
 * from its own saved build in .devnet/golden/, built with `buildTime` fixed (BUILD_TIME), so every
 * block, timestamp and address is a function of the devnet code and the seed alone. Nothing is sent
 * to it: no block is mined while the requests run, and every data window ("last 24 h") is relative
 * to the indexed head, not the wall clock. The list of requests is derived from the manifest and
 * from answers that are themselves in the golden file (the token lists), in a fixed order.
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Wallet } from 'ethers';
import { Pool } from 'pg';
import { DEFAULT_SEED, TEST_ACCOUNTS, manifestToken, startDevnet, type DevnetHandle, type NetworkManifest } from '@tokensvc/devnet';
import { ApiKeysRepository, dropDatabase, migrate } from '@tokensvc/persistence';
import {
  APPS,
  INFRA,
  PrivateNatsServer,
  createTestDatabaseUrl,
  deleteRedisKeys,
  isolatedQueuesEnv,
  freePort,
  freePortRange,
  hasBinary,
  startApp,
  stopProcess,
  waitForHttp,
  type AppName,
  type AppProcess,
  type PlatformEnv,
} from '@tokensvc/testing';
import { compareGolden, formatGolden, maskAnswer, maskRouteHash, runWindow, type GoldenEntry, type GoldenFile } from './golden';

/** 2026-12-01T00:00:00Z: the devnet build's "now" (its 30 days of history end there). */
const BUILD_TIME = 1_796_083_200;
const ROOT = join(__dirname, '..', '..');
const STATE_DIR = join(ROOT, '.devnet', 'golden');
const GOLDEN_FILE = join(__dirname, 'golden', 'answers.json');
const DEVNET_BASE_PORT = Number(process.env['TEST_DEVNET_BASE_PORT'] ?? 18545) + 50;
const UPDATE = process.env['GOLDEN_UPDATE'] === '1';
const NATIVE = '0x0000000000000000000000000000000000000000';
/** far in the future and fixed: permits signed with it are the same every run */
const PERMIT_DEADLINE = '4102444800';
/** trading calls are limited to 100 a minute per key: a fresh key every this many */
const TRADING_PER_KEY = 80;
const CONCURRENCY = 4;
/** The places a mask may fire (golden.ts); any other place fails the check: a new source of variation to look at. */
const ALLOWED_MASKS = new Set([
  'context.orderId',
  'context.expiry',
  'context.routeHash',
  'context.rawParams.order.deadline',
  'context.rawParams.bridge.fillDeadline',
  'context.steps[]<text>',
  'tx.data<word>',
  'signedOrder.value.nonce',
  'signedOrder.value.deadline',
  'signedOrder.value.routeHash',
  'timestamp',
  'status:orderId',
]);

interface Request {
  kind: string;
  path: string;
  method?: 'GET' | 'POST';
  surface: 'data' | 'trading' | 'open';
}
interface TokenRecord {
  key: string;
  symbol: string;
  decimals: number;
  price: number;
  platform: string;
  network: string;
  address: string;
}

const qs = (params: Record<string, string | number | boolean | undefined>): string =>
  Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');

/** about `usd` dollars of a token in base units, three significant digits (a function of the token list's price) */
function amountFor(t: Pick<TokenRecord, 'price' | 'decimals'>, usd: number): string {
  const whole = usd / (t.price > 0 ? t.price : 1);
  const [mantissa, exponent] = whole.toExponential(2).split('e') as [string, string];
  const digits = BigInt(mantissa.replace('.', ''));
  const exp = Number(exponent) - 2 + t.decimals;
  const v = exp >= 0 ? digits * 10n ** BigInt(exp) : digits / 10n ** BigInt(-exp);
  return (v > 0n ? v : 1n).toString();
}

describe('golden check: a fixed list of requests answers what the golden file recorded (whole platform, private devnet built at a fixed time)', () => {
  const fileStarted = Date.now();
  const dbUrl = createTestDatabaseUrl('golden_e2e');
  const queuePrefix = `golden${randomBytes(3).toString('hex')}`;
  const procs = new Map<AppName, AppProcess>();
  const logs: string[] = [];
  const timings: string[] = [];
  let nats: PrivateNatsServer | undefined;
  let devnet: DevnetHandle;
  let env: PlatformEnv;
  let gateway = '';
  let dataKey = '';
  const tradingKeys: string[] = [];
  let tradingCalls = 0;
  const tail = (n = 40): string => logs.slice(-n).join('\n');

  async function send(r: Request): Promise<{ status: number; body: unknown }> {
    const headers: Record<string, string> = {};
    if (r.surface === 'data') headers['authorization'] = `Bearer ${dataKey}`;
    if (r.surface === 'trading') headers['authorization'] = `Bearer ${tradingKeys[Math.floor(tradingCalls++ / TRADING_PER_KEY)]!}`;
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(`${gateway}${r.path}`, { method: r.method ?? 'GET', headers, signal: AbortSignal.timeout(60_000) });
      const text = await res.text();
      // a 503/504 is the bus or a service being slow (CI on 2 cores), never an answer to record
      if ((res.status === 503 || res.status === 504 || res.status === 429) && attempt < 3) {
        await new Promise((ok) => setTimeout(ok, 1000 * (attempt + 1)));
        continue;
      }
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // kept as text
      }
      return { status: res.status, body };
    }
  }

  async function ok<T>(path: string, surface: Request['surface'] = 'data'): Promise<T> {
    const r = await send({ kind: 'setup', path, surface });
    if (r.status !== 200) throw new Error(`GET ${path} answered ${r.status}: ${JSON.stringify(r.body).slice(0, 500)}\n${tail()}`);
    return r.body as T;
  }

  /** Runs the requests CONCURRENCY at a time; answers in the list's order. */
  async function runAll(list: Request[]): Promise<Array<{ status: number; body: unknown }>> {
    const out: Array<{ status: number; body: unknown }> = new Array(list.length);
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (;;) {
          const i = next++;
          if (i >= list.length) return;
          out[i] = await send(list[i]!);
        }
      }),
    );
    return out;
  }

  beforeAll(async () => {
    if (hasBinary('nats-server')) {
      nats = new PrivateNatsServer(await freePort(), { auth: true });
      await nats.start();
    }
    devnet = await startDevnet({
      basePort: DEVNET_BASE_PORT,
      stateDir: STATE_DIR,
      buildTime: BUILD_TIME,
      log: (l) => logs.push(`[devnet] ${l}`),
    });
    // The block a simulation (eth_call, eth_estimateGas) or a live read (aToken balances) runs in is
    // the pending one, at the wall clock: Aave's interest accrual follows its time, and so does the
    // gas of a zap into a lending position. Each chain's clock is set back to its last block and the
    // pending block pinned 12 s after it (nothing mines it: no transaction is sent).
    for (const n of devnet.manifest.networks) {
      for (const [method, params] of [
        ['anvil_setTime', [n.history.lastTimestamp + 1]],
        ['evm_setNextBlockTimestamp', [n.history.lastTimestamp + 12]],
      ] as const) {
        const res = await fetch(devnet.rpcUrls[n.network]!, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
        });
        const answer = (await res.json()) as { error?: unknown };
        if (answer.error) throw new Error(`${method} on ${n.network}: ${JSON.stringify(answer.error)}`);
      }
    }
    timings.push(`devnet ready: ${((Date.now() - fileStarted) / 1000).toFixed(1)} s`);
    await migrate(dbUrl);
    const pool = new Pool({ connectionString: dbUrl, max: 1 });
    const repo = new ApiKeysRepository(pool);
    // enterprise: the paid data and a data rate (3,000 a minute) the whole list fits in
    dataKey = (await repo.issue({ tier: 'enterprise', label: 'golden data', rateLimitPerMinute: 3000 })).key;
    for (let i = 0; i < 40; i++) tradingKeys.push((await repo.issue({ tier: 'paid', label: `golden trading ${i}` })).key);
    await pool.end();
    // quote re-reads token prices (its USD figures) every second, so the wait below is short
    const extraEnv: Record<string, string> = { ...isolatedQueuesEnv(queuePrefix, nats !== undefined), QUOTE_CATALOG_REFRESH_MS: '1000' };
    env = {
      databaseUrl: dbUrl,
      natsUrl: nats?.url ?? INFRA.nats,
      natsPasswords: nats?.passwords,
      redisUrl: INFRA.redis,
      rpcUrls: devnet.rpcUrls,
      manifestPath: devnet.manifestPath,
      gatewayPort: await freePort(),
      healthPortBase: await freePortRange(5),
      natsRequestTimeoutMs: 20_000,
      logLevel: 'warn',
      extraEnv,
    };
    gateway = `http://127.0.0.1:${env.gatewayPort}`;
    for (const app of APPS)
      procs.set(
        app,
        startApp(app, env, (name, line) => logs.push(`[${name}] ${line}`)),
      );
    await waitForHttp(`${gateway}/health/ready`, 240_000, (s, body) => s === 200 && !body.includes('"down"')).catch((e: unknown) => {
      throw new Error(`${(e as Error).message}\n${tail()}`);
    });
    // The indexer has caught up with every chain's head (nothing mines meanwhile) ...
    const statusUrl = `http://127.0.0.1:${env.healthPortBase! + 2}/status`;
    const until = Date.now() + 240_000;
    let cursors = new Map<string, string>();
    for (;;) {
      const s = await fetch(statusUrl, { signal: AbortSignal.timeout(2000) })
        .then(
          (r) =>
            r.json() as Promise<{ networks: Array<{ network: string; caughtUp: boolean; cursor: number | null; head: number | null }> }>,
        )
        .catch(() => ({ networks: [] }));
      if (
        s.networks.length === devnet.manifest.networks.length &&
        s.networks.every((n) => n.caughtUp && n.cursor !== null && n.cursor === n.head)
      ) {
        cursors = new Map(s.networks.map((n) => [n.network, String(n.cursor)]));
        break;
      }
      if (Date.now() > until) throw new Error(`indexer not caught up within 240 s: ${JSON.stringify(s)}\n${tail()}`);
      await new Promise((r) => setTimeout(r, 1000));
    }
    // ... and the quote service's graph of every network is at that head (its JetStream events
    // applied), and so are the token prices its USD figures use (read on a timer, not with the
    // graph's events: a read made while the indexer was catching up values at an older price).
    for (const net of devnet.manifest.networks) {
      const usdc = `${net.network}:${manifestToken(net, 'USDC').address.toLowerCase()}`;
      const native = `${net.network}:${NATIVE}`;
      for (;;) {
        const r = await send({
          kind: 'setup',
          surface: 'trading',
          path: `/v2/portal/estimate?${qs({ inputToken: usdc, inputAmount: '1000000000', outputToken: native })}`,
        });
        const context = (
          r.body as {
            context?: { pinnedBlocks?: Array<{ network: string; blockNumber: string }>; outputAmount?: string; outputAmountUsd?: number };
          }
        ).context;
        const pinned = context?.pinnedBlocks ?? [];
        const listed = await send({ kind: 'setup', surface: 'data', path: `/v2/tokens?${qs({ ids: native })}` });
        const price = Number((listed.body as { tokens?: Array<{ price?: number | string }> }).tokens?.[0]?.price ?? NaN);
        const valuedAtHead =
          Math.abs((Number(context?.outputAmount ?? NaN) / 1e18) * price - Number(context?.outputAmountUsd ?? NaN)) < 1e-4;
        if (r.status === 200 && pinned.some((p) => p.network === net.network && p.blockNumber === cursors.get(net.network)) && valuedAtHead)
          break;
        if (Date.now() > until)
          throw new Error(
            `quote graph of ${net.network} not at block ${cursors.get(net.network)}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}\n${tail()}`,
          );
        await new Promise((res) => setTimeout(res, 1000));
      }
    }
    timings.push(`platform ready and caught up: ${((Date.now() - fileStarted) / 1000).toFixed(1)} s`);
  }, 900_000);

  afterAll(async () => {
    await Promise.all([...procs.values()].map((p) => stopProcess(p)));
    await nats?.dispose();
    await devnet?.stop();
    await dropDatabase(dbUrl);
    await deleteRedisKeys(INFRA.redis, queuePrefix);
    process.stderr.write(`[golden] ${timings.join('; ')}\n`);
  }, 120_000);

  it('answers every request of the list as the golden file recorded (GOLDEN_UPDATE=1 records it)', async () => {
    const started = Date.now();
    const entries: GoldenEntry[] = [];
    const fired = new Set<string>();
    const record = async (list: Request[]): Promise<Array<{ status: number; body: unknown }>> => {
      const answers = await runAll(list);
      list.forEach((r, i) => {
        const a = answers[i]!;
        entries.push({ kind: r.kind, method: r.method ?? 'GET', path: r.path, status: a.status, body: a.body });
      });
      return answers;
    };
    const networks = devnet.manifest.networks;
    const sender = TEST_ACCOUNTS[0]!;
    const wallet = new Wallet(sender.privateKey);
    const who = sender.address.toLowerCase();

    // ---- catalogue ----
    const platforms = await ok<Array<{ platform: string; network: string }>>('/v2/platforms');
    await record([
      { kind: 'health', path: '/health', surface: 'open' },
      { kind: 'networks', path: '/v1/networks', surface: 'data' },
      { kind: 'platforms', path: '/v2/platforms', surface: 'data' },
      ...['dex', 'lending', 'vault', 'native', 'basic'].map((type): Request => ({
        kind: 'platforms',
        path: `/v2/platforms?type=${type}`,
        surface: 'data',
      })),
    ]);

    // ---- token lists: every token of every network (the enumeration the rest is built from) ----
    const byNetwork = new Map<string, TokenRecord[]>();
    const listed = await record(
      networks.map((n): Request => ({
        kind: 'tokens.list',
        path: `/v2/tokens?${qs({ networks: n.network, limit: 250 })}`,
        surface: 'data',
      })),
    );
    networks.forEach((n, i) => byNetwork.set(n.network, (listed[i]!.body as { tokens: TokenRecord[] }).tokens));
    const allTokens = [...byNetwork.values()].flat();
    const sorts = [
      'key',
      'decimals',
      'name',
      'symbol',
      'updatedAt',
      'price',
      'liquidity',
      'platform',
      'network',
      'apy',
      'volumeUsd1d',
      'volumeUsd7d',
      'createdAt',
      'verifiedAt',
    ];
    const slugs = [...new Set(platforms.map((p) => p.platform))].sort();
    await record([
      { kind: 'tokens.list', path: '/v2/tokens', surface: 'data' },
      { kind: 'tokens.list', path: `/v2/tokens?${qs({ limit: 250 })}`, surface: 'data' },
      ...[0, 1, 2, 50].map((page): Request => ({ kind: 'tokens.list', path: `/v2/tokens?${qs({ limit: 7, page })}`, surface: 'data' })),
      ...sorts.flatMap((sortBy) =>
        ['asc', 'desc'].map((sortDirection): Request => ({
          kind: 'tokens.list',
          path: `/v2/tokens?${qs({ sortBy, sortDirection, limit: 5 })}`,
          surface: 'data',
        })),
      ),
      ...slugs.map((platforms): Request => ({ kind: 'tokens.list', path: `/v2/tokens?${qs({ platforms, limit: 5 })}`, surface: 'data' })),
      ...[
        { search: 'USD' },
        { search: 'Wrapped' },
        { minLiquidity: 1_000_000 },
        { maxLiquidity: 100_000 },
        { minLiquidity: 10_000, maxLiquidity: 5_000_000, sortBy: 'liquidity' },
        { minApy: 1 },
        { minApy: 0.5, maxApy: 4, sortBy: 'apy', sortDirection: 'desc' },
        { isVerified: true },
        { isVerified: false },
        { isPortable: true },
        { isPortable: false },
        { tags: 'stablecoin' },
        { networks: 'base', platforms: 'uniswap-v2', sortBy: 'volumeUsd7d', sortDirection: 'desc' },
        { finality: 'finalized', networks: 'ethereum' },
        {
          ids: allTokens
            .filter((_t, i) => i % 9 === 0)
            .map((t) => t.key)
            .join(','),
        },
      ].map((p): Request => ({ kind: 'tokens.list', path: `/v2/tokens?${qs({ limit: 5, ...p })}`, surface: 'data' })),
    ]);

    // representatives: the first token of each platform of a network, and USDC and WETH (the deeper variants run on these only, to keep the file small)
    const representatives = new Set<string>();
    for (const n of networks) {
      const seenPlatforms = new Set<string>();
      for (const t of byNetwork.get(n.network)!) {
        if (!seenPlatforms.has(t.platform)) representatives.add(t.key);
        seenPlatforms.add(t.platform);
        if (t.platform === 'basic' && (t.symbol === 'USDC' || t.address === n.weth.toLowerCase())) representatives.add(t.key);
      }
    }
    // ---- every data endpoint over every token ----
    const perToken: Request[] = [];
    for (const t of allTokens) {
      const id = t.key;
      perToken.push(
        { kind: 'tokens.byId', path: `/v2/tokens?${qs({ ids: id })}`, surface: 'data' },
        { kind: 'tokens.history', path: `/v2/tokens/history?${qs({ id })}`, surface: 'data' },
        { kind: 'tokens.history', path: `/v2/tokens/history?${qs({ id, resolution: '4h' })}`, surface: 'data' },
        { kind: 'tokens.transactions', path: `/v3/tokens/transactions?${qs({ id, limit: 50 })}`, surface: 'data' },
        { kind: 'tokens.metrics', path: `/v3/tokens/metrics?${qs({ id })}`, surface: 'data' },
        { kind: 'tokens.holders', path: `/v2/tokens/holders?${qs({ id })}`, surface: 'data' },
      );
      if (t.network === 'ethereum' && representatives.has(t.key)) {
        perToken.push(
          ...['15m', '30m', '1h'].map((resolution): Request => ({
            kind: 'tokens.history',
            path: `/v2/tokens/history?${qs({ id, resolution })}`,
            surface: 'data',
          })),
          { kind: 'tokens.history', path: `/v2/tokens/history?${qs({ id, resolution: '1h', finality: 'finalized' })}`, surface: 'data' },
          { kind: 'tokens.holders', path: `/v2/tokens/holders?${qs({ id, limit: 100, page: 1 })}`, surface: 'data' },
          { kind: 'tokens.holders', path: `/v2/tokens/holders?${qs({ id, finality: 'finalized' })}`, surface: 'data' },
        );
      }
    }
    const perTokenAnswers = await record(perToken);
    // the second page of each activity feed that has one (its cursor is in the golden file)
    const nextPages: Request[] = [];
    perToken.forEach((r, i) => {
      const body = perTokenAnswers[i]!.body as { pageInfo?: { hasNextPage: boolean; endCursor: string | null } };
      if (r.kind === 'tokens.transactions' && body.pageInfo?.hasNextPage && body.pageInfo.endCursor)
        nextPages.push({ kind: 'tokens.transactions', path: `${r.path}&${qs({ cursor: body.pageInfo.endCursor })}`, surface: 'data' });
    });
    await record(nextPages);

    // ---- balances of seeded accounts ----
    const owners = new Set<string>(TEST_ACCOUNTS.slice(0, 2).map((a) => a.address.toLowerCase()));
    for (const n of networks) {
      owners.add(n.deployer.toLowerCase());
      owners.add(n.accounts.relayer.address.toLowerCase());
      for (const a of [
        ...n.accounts.traders.slice(0, 1),
        ...n.accounts.liquidityProviders.slice(0, 1),
        ...n.accounts.arbitrageurs.slice(0, 1),
      ])
        owners.add(a.toLowerCase());
    }
    const allNets = networks.map((n) => `networks=${n.network}`).join('&');
    await record([
      ...[...owners].map((owner): Request => ({ kind: 'account', path: `/v2/account?owner=${owner}&${allNets}`, surface: 'data' })),
      ...networks.map((n): Request => ({
        kind: 'account',
        path: `/v2/account?${qs({ owner: who, networks: n.network })}`,
        surface: 'data',
      })),
    ]);

    // ---- trading, per network ----
    const trading: Request[] = [];
    const permitOrders: Array<{ network: string; input: TokenRecord; output: TokenRecord; amount: string }> = [];
    const est = (input: string, amount: string, output: string, extra: Record<string, string | boolean> = {}): Request => ({
      kind: 'estimate',
      surface: 'trading',
      path: `/v2/portal/estimate?${qs({ inputToken: input, inputAmount: amount, outputToken: output, ...extra })}`,
    });
    const order = (kind: string, input: string, amount: string, output: string, extra: Record<string, string | boolean> = {}): Request => ({
      kind,
      surface: 'trading',
      path: `/v2/portal?${qs({ sender: who, inputToken: input, inputAmount: amount, outputToken: output, slippageTolerancePercentage: 1, ...extra })}`,
    });
    for (const n of networks) {
      const tokens = byNetwork.get(n.network)!;
      const basics = tokens.filter((t) => t.platform === 'basic' || t.platform === 'native');
      const composed = tokens.filter((t) => t.platform !== 'basic' && t.platform !== 'native');
      const sym = (s: string): TokenRecord =>
        basics.find((t) => t.symbol === s) ??
        (() => {
          throw new Error(`no ${s} on ${n.network}`);
        })();
      const usdc = sym('USDC');
      const native = basics.find((t) => t.address === NATIVE)!;
      const weth = basics.find((t) => t.address === n.weth.toLowerCase())!;
      const erc20s = basics.filter((t) => t.address !== NATIVE);
      // swaps: every ordered pair of basic tokens (native included), about $1,000; $1M from and to USDC (deeper routes, splits)
      for (const a of basics) for (const b of basics) if (a !== b) trading.push(est(a.key, amountFor(a, 1000), b.key));
      for (const b of basics)
        if (b !== usdc) trading.push(est(usdc.key, amountFor(usdc, 1_000_000), b.key), est(b.key, amountFor(b, 1_000_000), usdc.key));
      // how the route was chosen (V2 and V3 pools, splits)
      for (const [a, b] of [
        [usdc, weth],
        [weth, sym('WBTC')],
        [sym('LINK'), sym('UNI')],
        [native, sym('DAI')],
      ] as const) {
        for (const usd of [1000, 1_000_000])
          trading.push(
            est(a.key, amountFor(a, usd), b.key, { explain: true }),
            order('order.swap', a.key, amountFor(a, usd), b.key, { validate: false, explain: true }),
          );
      }
      // orders: ERC-20 -> ERC-20 (signed-order typed data included), native in (validated: the sender holds ETH), native out
      for (const b of basics) {
        if (b === usdc) continue;
        trading.push(order('order.swap', usdc.key, amountFor(usdc, 1000), b.key, { validate: false }));
        trading.push(order('order.swap', b.key, amountFor(b, 1000), usdc.key, { validate: b === native }));
      }
      for (const b of erc20s) {
        trading.push(order('order.nativeIn', native.key, amountFor(native, 1000), b.key));
        trading.push(order('order.nativeOut', b.key, amountFor(b, 1000), native.key, { validate: false }));
      }
      // a partner fee, auto slippage, and validate=true without an approval (the 400 that names it)
      trading.push(
        order('order.swap', usdc.key, amountFor(usdc, 5000), weth.key, {
          validate: false,
          partner: `0x${'ab'.repeat(20)}`,
          feePercentage: '0.5',
        }),
        {
          kind: 'order.swap',
          surface: 'trading',
          path: `/v2/portal?${qs({ sender: who, inputToken: native.key, inputAmount: amountFor(native, 1000), outputToken: usdc.key })}`,
        },
        order('order.swap', usdc.key, amountFor(usdc, 1000), weth.key),
      );
      // approvals (and permits) for every ERC-20 input and every composed token going out
      for (const t of [...erc20s, ...composed]) {
        const out = t === usdc ? weth : usdc;
        trading.push({
          kind: 'approval',
          surface: 'trading',
          path: `/v2/approval?${qs({ sender: who, inputToken: t.key, inputAmount: amountFor(t, 1000), outputToken: out.key })}`,
        });
      }
      trading.push({
        kind: 'approval',
        surface: 'trading',
        path: `/v2/approval?${qs({ sender: who, inputToken: usdc.key, inputAmount: amountFor(usdc, 1000) })}`,
      });
      for (const t of n.network === 'ethereum' ? erc20s : [usdc])
        permitOrders.push({ network: n.network, input: t, output: t === usdc ? weth : usdc, amount: amountFor(t, 1000) });
      // zaps into and out of every composed token (V2 LP shares, ERC-4626 vault shares, Aave aTokens)
      for (const c of composed) {
        trading.push(
          est(usdc.key, amountFor(usdc, 1000), c.key),
          est(native.key, amountFor(native, 1000), c.key),
          est(c.key, amountFor(c, 1000), usdc.key),
          est(c.key, amountFor(c, 1000), native.key),
          order('zap.in', usdc.key, amountFor(usdc, 1000), c.key, { validate: false }),
          order('zap.in', native.key, amountFor(native, 1000), c.key),
          order('zap.out', c.key, amountFor(c, 1000), usdc.key, { validate: false }),
        );
        if (representatives.has(c.key)) trading.push(order('zap.out', c.key, amountFor(c, 1000), native.key, { validate: false }));
      }
      // multi-input: two ERC-20s, and native with an ERC-20, into each composed token and into WETH
      const dai = sym('DAI');
      for (const c of [...composed, weth]) {
        const inputs = [usdc, dai];
        trading.push({
          kind: 'multi.estimate',
          surface: 'trading',
          path: `/v2/portal/multi/estimate?${qs({ inputTokens: inputs.map((t) => t.key).join(','), inputAmounts: inputs.map((t) => amountFor(t, 500)).join(','), outputToken: c.key })}`,
        });
        if (representatives.has(c.key) || c === weth)
          trading.push({
            kind: 'multi.order',
            surface: 'trading',
            path: `/v2/portal/multi?${qs({ sender: who, inputTokens: [native.key, usdc.key].join(','), inputAmounts: [amountFor(native, 500), amountFor(usdc, 500)].join(','), outputToken: c.key, slippageTolerancePercentage: 1, validate: false })}`,
          });
      }
    }
    // cross-chain (Across): every ordered pair of networks, swaps and zaps on the far side
    for (const from of networks) {
      for (const to of networks) {
        if (from === to) continue;
        const a = byNetwork.get(from.network)!;
        const b = byNetwork.get(to.network)!;
        const usdcA = a.find((t) => t.symbol === 'USDC' && t.platform === 'basic')!;
        const usdcB = b.find((t) => t.symbol === 'USDC' && t.platform === 'basic')!;
        const nativeA = a.find((t) => t.address === NATIVE)!;
        const firstOf = (p: (t: TokenRecord) => boolean): TokenRecord | undefined => b.find(p);
        // WETH out (Across would pay an EOA native: the MulticallHandler passes the WETH on), asked once
        const wethOut = from === networks[0] && to === networks[1] ? [b.find((t) => t.address === to.weth.toLowerCase())!] : [];
        const outs = [
          usdcB,
          b.find((t) => t.address === NATIVE)!,
          ...wethOut,
          firstOf((t) => t.platform === 'erc4626-vaults'),
          firstOf((t) => t.platform === 'uniswap-v2'),
          firstOf((t) => t.platform === 'aave-v3'),
        ].filter((t): t is TokenRecord => t !== undefined);
        for (const out of outs) {
          for (const input of [usdcA, nativeA]) {
            trading.push(
              est(input.key, amountFor(input, 1000), out.key),
              order('crossChain.order', input.key, amountFor(input, 1000), out.key),
            );
          }
        }
        trading.push(
          {
            kind: 'approval',
            surface: 'trading',
            path: `/v2/approval/cross-chain?${qs({ sender: who, inputToken: usdcA.key, inputAmount: amountFor(usdcA, 1000), outputToken: usdcB.key })}`,
          },
          {
            kind: 'approval',
            surface: 'trading',
            path: `/v2/approval?${qs({ sender: who, inputToken: usdcA.key, inputAmount: amountFor(usdcA, 1000), outputToken: usdcB.key })}`,
          },
          est(usdcA.key, '1', usdcB.key),
        );
      }
    }
    const tradingAnswers = await record(trading);

    // ---- permits: the approval's typed data signed by the sender (deterministic signatures), then the permit order, validated ----
    const approvals = permitOrders.map((p): Request => ({
      kind: 'approval',
      surface: 'trading',
      path: `/v2/approval?${qs({ sender: who, inputToken: p.input.key, inputAmount: p.amount, outputToken: p.output.key, permitDeadline: PERMIT_DEADLINE })}`,
    }));
    const approvalAnswers = await record(approvals);
    const permitted: Request[] = [];
    for (const [i, p] of permitOrders.entries()) {
      const permit = (
        approvalAnswers[i]!.body as {
          permit?: {
            domain: Record<string, unknown>;
            types: Record<string, Array<{ name: string; type: string }>>;
            value: Record<string, unknown>;
          };
        }
      ).permit;
      if (!permit) continue;
      const { EIP712Domain: _domain, ...types } = permit.types;
      const signature = await wallet.signTypedData(permit.domain, types, permit.value);
      permitted.push(
        order('order.permit', p.input.key, p.amount, p.output.key, { permitSignature: signature, permitDeadline: PERMIT_DEADLINE }),
      );
    }
    await record(permitted);

    // ---- stored orders: GET /v2/portal/status of the first swap of each network; unknown orders ----
    const stored: Request[] = [];
    const storedFrom = new Map<string, string>();
    trading.forEach((r, i) => {
      const a = tradingAnswers[i]!;
      const id = (a.body as { context?: { orderId?: string } }).context?.orderId;
      const network = decodeURIComponent(/inputToken=([^&]+)/.exec(r.path)?.[1] ?? '').split(':')[0]!;
      if (r.kind === 'order.swap' && a.status === 200 && id && !storedFrom.has(network)) {
        const path = `/v2/portal/status?orderId=${id}`;
        storedFrom.set(network, path);
        // the golden file names the order by the network of its quote (the id is fresh each run)
        stored.push({ kind: 'order.status', surface: 'trading', path });
      }
    });
    await record(stored);
    await record([
      { kind: 'order.status', surface: 'trading', path: '/v2/portal/status?orderId=0b1c8a2e-0000-4000-8000-000000000000' },
      {
        kind: 'crossChain.status',
        surface: 'trading',
        path: `/v3/portal/status?${qs({ orderId: '0b1c8a2e-0000-4000-8000-000000000000', txHash: `0x${'12'.repeat(32)}` })}`,
      },
    ]);
    const ended = Date.now();

    // ---- mask (golden.ts), then compare or record ----
    const window = runWindow(started, ended);
    const masked: GoldenEntry[] = entries.map((e) => {
      const body = maskRouteHash(maskAnswer(e.body, window, fired), fired);
      let path = e.path;
      const storedOf = [...storedFrom].find(([, p]) => p === e.path)?.[0];
      if (storedOf !== undefined) {
        // the stored order's id is in the request itself
        path = e.path.replace(/orderId=[0-9a-f-]{36}/, `orderId=<orderId of the first swap on ${storedOf}>`);
        fired.add('status:orderId');
      }
      return { ...e, path, body };
    });
    // GOLDEN_RAW=<file>: the answers before masking, to look at what varies
    if (process.env['GOLDEN_RAW']) writeFileSync(process.env['GOLDEN_RAW'], entries.map((e) => JSON.stringify(e)).join('\n'));
    const actual: GoldenFile = {
      devnet: { buildTime: BUILD_TIME, seed: DEFAULT_SEED, networks: networks.map((n: NetworkManifest) => n.network) },
      entries: masked,
    };
    const counts = new Map<string, number>();
    for (const e of masked) counts.set(e.kind, (counts.get(e.kind) ?? 0) + 1);
    const text = formatGolden(actual);
    timings.push(
      `${masked.length} requests in ${((ended - started) / 1000).toFixed(1)} s (${[...counts].map(([k, c]) => `${k} ${c}`).join(', ')}); golden ${(Buffer.byteLength(text) / 1e6).toFixed(2)} MB; masks fired at ${[...fired].sort().join(', ')}`,
    );
    const unexpected = [...fired].filter((p) => !ALLOWED_MASKS.has(p));
    expect({ unexpectedMasks: unexpected }).toEqual({ unexpectedMasks: [] });
    if (UPDATE || !existsSync(GOLDEN_FILE)) {
      if (!UPDATE) throw new Error(`no golden file at ${GOLDEN_FILE}: record it with GOLDEN_UPDATE=1`);
      mkdirSync(join(__dirname, 'golden'), { recursive: true });
      writeFileSync(GOLDEN_FILE, text);
      return;
    }
    const golden = JSON.parse(readFileSync(GOLDEN_FILE, 'utf8')) as GoldenFile;
    const report = compareGolden(golden, actual);
    if (report)
      throw new Error(
        `${report}\n\nIf the change is intended, explain it and re-record: GOLDEN_UPDATE=1 npx jest tools/platform/golden.e2e-spec.ts (docs/golden-check.md)`,
      );
  }, 600_000);
});
