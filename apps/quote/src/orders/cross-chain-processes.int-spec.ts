/**
 * The destination leg as `npm start` runs it: the quote app (apps/quote/src/main.ts) and the
 * filler (libs/bridge/src/filler/main.ts) as processes on a private nats-server, a cross-chain
 * order asked for over NATS like the gateway does, a test wallet sending the API's transactions as
 * they are, and the filler building its destination zap with the quote service over NATS (its
 * QuoteServiceSwapper over natsQuoteCalls) before paying the recipient on base.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Interface, JsonRpcProvider, Wallet } from 'ethers';
import { DevnetBridgeProvider, devnetBridgeConfig } from '@tokensvc/bridge';
import { JsonRpcClient } from '@tokensvc/chain';
import { TEST_ACCOUNTS, manifestPlatform, manifestToken, networkManifest, startDevnet, type DevnetHandle, type NetworkManifest } from '@tokensvc/devnet';
import { RPC } from '@tokensvc/messages';
import { dropDatabase, migrate } from '@tokensvc/persistence';
import { INFRA, PrivateNatsServer, appEnv, createTestDatabaseUrl, freePort, stopProcess, waitForHttp, type AppProcess } from '@tokensvc/testing';
import { NatsRpcClient } from '@tokensvc/transport';
import { TestPoolEvents } from '../testing/pool-events';
import { seedReadModels } from '../testing/read-models';

jest.setTimeout(180_000);

const ERC20 = new Interface(['function balanceOf(address) view returns (uint256)']);
const ROOT = join(__dirname, '..', '..', '..', '..');

describe('cross-chain order with a destination zap: quote app and filler as processes over NATS', () => {
  let nats: PrivateNatsServer;
  let devnet: DevnetHandle;
  let eth: NetworkManifest;
  let base: NetworkManifest;
  let databaseUrl: string;
  let events: TestPoolEvents;
  let quote: AppProcess;
  let filler: AppProcess;
  let client: NatsRpcClient;
  let origin: JsonRpcProvider;
  const quoteLines: string[] = [];
  const fillerLines: string[] = [];

  const spawnTs = (name: string, script: string, env: NodeJS.ProcessEnv, lines: string[]): AppProcess => {
    const child = spawn(process.execPath, ['-r', join(ROOT, 'tools', 'register.js'), join(ROOT, script)], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const s of [child.stdout, child.stderr]) s?.on('data', (c: Buffer) => lines.push(...c.toString().split('\n').filter(Boolean)));
    return { name: name as AppProcess['name'], child, exited: new Promise((r) => child.once('exit', (code) => r(code))) };
  };

  beforeAll(async () => {
    nats = new PrivateNatsServer(await freePort());
    await nats.start();
    devnet = await startDevnet({ networks: ['ethereum', 'base'], basePort: 39555, log: () => undefined });
    eth = networkManifest(devnet.manifest, 'ethereum');
    base = networkManifest(devnet.manifest, 'base');
    databaseUrl = createTestDatabaseUrl('quote_xc_processes');
    await migrate(databaseUrl);
    for (const n of [eth, base]) await seedReadModels(databaseUrl, new JsonRpcClient(devnet.rpcUrls[n.network]!), n);
    events = await TestPoolEvents.create(nats.url, 'xcprocesses');
    const rpcUrls = { ethereum: devnet.rpcUrls['ethereum']!, base: devnet.rpcUrls['base']! };
    const healthPort = await freePort();
    const env = appEnv('quote', { databaseUrl, natsUrl: nats.url, redisUrl: INFRA.redis, rpcUrls, manifestPath: devnet.manifestPath, gatewayPort: 0, healthPortBase: healthPort - 3 });
    quote = spawnTs('quote', 'apps/quote/src/main.ts', { ...env, CROSS_CHAIN_BRIDGE: 'devnet', QUOTE_EVENTS_STREAM: events.stream, QUOTE_EVENTS_PREFIX: events.prefix, RELAY_QUEUE_PREFIX: `xcproc${Date.now().toString(36)}` }, quoteLines);
    await waitForHttp(`http://127.0.0.1:${healthPort}/health/ready`, 120_000).catch((e: unknown) => {
      throw new Error(`${(e as Error).message}\n${quoteLines.join('\n')}`);
    });
    filler = spawnTs(
      'filler',
      'libs/bridge/src/filler/main.ts',
      { PATH: process.env['PATH'], HOME: process.env['HOME'], NODE_ENV: 'production', DEVNET_MANIFEST: devnet.manifestPath, NETWORKS: 'ethereum,base', RPC_URL_ETHEREUM: rpcUrls.ethereum, RPC_URL_BASE: rpcUrls.base, NATS_URL: nats.url, FILLER_POLL_MS: '100', LOG_LEVEL: 'info' },
      fillerLines,
    );
    const started = Date.now();
    while (!fillerLines.some((l) => l.includes('"msg":"filler started"'))) {
      if (Date.now() - started > 30_000) throw new Error(`the filler did not start:\n${fillerLines.join('\n')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    client = new NatsRpcClient(nats.url, 30_000, 'cross-chain-processes-test');
    await client.start();
    origin = new JsonRpcProvider(rpcUrls.ethereum, 1, { staticNetwork: true, cacheTimeout: -1 });
    origin.pollingInterval = 20;
  }, 300_000);

  afterAll(async () => {
    origin?.destroy();
    await client?.close();
    if (filler) await stopProcess(filler);
    if (quote) await stopProcess(quote);
    await events?.dispose();
    await nats?.dispose();
    await devnet?.stop();
    if (databaseUrl) await dropDatabase(databaseUrl);
  });

  it('USDC on ethereum into a WETH/USDC V2 LP share on base: the filler zaps with an order it got over NATS and pays all of it to the recipient', async () => {
    const wallet = new Wallet(TEST_ACCOUNTS[3]!.privateKey, origin);
    const sender = wallet.address.toLowerCase();
    const pair = manifestPlatform(base, 'uniswap-v2').pools.find((p) => ['WETH/USDC', 'USDC/WETH'].includes(p.pair))!;
    const request = { inputToken: `ethereum:${manifestToken(eth, 'USDC').address.toLowerCase()}`, inputAmount: '1500000000', outputToken: `base:${pair.address.toLowerCase()}`, sender };

    const approval = await client.call(RPC.approval, request);
    expect(approval.context).toMatchObject({ spender: eth.contracts.router.toLowerCase(), canPermit: false });
    await (await wallet.sendTransaction({ to: approval.approve!.to, data: approval.approve!.data })).wait();
    const order = await client.call(RPC.buildOrder, { ...request, slippageTolerancePercentage: 1 });
    expect(order.context!.rawParams!['destination']).toMatchObject({ network: 'base', gasPaidBy: 'filler' });

    const baseRpc = new JsonRpcClient(devnet.rpcUrls['base']!);
    const lpBalance = async (): Promise<bigint> => BigInt(await baseRpc.call<string>('eth_call', [{ to: pair.address, data: ERC20.encodeFunctionData('balanceOf', [sender]) }, 'latest']));
    const before = await lpBalance();
    const receipt = await (await wallet.sendTransaction({ to: order.tx!.to, data: order.tx!.data, gasLimit: BigInt(order.tx!.gasLimit!) })).wait();
    expect(receipt!.status).toBe(1);
    const sentAt = Date.now();
    let received = 0n;
    while (received === 0n) {
      if (Date.now() - sentAt > 60_000) throw new Error(`the filler did not pay on base within 60 s:\n${fillerLines.slice(-20).join('\n')}`);
      await new Promise((r) => setTimeout(r, 50));
      received = (await lpBalance()) - before;
    }
    const ms = Date.now() - sentAt;
    expect(received).toBeGreaterThanOrEqual(BigInt(order.context!.minOutputAmount));

    const provider = new DevnetBridgeProvider({ config: devnetBridgeConfig(devnet.manifest as unknown as Parameters<typeof devnetBridgeConfig>[0]), rpcUrls: devnet.rpcUrls });
    const [deposit] = await provider.findDeposit('ethereum', receipt!.hash);
    const forDeposit = (): Array<Record<string, unknown>> =>
      fillerLines
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((l) => l['requestId'] === deposit!.requestId);
    // The chain shows the fill a moment before the filler has logged its receipt; then it settles.
    const waitedFrom = Date.now();
    while (!forDeposit().some((l) => l['msg'] === 'settled')) {
      if (Date.now() - waitedFrom > 30_000) throw new Error(`the filler did not settle:\n${fillerLines.slice(-20).join('\n')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const swapped = forDeposit().find((l) => l['msg'] === 'swapped');
    expect(swapped).toMatchObject({ received: received.toString(), needed: deposit!.outputAmount.toString() });
    expect(forDeposit().map((l) => l['msg'])).toEqual(['deposit seen', 'swap sent', 'swapped', 'fill sent', 'filled', 'settled']);
    // The filler's swap is a stored order of the quote service, built over the bus.
    process.stderr.write(`[cross-chain processes] deposit -> recipient paid on base: ${ms} ms; swap gasUsed ${swapped!['gasUsed']}, fill gasUsed ${forDeposit().find((l) => l['msg'] === 'filled')?.['gasUsed']}\n`);
  });
});
