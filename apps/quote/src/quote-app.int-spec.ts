/**
 * The quote app as it runs in production (apps/quote/src/main.ts as a process, config from env
 * and the devnet manifest), answering the trading subjects over NATS: ready once its graph is
 * loaded, then an estimate, an approval check, an order whose transaction a wallet sends, and a
 * 400 that crosses the bus with its code.
 */
import { JsonRpcProvider, Wallet } from 'ethers';
import { JsonRpcClient } from '@tokensvc/chain';
import { TEST_ACCOUNTS, manifestToken, networkManifest, startDevnet, type DevnetHandle, type NetworkManifest } from '@tokensvc/devnet';
import { ErrorCode, RPC } from '@tokensvc/messages';
import { dropDatabase, migrate } from '@tokensvc/persistence';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import {
  INFRA,
  PrivateNatsServer,
  appEnv,
  createTestDatabaseUrl,
  freePort,
  stopProcess,
  waitForHttp,
  type AppProcess,
} from '@tokensvc/testing';
import { NatsRpcClient, RpcCallError } from '@tokensvc/transport';
import { TestPoolEvents } from './testing/pool-events';
import { seedReadModels } from './testing/read-models';

jest.setTimeout(120_000);

describe('quote app over NATS', () => {
  let devnet: DevnetHandle;
  let net: NetworkManifest;
  let databaseUrl: string;
  let events: TestPoolEvents;
  let app: AppProcess;
  let client: NatsRpcClient;
  let provider: JsonRpcProvider;
  const lines: string[] = [];
  const token = (symbol: string): string => `ethereum:${manifestToken(net, symbol).address.toLowerCase()}`;

  // A nats-server of this file's own: on the shared bus another quote service (another test
  // file's) may be in the same queue group and answer these requests from its own catalog.
  let nats: PrivateNatsServer;

  beforeAll(async () => {
    nats = new PrivateNatsServer(await freePort());
    await nats.start();
    devnet = await startDevnet({ networks: ['ethereum'], basePort: 36555, log: () => undefined });
    net = networkManifest(devnet.manifest, 'ethereum');
    databaseUrl = createTestDatabaseUrl('quote_app');
    await migrate(databaseUrl);
    await seedReadModels(databaseUrl, new JsonRpcClient(devnet.rpcUrls['ethereum']!), net);
    events = await TestPoolEvents.create(nats.url, 'app');
    const healthPort = await freePort();
    const env = appEnv('quote', {
      databaseUrl,
      natsUrl: nats.url,
      redisUrl: INFRA.redis,
      rpcUrls: { ethereum: devnet.rpcUrls['ethereum']! },
      manifestPath: devnet.manifestPath,
      gatewayPort: 0,
      healthPortBase: healthPort - 3,
    });
    // This test's own event stream, so other tests' pool events never reach this graph.
    const root = join(__dirname, '..', '..', '..');
    const child = spawn(process.execPath, ['-r', join(root, 'tools', 'register.js'), join(root, 'apps', 'quote', 'src', 'main.ts')], {
      cwd: root,
      env: { ...env, QUOTE_EVENTS_STREAM: events.stream, QUOTE_EVENTS_PREFIX: events.prefix },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const s of [child.stdout, child.stderr]) s?.on('data', (c: Buffer) => lines.push(c.toString()));
    app = { name: 'quote', child, exited: new Promise((r) => child.once('exit', (code) => r(code))) };
    await waitForHttp(`http://127.0.0.1:${healthPort}/health/ready`, 60_000).catch((e: unknown) => {
      throw new Error(`${(e as Error).message}\n${lines.join('')}`);
    });
    client = new NatsRpcClient(nats.url, 30_000, 'quote-app-test');
    await client.start();
    provider = new JsonRpcProvider(devnet.rpcUrls['ethereum']!, 1, { staticNetwork: true, cacheTimeout: -1 });
    provider.pollingInterval = 20;
  });

  afterAll(async () => {
    provider?.destroy();
    await client?.close();
    if (app) await stopProcess(app);
    await events?.dispose();
    await devnet?.stop();
    if (databaseUrl) await dropDatabase(databaseUrl);
    await nats?.dispose();
  });

  it('estimates, checks approval, builds an order a wallet can send, and answers 400s with their code', async () => {
    const wallet = new Wallet(TEST_ACCOUNTS[2]!.privateKey, provider);
    const request = { inputToken: token('USDC'), inputAmount: '1500000000', outputToken: token('WETH') };
    const estimate = await client.call(RPC.estimate, request);
    expect(estimate.context?.simulated).toBe(true);
    expect(BigInt(estimate.outputAmount)).toBeGreaterThan(0n);

    const approval = await client.call(RPC.approval, { ...request, sender: wallet.address });
    expect(approval.context).toMatchObject({
      network: 'ethereum',
      shouldApprove: true,
      canPermit: true,
      spender: net.contracts.router.toLowerCase(),
      target: manifestToken(net, 'USDC').address.toLowerCase(),
    });
    await (await wallet.sendTransaction({ to: approval.approve!.to, data: approval.approve!.data })).wait();

    const order = await client.call(RPC.buildOrder, { ...request, sender: wallet.address });
    const receipt = await (
      await wallet.sendTransaction({ to: order.tx!.to, data: order.tx!.data, gasLimit: BigInt(order.tx!.gasLimit!) })
    ).wait();
    expect(receipt?.status).toBe(1);
    expect(order.context!.outputAmount).toBe(estimate.outputAmount);

    const failure = await client.call(RPC.buildOrder, { ...request, sender: wallet.address, inputAmount: '0' }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(RpcCallError);
    expect((failure as RpcCallError).code).toBe(ErrorCode.ERROR_CODE_BAD_REQUEST);
    expect((failure as RpcCallError).message).toMatch(/greater than zero/);
  });
});
