/**
 * The console in a real browser (issue 22 item 5): headless Debian Chromium driven by playwright-core
 * against the whole platform as `npm start` runs it -- the five apps and Across's devnet
 * relayer as processes, on PRIVATE devnets (ethereum, base), its own database and a private nats-server --
 * with the console built by esbuild first (tools/console/build.ts).
 *
 *   1. sign in with an API key; the usage view counts a call made from the explorer
 *   2. on the admin listener: create a key (it works), revoke it (refused at once)
 *   3. every network's indexing progress
 *   4. a token page from the explorer: its candles drawn (series count and canvas pixels) up to the latest, holders, activity
 *   5. a cross-chain order followed live over SSE until SUCCESS
 * Every view is checked with axe-core (no serious or critical violation) and photographed into
 * tmp/console-screenshots/. Without Chromium the file fails saying how to install it.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { JsonRpcProvider, Wallet } from 'ethers';
import type { Page } from 'playwright-core';
import { Pool } from 'pg';
import { TEST_ACCOUNTS, manifestToken, networkManifest, startDevnet, type DevnetHandle, type NetworkManifest } from '@tokensvc/devnet';
import { ApiKeysRepository, dropDatabase, migrate } from '@tokensvc/persistence';
import {
  APPS,
  INFRA,
  PrivateNatsServer,
  createTestDatabaseUrl,
  freePort,
  freePortRange,
  startApp,
  startAcrossRelayerProcess,
  stopProcess,
  waitForHttp,
  type AppName,
  type AppProcess,
  type AcrossRelayerProcess,
  type PlatformEnv,
} from '@tokensvc/testing';
import { buildConsole } from '../console/build';
import {
  axeCheck,
  blocking,
  drawnPixels,
  launchConsoleBrowser,
  requireChromium,
  screenshot,
  SCREENSHOT_DIR,
  type AxeFinding,
  type ConsoleBrowser,
} from './console-browser';
import { cleanQueueKeys, sendAsIs } from './console-order';

/** this file's private devnets: beside the shared test devnet's range (TEST_DEVNET_BASE_PORT) */
const DEVNET_BASE_PORT = Number(process.env['TEST_DEVNET_BASE_PORT'] ?? 18545) + 60;
const ADMIN_TOKEN = `console-e2e-${randomBytes(16).toString('hex')}`;

describe('the console in headless Chromium (whole platform + Across relayer on private devnets)', () => {
  const started = Date.now();
  const dbUrl = createTestDatabaseUrl('console_e2e');
  const queuePrefix = `cone2e${randomBytes(3).toString('hex')}`;
  const procs = new Map<AppName, AppProcess>();
  const logs: string[] = [];
  const axe: AxeFinding[] = [];
  const timings: string[] = [];
  let nats: PrivateNatsServer | undefined;
  let devnet: DevnetHandle;
  let eth: NetworkManifest;
  let base: NetworkManifest;
  let db: Pool;
  let relayer: AcrossRelayerProcess | undefined;
  let gateway: string;
  let adminUrl: string;
  let userKey: string;
  let b: ConsoleBrowser | undefined;
  let page: Page;

  const consoleDir = join(__dirname, '..', '..', 'tmp', `console-e2e-${queuePrefix}`);
  const tail = (n = 30): string => logs.slice(-n).join('\n');
  const tokenKey = (n: NetworkManifest, symbol: string): string => `${n.network}:${manifestToken(n, symbol).address.toLowerCase()}`;
  const get = async (path: string, key: string): Promise<{ status: number; body: any }> => {
    const res = await fetch(`${gateway}${path}`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(30_000) });
    return { status: res.status, body: await res.json().catch(() => undefined) };
  };
  /** The token's latest candle of `resolution` from the API: the last entry of the last page of the last two days. */
  const latestCandle = async (id: string, resolution: string): Promise<{ time: string; closePrice: string }> => {
    const from = Math.floor(Date.now() / 1000) - 2 * 86_400;
    for (let p = 0; ; p++) {
      const r = await get(`/v2/tokens/history?id=${encodeURIComponent(id)}&resolution=${resolution}&from=${from}&page=${p}`, userKey);
      expect(r.status).toBe(200);
      if (!r.body.more) return r.body.history.at(-1);
    }
  };
  /** axe on the current view; the screenshot beside it */
  const check = async (name: string): Promise<void> => {
    await screenshot(page, name);
    axe.push(...(await axeCheck(page, name)));
  };

  beforeAll(async () => {
    requireChromium(); // before minutes of set-up: no browser, no test
    const built = await buildConsole({ out: consoleDir });
    timings.push(`console build (tsc + esbuild): ${built.ms} ms`);
    nats = new PrivateNatsServer(await freePort(), { auth: true });
    await nats.start();
    devnet = await startDevnet({ networks: ['ethereum', 'base'], basePort: DEVNET_BASE_PORT, log: () => undefined });
    eth = networkManifest(devnet.manifest, 'ethereum');
    base = networkManifest(devnet.manifest, 'base');
    await migrate(dbUrl);
    db = new Pool({ connectionString: dbUrl, max: 2 });
    userKey = (await new ApiKeysRepository(db).issue({ tier: 'paid', label: 'console e2e user' })).key;
    const healthPortBase = await freePortRange(5);
    const adminPort = await freePort();
    const env: PlatformEnv = {
      databaseUrl: dbUrl,
      natsUrl: nats.url,
      natsPasswords: nats.passwords,
      redisUrl: INFRA.redis,
      rpcUrls: devnet.rpcUrls,
      manifestPath: devnet.manifestPath,
      gatewayPort: await freePort(),
      healthPortBase,
      logLevel: 'warn',
      extraEnv: {
        TRACKER_QUEUE_PREFIX: queuePrefix,
        RELAY_QUEUE_PREFIX: queuePrefix,
        ADMIN_TOKEN,
        ADMIN_PORT: String(adminPort),
        CONSOLE_DIR: built.dir,
        // the indexer's health port (startApp: base + 2)
        INDEXER_STATUS_URL: `http://127.0.0.1:${healthPortBase + 2}/status`,
      },
    };
    gateway = `http://127.0.0.1:${env.gatewayPort}`;
    adminUrl = `http://127.0.0.1:${adminPort}`;
    // The relayer first: its funding mines blocks before any app reads the freshly loaded chain.
    relayer = startAcrossRelayerProcess(env, { mode: 'normal', bundleEverySeconds: 10 }, (line) => logs.push(`[across-relayer] ${line}`));
    await relayer.started.catch((e: unknown) => {
      throw new Error(`${(e as Error).message}\n${tail()}`);
    });
    for (const app of APPS)
      procs.set(
        app,
        startApp(app, env, (name, line) => logs.push(`[${name}] ${line}`)),
      );
    await waitForHttp(`${gateway}/health/ready`, 240_000, (s, body) => s === 200 && !body.includes('"down"')).catch((e: unknown) => {
      throw new Error(`${(e as Error).message}\n${tail()}`);
    });
    // Orders need the quote graph of both networks: wait for an estimate of the pair used below.
    const until = Date.now() + 180_000;
    for (;;) {
      const r = await get(
        `/v2/portal/estimate?inputToken=${tokenKey(eth, 'USDC')}&inputAmount=1000000000&outputToken=${tokenKey(base, 'USDC')}`,
        userKey,
      );
      if (r.status === 200) break;
      if (Date.now() > until) throw new Error(`no estimate within 180 s: ${r.status} ${JSON.stringify(r.body)}\n${tail()}`);
      await new Promise((res) => setTimeout(res, 2000));
    }
    b = await launchConsoleBrowser();
    page = b.page;
    page.setDefaultTimeout(30_000);
    timings.push(`platform and browser ready: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }, 480_000);

  afterAll(async () => {
    await b?.close();
    if (relayer) await stopProcess(relayer);
    await Promise.all([...procs.values()].map((p) => stopProcess(p)));
    await db?.end();
    await nats?.dispose();
    await devnet?.stop();
    await dropDatabase(dbUrl);
    await cleanQueueKeys(INFRA.redis, queuePrefix);
    rmSync(consoleDir, { recursive: true, force: true });
    timings.push(`whole file: ${((Date.now() - started) / 1000).toFixed(1)} s; screenshots and axe reports in ${SCREENSHOT_DIR}`);
    process.stderr.write(`[console browser e2e]\n  ${timings.join('\n  ')}\n`);
  }, 60_000);

  /** the count the usage table shows for one endpoint today (0 when it has no row yet) */
  const todayCount = async (endpoint: string): Promise<number> => {
    await page.locator('#usage-endpoints').waitFor();
    const cell = page.locator(`[data-endpoint="${endpoint}"]`);
    return (await cell.count()) === 0 ? 0 : Number(await cell.getAttribute('data-today'));
  };

  it('1. signs in with an API key; the usage view counts a call made from the token explorer', async () => {
    await page.goto(`${gateway}/console`);
    await page.getByLabel('API key').fill(userKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Usage', level: 1 }).waitFor();
    const before = await todayCount('GET /v2/tokens');
    await page.locator('#rate-windows tbody tr').first().waitFor();
    expect(await page.locator('#quota-text').textContent()).toMatch(/of 150,000 calls this month/);
    await check('1-usage-before');
    await page.getByRole('link', { name: 'Tokens' }).click();
    await page.locator('#tokens-table tbody tr').first().waitFor();
    await page.getByRole('link', { name: 'Usage' }).click();
    expect(await todayCount('GET /v2/tokens')).toBe(before + 1);
    await check('1-usage-after-a-call');
  });

  it('2. on the admin listener: creates a key, which works, then revokes it, which is refused at once', async () => {
    await page.goto(`${adminUrl}/console`);
    await page.getByLabel('Admin token (ADMIN_TOKEN)').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('#keys-table').waitFor();
    await page.getByLabel('Tier').selectOption('free');
    await page.getByLabel('Label').fill('created in the browser');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.locator('#new-key').textContent())!;
    expect(key).toMatch(/^tsk_/);
    expect((await get('/v1/networks', key)).status).toBe(200);
    await check('2-key-created');
    page.once('dialog', (d) => void d.accept());
    await page.locator(`[data-revoke="${key.slice(0, 15)}"]`).click();
    await page.locator(`[data-key-state="${key.slice(0, 15)}"]`, { hasText: 'revoked' }).waitFor();
    expect((await get('/v1/networks', key)).status).toBe(401);
    await check('2-key-revoked');
  });

  it("3. shows each network's indexing progress: head, cursor, lag, ETA", async () => {
    await page.goto(`${gateway}/console#/indexing`);
    const rows = page.locator('#indexing-table tbody tr');
    await rows.first().waitFor();
    const text = (await rows.allTextContents()).join('\n');
    expect(text).toContain('ethereum');
    expect(text).toContain('base');
    await check('3-indexing');
  });

  it('4. opens a token page from the explorer: candles drawn, holders and activity listed', async () => {
    const weth = tokenKey(eth, 'WETH');
    await page.goto(`${gateway}/console#/tokens`);
    await page.getByLabel('Name contains').fill(manifestToken(eth, 'WETH').name ?? 'Wrapped');
    await page.getByLabel('Network').selectOption('ethereum');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.locator(`[data-token="${weth}"]`).click();
    await page.locator('#candles[data-candles]').waitFor();
    const candles = Number(await page.locator('#candles').getAttribute('data-candles'));
    // 1h over 7 days of hourly devnet blocks: more than one page (100) of the API's answer, oldest first
    expect(candles).toBeGreaterThan(100);
    // the chart ends at the latest candle the API has, the price printed above it, not at the end of the first page
    const latest = await latestCandle(weth, '1h');
    expect({
      time: await page.locator('#candles').getAttribute('data-last-time'),
      close: Number(await page.locator('#candles').getAttribute('data-last-close')),
    }).toEqual({
      time: latest.time,
      close: Number(latest.closePrice),
    });
    await page.waitForTimeout(300); // the chart paints on the next animation frame
    expect(await drawnPixels(page, '#candles')).toBeGreaterThan(1000);
    await page.locator('#holders-table tbody tr').first().waitFor();
    await page.getByText('Activity is listed for platform tokens only').waitFor();
    await check('4-token-page');
    // A platform token (the most liquid pool or vault on ethereum): its last day's activity.
    const listed = await get('/v2/tokens?networks=ethereum&sortBy=liquidity&sortDirection=desc&limit=50', userKey);
    const platformToken = (listed.body.tokens as { key: string; platform: string }[]).find(
      (t) => t.platform !== 'basic' && t.platform !== 'native',
    );
    expect(platformToken).toBeDefined();
    await page.goto(`${gateway}/console#/token?id=${encodeURIComponent(platformToken!.key)}`);
    await page.locator('#activity-table').or(page.getByText('No activity in the last 24 hours.')).waitFor();
    await check('4-platform-token-page');
  });

  it('5. follows a cross-chain order live over SSE until SUCCESS', async () => {
    const wallet = new Wallet(
      TEST_ACCOUNTS[0]!.privateKey,
      new JsonRpcProvider(devnet.rpcUrls['ethereum']!, 1, { staticNetwork: true, cacheTimeout: -1 }),
    );
    const { orderId, txHash } = await sendAsIs(
      gateway,
      userKey,
      wallet,
      devnet.rpcUrls['ethereum']!,
      tokenKey(eth, 'USDC'),
      1_000_000_000n,
      tokenKey(base, 'USDC'),
    );
    await page.goto(`${gateway}/console#/order?orderId=${orderId}&txHash=${txHash}`);
    await page.locator('#order-events li').first().waitFor();
    await page.locator('#order-status[data-status="SUCCESS"]').waitFor({ timeout: 120_000 });
    const events = await page.locator('#order-events li').allTextContents();
    timings.push(`5. order events seen by the page: ${events.map((e) => e.split(' · ').slice(1, 3).join(' ')).join(' -> ')}`);
    expect(events[events.length - 1]).toContain('SUCCESS');
    expect(await page.locator('#order-status').textContent()).toContain('(final)');
    await check('5-order-success');
  }, 180_000);

  it('6. no serious or critical accessibility violation on any view, and no page errors', () => {
    expect(blocking(axe)).toEqual([]);
    timings.push(
      `axe: ${axe.length} findings in all, ${blocking(axe).length} serious or critical (${[...new Set(axe.map((f) => `${f.id}:${f.impact}`))].join(', ') || 'none'})`,
    );
    expect(b?.errors ?? []).toEqual([]);
  });
});
