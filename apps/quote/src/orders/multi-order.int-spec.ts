/**
 * Multi-input zaps end to end on a private devnet (issue 23 item 3): four dust balances of one
 * wallet into a vault share and into a Uniswap V2 LP share, each input approved through the
 * approval use case as the API returns it, the order built by the multi-order use case, signed and
 * sent exactly as returned, and the recipient's balance checked on chain. Bad lists are 400s.
 */
import { JsonRpcProvider, Wallet } from 'ethers';
import { JsonRpcClient } from '@tokensvc/chain';
import { parseMultiOrderExecuted } from '@tokensvc/contracts';
import {
  TEST_ACCOUNTS,
  manifestPlatform,
  manifestToken,
  networkManifest,
  startDevnet,
  type DevnetHandle,
  type NetworkManifest,
  relayerKeyEnv,
} from '@tokensvc/devnet';
import type { MultiOrderReply } from '@tokensvc/messages';
import { dropDatabase, migrate } from '@tokensvc/persistence';
import { INFRA, createTestDatabaseUrl } from '@tokensvc/testing';
import type { ServiceError } from '@tokensvc/transport';
import { headBlock } from '../testing/chain-pools';
import { OrderRunner } from '../testing/order-runner';
import { TestPoolEvents } from '../testing/pool-events';
import { startQuoteHarness, syncGraphTo, type QuoteHarness } from '../testing/quote-harness';
import { seedReadModels } from '../testing/read-models';
import { ApprovalUseCase } from './approval.usecase';
import { BuildOrderUseCase } from './build-order.usecase';
import { EstimateUseCase } from './estimate.usecase';
import { MultiOrderUseCase } from './multi-order.usecase';

jest.setTimeout(120_000);

describe('multi-input zaps on a private devnet', () => {
  let devnet: DevnetHandle;
  let net: NetworkManifest;
  let databaseUrl: string;
  let events: TestPoolEvents;
  let harness: QuoteHarness;
  let rpc: JsonRpcClient;
  let provider: JsonRpcProvider;
  let runner: OrderRunner;
  let wallet: Wallet;
  let multi: MultiOrderUseCase;
  let approvals: ApprovalUseCase;
  let snapshot: string;
  let lastEventBlock = 0;
  const key = (address: string): string => `ethereum:${address.toLowerCase()}`;
  const token = (symbol: string): string => key(manifestToken(net, symbol).address);
  const lp = (slug: string, pair: string): string => key(manifestPlatform(net, slug).pools.find((p) => p.pair === pair)!.address);
  const vault = (symbol: string): string => key(manifestPlatform(net, 'erc4626-vaults').vaults.find((v) => v.symbol === symbol)!.address);

  /** Publishes every pool's chain state as the indexer would, and waits for the graph. */
  async function syncGraph(): Promise<void> {
    lastEventBlock = Math.max(await headBlock(rpc), lastEventBlock + 1);
    await syncGraphTo(harness, events, rpc, net, lastEventBlock);
  }

  beforeAll(async () => {
    devnet = await startDevnet({ networks: ['ethereum'], basePort: 37545, log: () => undefined });
    net = networkManifest(devnet.manifest, 'ethereum');
    rpc = new JsonRpcClient(devnet.rpcUrls['ethereum']!);
    databaseUrl = createTestDatabaseUrl('quote_multi');
    await migrate(databaseUrl);
    await seedReadModels(databaseUrl, rpc, net);
    events = await TestPoolEvents.create(INFRA.nats, 'multi');
    harness = await startQuoteHarness({
      databaseUrl,
      natsUrl: INFRA.nats,
      rpcUrl: devnet.rpcUrls['ethereum']!,
      manifestPath: devnet.manifestPath,
      relayerKeys: relayerKeyEnv(devnet.manifestPath),
      stream: events.stream,
      prefix: events.prefix,
    });
    provider = new JsonRpcProvider(devnet.rpcUrls['ethereum']!, 1, { staticNetwork: true, cacheTimeout: -1 });
    provider.pollingInterval = 20;
    wallet = new Wallet(TEST_ACCOUNTS[0]!.privateKey, provider);
    multi = harness.app.get(MultiOrderUseCase);
    approvals = harness.app.get(ApprovalUseCase);
    runner = new OrderRunner(provider, harness.app.get(EstimateUseCase), approvals, harness.app.get(BuildOrderUseCase));
  }, 180_000);

  afterAll(async () => {
    provider?.destroy();
    await harness?.close();
    await events?.dispose();
    await devnet?.stop();
    if (databaseUrl) await dropDatabase(databaseUrl);
  });

  beforeEach(async () => {
    snapshot = await rpc.call<string>('evm_snapshot');
    await syncGraph();
  });
  afterEach(async () => {
    await rpc.call('evm_revert', [snapshot]);
  });

  /** Four dust balances: a few dollars of each. */
  const dust = (): Array<{ token: string; amount: string }> => [
    { token: token('USDC'), amount: '7000000' },
    { token: token('DAI'), amount: (5n * 10n ** 18n).toString() },
    { token: token('LINK'), amount: (4n * 10n ** 17n).toString() },
    { token: token('WBTC'), amount: '9000' },
  ];

  /** Approves each input as GET /v2/approval says, builds the order, sends it, and checks the chain. */
  async function zap(outputToken: string): Promise<{ order: MultiOrderReply; received: bigint }> {
    const sender = wallet.address.toLowerCase();
    const inputs = dust();
    const estimate = await multi.execute({
      inputTokens: inputs.map((i) => i.token),
      inputAmounts: inputs.map((i) => i.amount),
      outputToken,
      permitSignatures: [],
      estimateOnly: true,
    });
    expect(estimate.tx).toBeUndefined();
    expect(estimate.context!.simulated).toBe(false);
    for (const i of inputs) {
      const approval = await approvals.execute({ sender, inputToken: i.token, inputAmount: i.amount, outputToken });
      if (approval.approve) await runner.send(wallet, approval.approve);
    }
    const order = await multi.execute({
      sender,
      inputTokens: inputs.map((i) => i.token),
      inputAmounts: inputs.map((i) => i.amount),
      outputToken,
      permitSignatures: [],
      estimateOnly: false,
    });
    const c = order.context!;
    expect(c.simulated).toBe(true);
    expect(c.inputs.map((i) => i.token)).toEqual(inputs.map((i) => i.token));
    expect(c.target).toBe(net.contracts.router.toLowerCase());
    expect(c.pinnedBlocks).toEqual([expect.objectContaining({ network: 'ethereum', blockNumber: String(lastEventBlock) })]);
    // no partner, no fee: the estimate is the same route from the same graph
    expect(estimate.context!.outputAmount).toBe(c.outputAmount);
    expect(c.inputs.every((i) => i.feeAmount === '0')).toBe(true);
    const outputAddress = outputToken.split(':')[1]!;
    const before = await runner.balance(outputAddress, sender);
    const receipt = await runner.send(wallet, order.tx!);
    const received = (await runner.balance(outputAddress, sender)) - before;
    const [event] = parseMultiOrderExecuted(receipt.logs, order.tx!.to);
    expect(event).toMatchObject({ outputAmount: received, routeHash: c.routeHash, inputAmounts: inputs.map((i) => BigInt(i.amount)) });
    expect(received).toBeGreaterThanOrEqual(BigInt(c.minOutputAmount));
    // the graph matched the chain: the planner's prediction is what the chain paid
    expect(received).toBe(BigInt(c.outputAmount));
    // every input was spent in full (fee to the partner, the rest routed)
    for (const i of inputs) expect(await runner.balance(i.token.split(':')[1]!, order.tx!.to)).toBe(0n);
    return { order, received };
  }

  it('zaps four dust balances into a vault share', async () => {
    const { order } = await zap(vault('steakUSDC'));
    expect(order.context!.steps.some((s) => s.startsWith('Deposit'))).toBe(true);
  });

  it('zaps four dust balances into a Uniswap V2 LP share', async () => {
    const { order } = await zap(lp('uniswap-v2', 'WETH/DAI'));
    expect(order.context!.steps.some((s) => s.startsWith('Add liquidity'))).toBe(true);
    expect(order.context!.residualTokens.length).toBe(2);
  });

  it('answers bad lists with 400s that say what to change', async () => {
    const sender = wallet.address.toLowerCase();
    const base: { sender: string; permitSignatures: string[]; permitDeadline?: string; estimateOnly: boolean; outputToken: string } = {
      sender,
      permitSignatures: [],
      estimateOnly: false,
      outputToken: vault('steakUSDC'),
    };
    const permit = `0x${'ab'.repeat(65)}`;
    const cases: Array<[Partial<typeof base> & { inputTokens: string[]; inputAmounts: string[] }, RegExp]> = [
      [
        {
          inputTokens: [token('USDC'), token('DAI')],
          inputAmounts: ['1000000', '1000000'],
          permitSignatures: [permit, permit],
          permitDeadline: '0',
        },
        /^permitDeadline 0 is already past/,
      ],
      [{ inputTokens: [token('USDC'), token('DAI')], inputAmounts: ['1000000'] }, /same length/],
      [{ inputTokens: [token('USDC'), token('USDC')], inputAmounts: ['1000000', '1000000'] }, /repeats/],
      [
        { inputTokens: [token('USDC'), 'base:0x833589fcd6edb6e08f4c7c32d4f71b54bda02913'], inputAmounts: ['1000000', '1000000'] },
        /one network/,
      ],
      [
        {
          inputTokens: Array.from({ length: 11 }, (_, n) => key(`0x${(n + 1).toString(16).padStart(40, '0')}`)),
          inputAmounts: Array.from({ length: 11 }, () => '1'),
        },
        /at most 10/,
      ],
      [{ inputTokens: [token('USDC'), vault('steakUSDC')], inputAmounts: ['1000000', '1000000'] }, /also an input/],
    ];
    for (const [req, message] of cases) {
      const error = await multi.execute({ ...base, ...req }).then(
        () => undefined,
        (e: unknown) => e as ServiceError,
      );
      expect(error?.code).toBe('ERROR_CODE_BAD_REQUEST');
      expect(error?.message).toMatch(message);
    }
  });
});
