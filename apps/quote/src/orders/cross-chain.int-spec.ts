/**
 * Cross-chain orders on two devnet networks (ethereum -> base): the quote service builds the
 * origin transaction (Router.executeBridge: partner fee, optional swap, bridge deposit), a test
 * wallet sends the API's approval and order transactions as they are, and the devnet bridge's
 * filler pays the recipient on base, whose balance is checked there.
 */
import { Interface, JsonRpcProvider, Wallet, parseEther } from 'ethers';
import { DevnetBridgeProvider, Filler, devnetBridgeConfig, devnetFillerKey } from '@tokensvc/bridge';
import { JsonRpcClient } from '@tokensvc/chain';
import { TEST_ACCOUNTS, manifestToken, networkManifest, startDevnet, type DevnetHandle, type NetworkManifest } from '@tokensvc/devnet';
import { ErrorCode, type OrderReply } from '@tokensvc/messages';
import { dropDatabase, migrate } from '@tokensvc/persistence';
import { INFRA, createTestDatabaseUrl } from '@tokensvc/testing';
import type { ServiceError } from '@tokensvc/transport';
import { TestPoolEvents } from '../testing/pool-events';
import { startQuoteHarness, type QuoteHarness } from '../testing/quote-harness';
import { seedReadModels } from '../testing/read-models';
import { ApprovalUseCase } from './approval.usecase';
import { BuildOrderUseCase } from './build-order.usecase';
import { EstimateUseCase } from './estimate.usecase';

jest.setTimeout(180_000);

const ERC20 = new Interface(['function balanceOf(address) view returns (uint256)', 'function transfer(address,uint256) returns (bool)']);
const NATIVE = '0x0000000000000000000000000000000000000000';

describe('cross-chain orders on two devnet networks', () => {
  let devnet: DevnetHandle;
  let eth: NetworkManifest;
  let base: NetworkManifest;
  let databaseUrl: string;
  let events: TestPoolEvents;
  let harness: QuoteHarness;
  let filler: Filler;
  let origin: JsonRpcProvider;
  let destination: JsonRpcProvider;
  let orders: BuildOrderUseCase;
  let estimates: EstimateUseCase;
  let approvals: ApprovalUseCase;
  let wallet: Wallet;
  const key = (n: NetworkManifest, symbol: string): string => `${n.network}:${manifestToken(n, symbol).address.toLowerCase()}`;

  beforeAll(async () => {
    devnet = await startDevnet({ networks: ['ethereum', 'base'], basePort: 38545, log: () => undefined });
    eth = networkManifest(devnet.manifest, 'ethereum');
    base = networkManifest(devnet.manifest, 'base');
    databaseUrl = createTestDatabaseUrl('quote_crosschain');
    await migrate(databaseUrl);
    for (const n of [eth, base]) await seedReadModels(databaseUrl, new JsonRpcClient(devnet.rpcUrls[n.network]!), n);
    events = await TestPoolEvents.create(INFRA.nats, 'crosschain');
    harness = await startQuoteHarness({
      databaseUrl,
      natsUrl: INFRA.nats,
      rpcUrl: devnet.rpcUrls['ethereum']!,
      manifestPath: devnet.manifestPath,
      stream: events.stream,
      prefix: events.prefix,
      env: { NETWORKS: 'ethereum,base', RPC_URL_BASE: devnet.rpcUrls['base']!, RELAY_QUEUE_PREFIX: `xchain${Date.now().toString(36)}` },
    });
    const manifest = devnet.manifest as unknown as Parameters<typeof devnetBridgeConfig>[0];
    filler = new Filler({ provider: new DevnetBridgeProvider({ config: devnetBridgeConfig(manifest), rpcUrls: devnet.rpcUrls }), privateKey: devnetFillerKey(manifest), pollMs: 100, log: () => undefined });
    filler.start();
    origin = new JsonRpcProvider(devnet.rpcUrls['ethereum']!, 1, { staticNetwork: true, cacheTimeout: -1 });
    destination = new JsonRpcProvider(devnet.rpcUrls['base']!, 8453, { staticNetwork: true, cacheTimeout: -1 });
    origin.pollingInterval = 20;
    wallet = new Wallet(TEST_ACCOUNTS[2]!.privateKey, origin);
    orders = harness.app.get(BuildOrderUseCase);
    estimates = harness.app.get(EstimateUseCase);
    approvals = harness.app.get(ApprovalUseCase);
  }, 240_000);

  afterAll(async () => {
    await filler?.stop();
    origin?.destroy();
    destination?.destroy();
    await harness?.close();
    await events?.dispose();
    await devnet?.stop();
    if (databaseUrl) await dropDatabase(databaseUrl);
  });

  const balanceOn = async (p: JsonRpcProvider, token: string, owner: string): Promise<bigint> => BigInt(await p.call({ to: token, data: ERC20.encodeFunctionData('balanceOf', [owner]) }));

  /** Approval (as the API answers it, with outputToken), the order, sent as is; then the fill on base. */
  async function run(inputKey: string, amount: bigint, outputKey: string, extra: { partner?: string; feePercentage?: number } = {}): Promise<{ order: OrderReply; received: bigint }> {
    const sender = wallet.address.toLowerCase();
    const outToken = outputKey.split(':')[1]!;
    if (!inputKey.endsWith(NATIVE)) {
      const approval = await approvals.execute({ sender, inputToken: inputKey, inputAmount: amount.toString(), outputToken: outputKey });
      expect(approval.context).toMatchObject({ canPermit: false, spender: eth.contracts.router.toLowerCase() });
      expect(approval.permit).toBeUndefined();
      if (approval.approve) await (await wallet.sendTransaction({ to: approval.approve.to, data: approval.approve.data })).wait();
    }
    const order = await orders.execute({ sender, inputToken: inputKey, inputAmount: amount.toString(), outputToken: outputKey, slippageTolerancePercentage: 1, ...extra });
    const before = await balanceOn(destination, outToken, sender);
    const sent = await wallet.sendTransaction({ to: order.tx!.to, data: order.tx!.data, value: BigInt(order.tx!.value ?? '0'), gasLimit: BigInt(order.tx!.gasLimit!) });
    const receipt = await sent.wait();
    expect(receipt!.status).toBe(1);
    expect(receipt!.gasUsed).toBeLessThan(BigInt(order.tx!.gasLimit!));
    const deadline = Date.now() + 30_000;
    let received = 0n;
    while (received === 0n) {
      if (Date.now() > deadline) throw new Error('the filler did not pay on base within 30 s');
      await new Promise((r) => setTimeout(r, 100));
      received = (await balanceOn(destination, outToken, sender)) - before;
    }
    return { order, received };
  }

  function expectCrossChainShape(order: OrderReply): void {
    const c = order.context!;
    expect(c.target).toBe(order.tx!.to);
    expect(c.target).toBe(eth.contracts.router.toLowerCase());
    expect(c.outputAmountSignedOrder).toBe('');
    expect(c.minOutputAmountSignedOrder).toBe('');
    expect(c.stepsSignedOrder).toEqual([]);
    expect(order.signedOrder).toBeUndefined();
    expect(c.feeCosts.map((f) => f.name)).toContain('bridge fee');
    const bridgeFee = c.feeCosts.find((f) => f.name === 'bridge fee')!;
    expect(bridgeFee.included).toBe(true);
    expect(bridgeFee.recipient).toBeUndefined();
    expect(BigInt(bridgeFee.amount)).toBeGreaterThan(0n);
    expect(c.priceImpactPercentage).toBeGreaterThanOrEqual(0);
    expect(new Date(c.expiry!).getTime()).toBeGreaterThan(Date.now());
  }

  it('bridges USDC from ethereum to base: the recipient receives exactly outputAmount; the partner fee and the bridge fee are itemised', async () => {
    const partner = '0x000000000000000000000000000000000000bEEF';
    const { order, received } = await run(key(eth, 'USDC'), 1_000_000_000n, key(base, 'USDC'), { partner, feePercentage: 0.1 });
    expectCrossChainShape(order);
    const c = order.context!;
    expect(received).toBe(BigInt(c.outputAmount));
    expect(c.minOutputAmount).toBe(c.outputAmount);
    expect(c.feeCosts[0]).toMatchObject({ name: 'partner fee', recipient: partner.toLowerCase(), amount: '1000000', included: true });
    expect(await balanceOn(origin, manifestToken(eth, 'USDC').address, partner)).toBe(1_000_000n);
    const estimate = await estimates.execute({ inputToken: key(eth, 'USDC'), inputAmount: '1000000000', outputToken: key(base, 'USDC') });
    expect(estimate.context).toMatchObject({ simulated: false });
    // no partner fee in the estimate
    expect(BigInt(estimate.outputAmount)).toBeGreaterThan(BigInt(c.outputAmount));
  });

  it('swaps on the origin first (WBTC -> USDC on ethereum), then bridges: the recipient gets outputAmount on base', async () => {
    const funder = new Wallet(TEST_ACCOUNTS[0]!.privateKey, origin);
    const wbtc = manifestToken(eth, 'WBTC').address;
    await (await funder.sendTransaction({ to: wbtc, data: ERC20.encodeFunctionData('transfer', [wallet.address, 10_000_000n]) })).wait();
    const { order, received } = await run(key(eth, 'WBTC'), 5_000_000n, key(base, 'USDC'));
    expectCrossChainShape(order);
    expect(order.context!.route).toEqual([key(eth, 'WBTC'), key(eth, 'USDC'), key(base, 'USDC')]);
    expect(received).toBe(BigInt(order.context!.outputAmount));
  });

  it('takes native ETH in and delivers WETH on base', async () => {
    const before = await origin.getBalance(wallet.address);
    const { order, received } = await run(`ethereum:${NATIVE}`, parseEther('0.5'), key(base, 'WETH'));
    expectCrossChainShape(order);
    expect(order.tx!.value).toBe(parseEther('0.5').toString());
    expect(received).toBe(BigInt(order.context!.outputAmount));
    expect(before - (await origin.getBalance(wallet.address))).toBeGreaterThanOrEqual(parseEther('0.5'));
  });

  it('answers 400 for a permit, native output, a token the bridge does not deliver, and tiny amounts', async () => {
    const sender = wallet.address.toLowerCase();
    const refuse = async (p: Promise<unknown>, message: RegExp): Promise<void> => {
      const e = (await p.then(() => undefined, (err: unknown) => err)) as ServiceError | undefined;
      expect({ code: e?.code, message: e?.message }).toEqual({ code: ErrorCode.ERROR_CODE_BAD_REQUEST, message: expect.stringMatching(message) });
    };
    await refuse(orders.execute({ sender, inputToken: key(eth, 'USDC'), inputAmount: '1000000', outputToken: key(base, 'USDC'), permitSignature: `0x${'11'.repeat(65)}` }), /permitSignature is not accepted on cross-chain orders/);
    await refuse(orders.execute({ sender, inputToken: key(eth, 'USDC'), inputAmount: '1000000', outputToken: `base:${NATIVE}` }), /native output across networks is not supported yet: ask for WETH \(base:0x[0-9a-f]{40}\)/);
    await refuse(orders.execute({ sender, inputToken: key(eth, 'USDC'), inputAmount: '1000000', outputToken: key(base, 'WBTC') }), /cross-chain outputToken must be one of the bridged tokens on base/);
    await refuse(estimates.execute({ inputToken: key(eth, 'USDC'), inputAmount: '10', outputToken: key(base, 'USDC') }), /do not cover the bridge fee/);
  });
});
