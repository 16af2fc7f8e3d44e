/**
 * Uniswap V3 hops through SwapRouter02, the only V3 router the real networks' address books name.
 * On a private devnet: SwapRouter02 deployed from its npm artifact against the devnet's V2 and V3
 * factories, position manager and WETH, and a copy of the manifest whose uniswap-v3 platform has
 * the registry's shape ({factory, positionManager, swapRouter02}: no `router`). The read models
 * hold the V3 pools only, so every route is V3. Orders are built by the quote's real wiring, sent
 * as returned and must deliver exactly their quoted output (the estimate within its slippage).
 * A V3 platform naming neither router is refused with a 400 through the NATS handler.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RpcException } from '@nestjs/microservices';
import { ContractFactory, Interface, JsonRpcProvider, Wallet } from 'ethers';
import { JsonRpcClient } from '@tokensvc/chain';
import { loadSwapRouter02Artifact, routerInterface, type ExecutorCall } from '@tokensvc/contracts';
import {
  TEST_ACCOUNTS,
  manifestPlatform,
  manifestToken,
  networkManifest,
  platformAddress,
  startDevnet,
  writeManifest,
  type DevnetHandle,
  type NetworkManifest,
  relayerKeyEnv,
} from '@tokensvc/devnet';
import { ErrorCode, type RpcErrorPayload } from '@tokensvc/messages';
import { dropDatabase, migrate } from '@tokensvc/persistence';
import { INFRA, createTestDatabaseUrl } from '@tokensvc/testing';
import { v3RouterMissingMessage, v3RouterOf } from '@tokensvc/protocols';
import { OrderRunner, type RunResult } from '../testing/order-runner';
import { TestPoolEvents } from '../testing/pool-events';
import { startQuoteHarness, type QuoteHarness } from '../testing/quote-harness';
import { seedReadModels } from '../testing/read-models';
import { ApprovalUseCase } from './approval.usecase';
import { BuildOrderUseCase } from './build-order.usecase';
import { EstimateUseCase } from './estimate.usecase';
import { QuoteController } from './quote.controller';

jest.setTimeout(180_000);

/** in the 31000-32999 range test runs may use; one network */
const BASE_PORT = 32_345;
const ROUTER02_VIEWS = new Interface([
  'function factory() view returns (address)',
  'function factoryV2() view returns (address)',
  'function positionManager() view returns (address)',
  'function WETH9() view returns (address)',
]);
/** exactInputSingle of SwapRouter02 (IV3SwapRouter) and of the original SwapRouter */
const SELECTOR_02 = '0x04e45aaf';
const SELECTOR_V1 = '0x414bf389';

describe('V3 hops through SwapRouter02 on a private devnet', () => {
  let devnet: DevnetHandle;
  let net: NetworkManifest;
  let manifestDir: string;
  let databaseUrl: string;
  let events: TestPoolEvents;
  let harness: QuoteHarness;
  let rpc: JsonRpcClient;
  let provider: JsonRpcProvider;
  let wallet: Wallet;
  let runner: OrderRunner;
  let router02: string;
  let snapshot: string;
  const key = (address: string): string => `ethereum:${address.toLowerCase()}`;
  const token = (symbol: string): string => key(manifestToken(net, symbol).address);

  beforeAll(async () => {
    devnet = await startDevnet({ networks: ['ethereum'], basePort: BASE_PORT, log: () => undefined });
    net = networkManifest(devnet.manifest, 'ethereum');
    rpc = new JsonRpcClient(devnet.rpcUrls['ethereum']!);
    provider = new JsonRpcProvider(devnet.rpcUrls['ethereum']!, 1, { staticNetwork: true, cacheTimeout: -1 });
    provider.pollingInterval = 20;

    // SwapRouter02 from the published artifact: (factoryV2, factoryV3, positionManager, WETH9)
    const v2 = manifestPlatform(net, 'uniswap-v2');
    const v3 = manifestPlatform(net, 'uniswap-v3');
    const deployer = new Wallet(TEST_ACCOUNTS[4]!.privateKey, provider);
    const artifact = loadSwapRouter02Artifact();
    const args = [platformAddress(v2, 'factory'), platformAddress(v3, 'factory'), platformAddress(v3, 'positionManager'), net.weth];
    const deployed = await new ContractFactory(artifact.abi, artifact.bytecode, deployer).deploy(...args);
    await deployed.waitForDeployment();
    router02 = (await deployed.getAddress()).toLowerCase();
    expect(await wiring(router02)).toEqual(args);

    // The manifest as a real network's registry has it: no `router` on uniswap-v3.
    const registryShaped: NetworkManifest = {
      ...net,
      platforms: net.platforms.map((p) =>
        p.slug === 'uniswap-v3'
          ? {
              ...p,
              addresses: {
                factory: platformAddress(p, 'factory'),
                positionManager: platformAddress(p, 'positionManager'),
                swapRouter02: router02,
              },
            }
          : p,
      ),
    };
    manifestDir = mkdtempSync(join(tmpdir(), 'quote-swaprouter02-'));
    writeManifest(manifestDir, { ...devnet.manifest, networks: [registryShaped] });

    // Only the V3 pools in the read models: every route goes through SwapRouter02.
    databaseUrl = createTestDatabaseUrl('quote_swaprouter02');
    await migrate(databaseUrl);
    await seedReadModels(databaseUrl, rpc, { ...net, platforms: net.platforms.filter((p) => p.family === 'uniswap-v3') });
    events = await TestPoolEvents.create(INFRA.nats, 'swaprouter02');
    harness = await startQuoteHarness({
      databaseUrl,
      natsUrl: INFRA.nats,
      rpcUrl: devnet.rpcUrls['ethereum']!,
      manifestPath: join(manifestDir, 'deployment.json'),
      relayerKeys: relayerKeyEnv(join(manifestDir, 'deployment.json')),
      stream: events.stream,
      prefix: events.prefix,
    });
    expect(harness.config.deployments[0]!.platforms.get('uniswap-v3')).toEqual({
      factory: platformAddress(v3, 'factory').toLowerCase(),
      positionManager: platformAddress(v3, 'positionManager').toLowerCase(),
      swapRouter02: router02,
    });
    wallet = new Wallet(TEST_ACCOUNTS[0]!.privateKey, provider);
    runner = new OrderRunner(
      provider,
      harness.app.get(EstimateUseCase),
      harness.app.get(ApprovalUseCase),
      harness.app.get(BuildOrderUseCase),
    );
  }, 300_000);

  afterAll(async () => {
    provider?.destroy();
    await harness?.close();
    await events?.dispose();
    await devnet?.stop();
    if (databaseUrl) await dropDatabase(databaseUrl);
    if (manifestDir) rmSync(manifestDir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    snapshot = await rpc.call<string>('evm_snapshot');
  });
  afterEach(async () => {
    await rpc.call('evm_revert', [snapshot]);
  });

  /** (factoryV2, factory, positionManager, WETH9) of a SwapRouter02 */
  async function wiring(address: string): Promise<string[]> {
    const view = async (name: string): Promise<string> =>
      ROUTER02_VIEWS.decodeFunctionResult(
        name,
        await provider.call({ to: address, data: ROUTER02_VIEWS.encodeFunctionData(name) }),
      )[0] as string;
    return [await view('factoryV2'), await view('factory'), await view('positionManager'), await view('WETH9')];
  }

  it('the devnet deploys SwapRouter02 too (manifest `swapRouter02`), wired like this one; its `router` stays the original SwapRouter', async () => {
    const v3 = manifestPlatform(net, 'uniswap-v3');
    const own = platformAddress(v3, 'swapRouter02');
    expect(own.toLowerCase()).not.toBe(router02);
    expect(await wiring(own)).toEqual([
      platformAddress(manifestPlatform(net, 'uniswap-v2'), 'factory'),
      platformAddress(v3, 'factory'),
      platformAddress(v3, 'positionManager'),
      net.weth,
    ]);
    expect((await provider.getCode(platformAddress(v3, 'router'))).length).toBeGreaterThan(2);
    expect(v3RouterOf(Object.fromEntries(Object.entries(v3.addresses).map(([k, v]) => [k, String(v)])))).toEqual({
      kind: 'swapRouter',
      address: platformAddress(v3, 'router'),
    });
  });

  /** The executor calls of the order transaction as sent. */
  function sentCalls(r: RunResult): ExecutorCall[] {
    const parsed = routerInterface().parseTransaction({ data: r.order.tx!.data, value: BigInt(r.order.tx!.value ?? '0') })!;
    return (parsed.args.getValue('calls') as Array<{ target: string; data: string }>).map((c) => ({
      target: c.target.toLowerCase(),
      data: c.data,
    })) as ExecutorCall[];
  }

  /** Exactly the quoted output on chain; the estimate within its slippage; V3 hops only through SwapRouter02. */
  function expectThroughRouter02(r: RunResult, hops: number): void {
    const c = r.order.context!;
    expect(r.received).toBe(r.balanceDelta);
    expect(r.received).toBe(BigInt(c.outputAmount));
    expect(r.received).toBeGreaterThanOrEqual(BigInt(c.minOutputAmount));
    const est = BigInt(r.estimate.outputAmount);
    const slack = (r.received * BigInt(Math.ceil(r.estimate.context!.slippageTolerancePercentage * 100))) / 10_000n;
    expect(est >= r.received - slack && est <= r.received + slack).toBe(true);
    const swaps = sentCalls(r).filter((call) => call.data.startsWith(SELECTOR_02) || call.data.startsWith(SELECTOR_V1));
    expect(swaps.length).toBeGreaterThanOrEqual(hops);
    for (const s of swaps) {
      expect(s.target).toBe(router02);
      expect(s.data.slice(0, 10)).toBe(SELECTOR_02);
    }
  }

  it('swaps USDC for WETH over a V3 pool through SwapRouter02', async () => {
    const r = await runner.run(wallet, { inputToken: token('USDC'), inputAmount: '20000000000', outputToken: token('WETH') });
    expectThroughRouter02(r, 1);
    expect(r.estimate.context!.simulated).toBe(true);
  });

  it('takes native input (wrapped by the Router) into a V3 hop', async () => {
    const r = await runner.run(wallet, {
      inputToken: key('0x0000000000000000000000000000000000000000'),
      inputAmount: (2n * 10n ** 18n).toString(),
      outputToken: token('USDC'),
    });
    expectThroughRouter02(r, 1);
  });

  it('routes a pair without a common V3 pool over several V3 hops, each through SwapRouter02', async () => {
    const r = await runner.run(wallet, {
      inputToken: token('LINK'),
      inputAmount: (1_000n * 10n ** 18n).toString(),
      outputToken: token('USDC'),
    });
    expect(r.order.context!.route.length).toBeGreaterThanOrEqual(3);
    expectThroughRouter02(r, 2);
  });

  it('refuses a V3 hop with a 400 when the platform names neither `router` nor `swapRouter02`', async () => {
    const controller = harness.app.get(QuoteController);
    const platforms = harness.config.deployments[0]!.platforms as Map<string, Readonly<Record<string, string>>>;
    const configured = platforms.get('uniswap-v3')!;
    platforms.set('uniswap-v3', { factory: configured['factory']!, positionManager: configured['positionManager']! });
    try {
      const req = { inputToken: token('USDC'), inputAmount: '1000000000', outputToken: token('WETH') };
      const expected = { code: ErrorCode.ERROR_CODE_BAD_REQUEST, message: v3RouterMissingMessage('uniswap-v3', 'ethereum') };
      for (const reply of [controller.buildOrder({ ...req, sender: wallet.address }), controller.estimate(req)]) {
        const err = await reply.then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(RpcException);
        expect((err as RpcException).getError() as RpcErrorPayload).toEqual(expected);
      }
    } finally {
      platforms.set('uniswap-v3', configured);
    }
  });
});
