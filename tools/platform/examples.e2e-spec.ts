/**
 * The examples in examples/ run as a person runs them (issue 22 item 2), and the SDK works through
 * the real gateway: the five apps and Across's devnet relayer as processes (as `npm start`
 * runs them) on the shared test devnet, a private nats-server, a fresh wallet funded with anvil.
 *
 * Each example is a child process (`node -r tools/register.js examples/<name>.ts`, configured by
 * env only) that must exit 0, and what it reports is checked on the chains:
 *   first-swap      ETH -> USDC (ethers): the USDC arrived, at least minOutputAmount
 *   (the shared devnet's pools move under other tests' trades: the signed order allows 5% slippage)
 *   zap-into-vault  USDC -> ERC-4626 vault shares (viem): the shares arrived, the USDC left
 *   signed-order    USDC -> WETH signed, relayed (ethers): mined by the relayer, the WETH arrived
 *   cross-chain     USDC on ethereum -> USDC on base (viem), followed over SSE to SUCCESS: paid on base
 * Then the SDK's typed errors, paging and the status stream against the same gateway.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { Interface, JsonRpcProvider, Wallet, parseEther, toBeHex } from 'ethers';
import { Pool } from 'pg';
import { manifestPlatform, manifestToken, networkManifest, type DevnetManifest } from '@tokensvc/devnet';
import { ApiKeysRepository, dropDatabase, migrate } from '@tokensvc/persistence';
import { createTokensvc, tokens, TokensvcError, unwrap, waitForStatus, type Tokensvc } from '@tokensvc/sdk';
import {
  APPS,
  INFRA,
  PrivateNatsServer,
  createTestDatabaseUrl,
  deleteRedisKeys,
  isolatedQueuesEnv,
  eachLine,
  freePort,
  freePortRange,
  hasBinary,
  startApp,
  startAcrossRelayerProcess,
  stopProcess,
  testDevnet,
  waitForHttp,
  type AppName,
  type AppProcess,
  type AcrossRelayerProcess,
  type PlatformEnv,
} from '@tokensvc/testing';

const ROOT = join(__dirname, '..', '..');
const ERC20 = new Interface(['function balanceOf(address) view returns (uint256)']);
const NATIVE = '0x0000000000000000000000000000000000000000';

interface ExampleRun {
  code: number | null;
  result: Record<string, any>;
  output: string;
}

describe('examples/ run against the devnet platform, and the SDK through the real gateway', () => {
  const dbUrl = createTestDatabaseUrl('examples_e2e');
  const queuePrefix = `exe2e${randomBytes(3).toString('hex')}`;
  const devnet = testDevnet();
  const manifest = JSON.parse(readFileSync(devnet.manifestPath, 'utf8')) as DevnetManifest;
  const eth = networkManifest(manifest, 'ethereum');
  const base = networkManifest(manifest, 'base');
  const usdcEth = manifestToken(eth, 'USDC').address.toLowerCase();
  const usdcBase = manifestToken(base, 'USDC').address.toLowerCase();
  const wallet = Wallet.createRandom();
  const logs: string[] = [];
  const procs = new Map<AppName, AppProcess>();
  let nats: PrivateNatsServer | undefined;
  let relayer: AcrossRelayerProcess | undefined;
  let env: PlatformEnv;
  let gateway = '';
  let apiKey = '';
  let freeKey = '';
  let svc: Tokensvc;
  const providers: JsonRpcProvider[] = [];
  const provider = (network: 'ethereum' | 'base'): JsonRpcProvider => {
    const p = new JsonRpcProvider(devnet.rpcUrls[network]!, undefined, { staticNetwork: true, cacheTimeout: -1 });
    providers.push(p);
    return p;
  };
  const tail = (n = 30): string => logs.slice(-n).join('\n');

  async function balance(network: 'ethereum' | 'base', token: string, owner = wallet.address): Promise<bigint> {
    const p = provider(network);
    if (token === NATIVE) return p.getBalance(owner);
    return BigInt(await p.call({ to: token, data: ERC20.encodeFunctionData('balanceOf', [owner]) }));
  }

  /** One example as a child process, configured by env only; its last stdout line is its JSON report. */
  function runExample(name: string, extra: Record<string, string> = {}): Promise<ExampleRun> {
    const child = spawn(process.execPath, ['-r', join(ROOT, 'tools', 'register.js'), join(ROOT, 'examples', `${name}.ts`)], {
      cwd: ROOT,
      env: {
        PATH: process.env['PATH'],
        HOME: process.env['HOME'],
        TOKENSVC_URL: gateway,
        TOKENSVC_API_KEY: apiKey,
        PRIVATE_KEY: wallet.privateKey,
        RPC_URL_ETHEREUM: devnet.rpcUrls['ethereum'],
        RPC_URL_BASE: devnet.rpcUrls['base'],
        ...extra,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: string[] = [];
    eachLine(child, (l) => lines.push(l));
    const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
    return new Promise((resolve) =>
      child.once('exit', (code) => {
        clearTimeout(timer);
        const last = [...lines].reverse().find((l) => l.startsWith('{')) ?? '{}';
        resolve({ code, result: JSON.parse(last) as Record<string, any>, output: lines.join('\n') });
      }),
    );
  }
  function expectExit0(r: ExampleRun): void {
    if (r.code !== 0) throw new Error(`example exited ${r.code}:\n${r.output}\nplatform:\n${tail()}`);
  }

  beforeAll(async () => {
    if (hasBinary('nats-server')) {
      nats = new PrivateNatsServer(await freePort(), { auth: true });
      await nats.start();
    }
    await migrate(dbUrl);
    const pool = new Pool({ connectionString: dbUrl, max: 1 });
    const repo = new ApiKeysRepository(pool);
    apiKey = (await repo.issue({ tier: 'paid', label: 'examples e2e' })).key;
    freeKey = (await repo.issue({ tier: 'free', label: 'examples e2e free' })).key;
    await pool.end();
    const extraEnv: Record<string, string> = { ...isolatedQueuesEnv(queuePrefix, nats !== undefined) };
    env = {
      databaseUrl: dbUrl,
      natsUrl: nats?.url ?? INFRA.nats,
      natsPasswords: nats?.passwords,
      redisUrl: INFRA.redis,
      rpcUrls: devnet.rpcUrls,
      manifestPath: devnet.manifestPath,
      gatewayPort: await freePort(),
      healthPortBase: await freePortRange(5),
      logLevel: 'warn',
      extraEnv,
    };
    gateway = `http://127.0.0.1:${env.gatewayPort}`;
    const failed = (e: unknown): never => {
      throw new Error(`${(e as Error).message}\n${tail(40)}`);
    };
    // The relayer first: its funding may mine blocks, which must not race the indexer's first reads.
    relayer = startAcrossRelayerProcess(env, { mode: 'normal', bundleEverySeconds: 10, startTimeoutMs: 300_000 }, (line) =>
      logs.push(`[across-relayer] ${line}`),
    );
    await relayer.started.catch(failed);
    for (const app of APPS)
      procs.set(
        app,
        startApp(app, env, (name, line) => logs.push(`[${name}] ${line}`)),
      );
    await waitForHttp(`${gateway}/health/ready`, 300_000, (s, body) => s === 200 && !body.includes('"down"')).catch(failed);
    svc = createTokensvc({ baseUrl: gateway, apiKey, retry: { maxRetries: 3 } });
    // The quote service routes once the indexer has published the pools of both networks.
    const until = Date.now() + 240_000;
    const pairs = [
      [`ethereum:${NATIVE}`, parseEther('0.1').toString(), `ethereum:${usdcEth}`],
      [`ethereum:${usdcEth}`, '100000000', `base:${usdcBase}`],
    ] as const;
    for (const [input, amount, output] of pairs) {
      for (;;) {
        const r = await svc.api.GET('/v2/portal/estimate', {
          params: { query: { inputToken: input, inputAmount: amount, outputToken: output } },
        });
        if (r.response.status === 200) break;
        if (Date.now() > until)
          throw new Error(`no estimate ${input} -> ${output}: ${r.response.status} ${JSON.stringify(r.error)}\n${tail(40)}`);
        await new Promise((res) => setTimeout(res, 2000));
      }
    }
    // A fresh wallet, funded with anvil's cheat code (no other test's account or nonce is touched).
    await provider('ethereum').send('anvil_setBalance', [wallet.address, toBeHex(parseEther('100'))]);
  }, 600_000);

  afterAll(async () => {
    for (const p of providers) p.destroy();
    if (relayer) await stopProcess(relayer);
    await Promise.all([...procs.values()].map((p) => stopProcess(p)));
    await nats?.dispose();
    await dropDatabase(dbUrl);
    await deleteRedisKeys(INFRA.redis, queuePrefix);
  }, 60_000);

  it('first-swap: 0.2 ETH into USDC with an ethers wallet; the USDC arrived on chain', async () => {
    const [ethBefore, usdcBefore] = [await balance('ethereum', NATIVE), await balance('ethereum', usdcEth)];
    const r = await runExample('first-swap', { AMOUNT_WEI: parseEther('0.2').toString() });
    expectExit0(r);
    expect(r.result).toMatchObject({ example: 'first-swap', wallet: wallet.address, outputToken: `ethereum:${usdcEth}` });
    const receipt = await provider('ethereum').getTransactionReceipt(r.result['txHash']);
    expect(receipt?.status).toBe(1);
    const received = (await balance('ethereum', usdcEth)) - usdcBefore;
    expect(received).toBeGreaterThanOrEqual(BigInt(r.result['minOutputAmount']));
    expect(received).toBeGreaterThan(0n);
    expect(ethBefore - (await balance('ethereum', NATIVE))).toBeGreaterThanOrEqual(parseEther('0.2'));
  }, 180_000);

  it('zap-into-vault: 100 USDC into ERC-4626 vault shares with a viem wallet; approval sent, shares received', async () => {
    const r = await runExample('zap-into-vault', { AMOUNT: '100000000' });
    const vaults = manifestPlatform(eth, 'erc4626-vaults').vaults.map((v) => `ethereum:${v.address.toLowerCase()}`);
    expectExit0(r);
    expect(vaults).toContain(r.result['vault']);
    const shares = await balance('ethereum', r.result['vault'].split(':')[1]);
    expect(shares).toBeGreaterThanOrEqual(BigInt(r.result['minOutputAmount']));
    expect(shares).toBeGreaterThan(0n);
    expect((await provider('ethereum').getTransactionReceipt(r.result['approvalTxHash']))?.status).toBe(1);
    expect((await provider('ethereum').getTransactionReceipt(r.result['txHash']))?.status).toBe(1);
  }, 180_000);

  it('signed-order: 50 USDC into WETH, signed by the wallet, sent by the relayer; mined, the WETH arrived', async () => {
    const wethBefore = await balance('ethereum', eth.weth.toLowerCase());
    const r = await runExample('signed-order', { AMOUNT: '50000000' });
    expectExit0(r);
    expect(r.result).toMatchObject({ example: 'signed-order', status: 'mined', outputToken: `ethereum:${eth.weth.toLowerCase()}` });
    const receipt = await provider('ethereum').getTransactionReceipt(r.result['txHash']);
    expect(receipt?.status).toBe(1);
    expect(receipt!.from.toLowerCase()).not.toBe(wallet.address.toLowerCase()); // gasless: the relayer sent it
    const received = (await balance('ethereum', eth.weth.toLowerCase())) - wethBefore;
    expect(received).toBe(BigInt(r.result['receivedAmount']));
    expect(received).toBeGreaterThan(0n);
  }, 180_000);

  it('cross-chain: 200 USDC on ethereum into USDC on base, followed over SSE to SUCCESS; paid on base', async () => {
    const before = await balance('base', usdcBase);
    const r = await runExample('cross-chain', { AMOUNT: '200000000' });
    expectExit0(r);
    expect(r.result).toMatchObject({ example: 'cross-chain', status: 'SUCCESS', outputToken: `base:${usdcBase}` });
    expect(r.result['seen'][r.result['seen'].length - 1]).toBe('SUCCESS');
    const received = (await balance('base', usdcBase)) - before;
    expect(received).toBeGreaterThanOrEqual(BigInt(r.result['minOutputAmount']));
    expect(received).toBeGreaterThan(0n);
    // The same order through the SDK again: the stream (not a poll) opens on the final record.
    const asked: string[] = [];
    const recording = createTokensvc({
      baseUrl: gateway,
      apiKey,
      fetch: (req, init) => (asked.push(new URL(req.url).pathname), fetch(req, init)),
    });
    const again = await waitForStatus(recording, { orderId: r.result['orderId'], txHash: r.result['txHash'] }, { timeoutMs: 30_000 });
    expect(again).toMatchObject({ status: 'SUCCESS', txHash: r.result['txHash'], destinationTxHashes: r.result['destinationTxHashes'] });
    expect(asked).toEqual(['/v3/portal/status/stream']);
    const polled = await waitForStatus(
      recording,
      { orderId: r.result['orderId'], txHash: r.result['txHash'] },
      { sse: false, timeoutMs: 30_000 },
    );
    expect(polled).toEqual(again);
    expect(asked).toEqual(['/v3/portal/status/stream', '/v3/portal/status']);
  }, 240_000);

  it('the SDK through the gateway: paging sees every token once; errors carry the code and the rate-limit headers', async () => {
    const first = await unwrap(svc.api.GET('/v2/tokens', { params: { query: { networks: ['ethereum'], limit: 250 } } }));
    const keys: string[] = [];
    for await (const t of tokens(svc, { networks: ['ethereum'] }, { pageSize: 7 })) keys.push(t.key);
    expect(keys).toHaveLength(Number(first.totalItems));
    expect(new Set(keys).size).toBe(keys.length);

    const bad = await unwrap(svc.api.GET('/v2/tokens', { params: { query: { limit: 500 } } })).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(TokensvcError);
    expect(bad).toMatchObject({
      status: 400,
      code: 'invalid_parameter',
      message: expect.stringContaining('limit'),
      rateLimit: { limit: expect.any(Number), remaining: expect.any(Number) },
    });
    const anonymous = createTokensvc({ baseUrl: gateway });
    await expect(unwrap(anonymous.api.GET('/v1/networks'))).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
    const free = createTokensvc({ baseUrl: gateway, apiKey: freeKey });
    await expect(unwrap(free.api.GET('/v3/tokens/metrics', { params: { query: { id: `ethereum:${usdcEth}` } } }))).rejects.toMatchObject({
      status: 403,
      code: 'forbidden_plan',
    });
    expect(free.rateLimit.limit).toEqual(expect.any(Number));
    await expect(
      waitForStatus(svc, { orderId: '0b1c8a2e-0000-4000-8000-000000000000', txHash: `0x${'12'.repeat(32)}` }, { timeoutMs: 30_000 }),
    ).rejects.toMatchObject({ status: 404, code: 'not_found' });
  }, 120_000);
});
