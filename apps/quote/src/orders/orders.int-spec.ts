/**
 * Same-chain orders end to end on a private devnet: read models seeded from the chain, the quote
 * service's real wiring (Nest module, JetStream pool events on a test stream), and every kind of
 * order built through the use cases, then signed and sent by a test wallet exactly as returned.
 * Each order runs on one snapshot (reverted after), so the graph matches the chain and the
 * recipient must receive exactly `outputAmount` (aTokens: within 2 units, their balances are
 * index-scaled).
 */
import { Client } from 'pg';
import { JsonRpcProvider, Wallet } from 'ethers';
import { JsonRpcClient } from '@tokensvc/chain';
import { routeHash } from '@tokensvc/contracts';
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
import { dropDatabase, migrate } from '@tokensvc/persistence';
import { INFRA, createTestDatabaseUrl } from '@tokensvc/testing';
import type { ServiceError } from '@tokensvc/transport';
import { QUOTE_METRICS } from '../metrics';
import { OrderStore } from '../relay/order-store';
import { headBlock, readChainPools } from '../testing/chain-pools';
import { OrderRunner, type RunResult } from '../testing/order-runner';
import { TestPoolEvents } from '../testing/pool-events';
import { startQuoteHarness, syncGraphTo, type QuoteHarness } from '../testing/quote-harness';
import { seedReadModels } from '../testing/read-models';
import { ApprovalUseCase } from './approval.usecase';
import { BuildOrderUseCase } from './build-order.usecase';
import { EstimateUseCase } from './estimate.usecase';

const ZERO = '0x0000000000000000000000000000000000000000';

jest.setTimeout(120_000);

describe('same-chain orders on a private devnet', () => {
  let devnet: DevnetHandle;
  let net: NetworkManifest;
  let databaseUrl: string;
  let events: TestPoolEvents;
  let harness: QuoteHarness;
  let rpc: JsonRpcClient;
  let provider: JsonRpcProvider;
  let runner: OrderRunner;
  let wallet: Wallet;
  let snapshot: string;
  let orders: BuildOrderUseCase;
  let estimates: EstimateUseCase;
  let approvals: ApprovalUseCase;
  const key = (address: string): string => `ethereum:${address.toLowerCase()}`;
  const token = (symbol: string): string => key(manifestToken(net, symbol).address);
  const lp = (slug: string, pair: string): string => key(manifestPlatform(net, slug).pools.find((p) => p.pair === pair)!.address);
  const vault = (symbol: string): string => key(manifestPlatform(net, 'erc4626-vaults').vaults.find((v) => v.symbol === symbol)!.address);
  const aToken = (symbol: string): string => key(manifestPlatform(net, 'aave-v3').markets.find((m) => m.symbol === symbol)!.aToken);
  const NATIVE = 'ethereum:0x0000000000000000000000000000000000000000';
  /** a deployed contract with no pools, registered as a basic token */
  let orphan: string;

  /** Event positions only move forward (as the indexer's do), also past the fake ones below. */
  let lastEventBlock = 0;
  async function nextEventBlock(ahead = 0): Promise<number> {
    lastEventBlock = Math.max((await headBlock(rpc)) + ahead, lastEventBlock + 1);
    return lastEventBlock;
  }

  /** Publishes every pool's chain state as the indexer would after a block, and waits for the graph. */
  async function syncGraph(): Promise<void> {
    await syncGraphTo(harness, events, rpc, net, await nextEventBlock());
  }

  beforeAll(async () => {
    devnet = await startDevnet({ networks: ['ethereum'], basePort: 36545, log: () => undefined });
    net = networkManifest(devnet.manifest, 'ethereum');
    rpc = new JsonRpcClient(devnet.rpcUrls['ethereum']!);
    databaseUrl = createTestDatabaseUrl('quote_orders');
    await migrate(databaseUrl);
    await seedReadModels(databaseUrl, rpc, net);
    orphan = manifestPlatform(net, 'aave-v3').markets[0]!.variableDebtToken.toLowerCase();
    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    await db.query(
      `INSERT INTO tokens (key, network, address, platform, family, name, symbol, decimals, created_at) VALUES ($1,'ethereum',$2,'basic','basic','Orphan','ORPH',6,now())`,
      [key(orphan), orphan],
    );
    await db.end();
    events = await TestPoolEvents.create(INFRA.nats, 'orders');
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
    orders = harness.app.get(BuildOrderUseCase);
    estimates = harness.app.get(EstimateUseCase);
    approvals = harness.app.get(ApprovalUseCase);
    runner = new OrderRunner(provider, estimates, approvals, orders);
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
  });
  afterEach(async () => {
    await rpc.call('evm_revert', [snapshot]);
  });

  /** What every executed order must show on chain. */
  function expectDelivered(r: RunResult, opts: { tolerance?: bigint } = {}): void {
    const c = r.order.context!;
    expect(r.order.tx!.to).toBe(c.target);
    expect(c.target).toBe(net.contracts.router.toLowerCase());
    expect(r.routeHash).toBe(c.routeHash);
    expect(r.received).toBe(r.balanceDelta);
    expect(r.received).toBeGreaterThanOrEqual(BigInt(c.minOutputAmount));
    const diff = r.received - BigInt(c.outputAmount);
    expect(diff >= -(opts.tolerance ?? 0n) && diff <= (opts.tolerance ?? 0n)).toBe(true);
    // The estimate (no sender, no approval: simulated from state overrides) agrees with what was
    // received within its slippage.
    expect(r.estimate.context!.simulated).toBe(true);
    const est = BigInt(r.estimate.outputAmount);
    const slack =
      (r.received * BigInt(Math.ceil(r.estimate.context!.slippageTolerancePercentage * 100))) / 10_000n + (opts.tolerance ?? 0n);
    expect(est >= r.received - slack && est <= r.received + slack).toBe(true);
    expect(BigInt(r.order.tx!.gasLimit!)).toBeGreaterThanOrEqual(r.receipt.gasUsed);
  }

  it('swaps a basic token for another, with a partner fee taken from the input', async () => {
    const partner = '0x000000000000000000000000000000000000bEEF';
    const r = await runner.run(wallet, {
      inputToken: token('USDC'),
      inputAmount: '25000000000',
      outputToken: token('WBTC'),
      partner,
      feePercentage: 0.25,
    });
    expectDelivered(r);
    const c = r.order.context!;
    expect(c.feeAmount).toBe(String((25_000_000_000n * 25n) / 10_000n));
    expect(c.feeCosts).toEqual([
      expect.objectContaining({
        name: 'partner fee',
        recipient: partner.toLowerCase(),
        amount: c.feeAmount,
        percentage: 0.25,
        included: true,
      }),
    ]);
    expect(await runner.balance(manifestToken(net, 'USDC').address, partner)).toBe(BigInt(c.feeAmount!));
    expect(r.estimate.context!.simulated).toBe(true);
    expect(r.approval!.context!.shouldApprove).toBe(true);
    expect(r.order.signedOrder?.value?.['relayerFee']).toBeDefined();
  });

  it('routes a long-tail pair over several hops', async () => {
    const r = await runner.run(wallet, {
      inputToken: token('LINK'),
      inputAmount: (2_000n * 10n ** 18n).toString(),
      outputToken: token('UNI'),
    });
    expectDelivered(r);
    expect(r.order.context!.route.length).toBeGreaterThanOrEqual(3);
  });

  /** The executor calls' targets, in order (context.rawParams). */
  const callTargets = (r: RunResult): string[] =>
    (r.order.context!.rawParams!['executorCalls'] as Array<{ target: string }>).map((c) => c.target.toLowerCase());

  // The Router names no WETH (one address on every chain): the order's calls wrap native input
  // first and unwrap a native output last, through the network's WETH (before, the Router wrapped
  // and the Executor unwrapped, and the calls had neither).
  it('takes native input (wrapped by the first call, the Router forwards native)', async () => {
    const r = await runner.run(wallet, { inputToken: NATIVE, inputAmount: (3n * 10n ** 18n).toString(), outputToken: token('USDC') });
    expectDelivered(r);
    expect(r.order.context!.value).toBe((3n * 10n ** 18n).toString());
    expect(r.order.signedOrder).toBeUndefined();
    expect(r.approval).toBeUndefined();
    expect(callTargets(r)[0]).toBe(net.weth.toLowerCase());
  });

  it('pays native output (unwrapped by the last call, the Executor pays its native)', async () => {
    const r = await runner.run(wallet, { inputToken: token('DAI'), inputAmount: (7_500n * 10n ** 18n).toString(), outputToken: NATIVE });
    expectDelivered(r);
    expect(callTargets(r).at(-1)).toBe(net.weth.toLowerCase());
  });

  it('zaps a basic token into a Uniswap V2 LP token (swap to ratio, add liquidity, residuals back)', async () => {
    const r = await runner.run(wallet, {
      inputToken: token('USDC'),
      inputAmount: '10000000000',
      outputToken: lp('uniswap-v2', 'WETH/DAI'),
    });
    expectDelivered(r);
    expect(r.order.context!.steps.some((s) => s.startsWith('Add liquidity'))).toBe(true);
    expect(r.order.context!.residualTokens!.length).toBe(2);
  });

  it('zaps native input into an LP token', async () => {
    expectDelivered(
      await runner.run(wallet, {
        inputToken: NATIVE,
        inputAmount: (2n * 10n ** 18n).toString(),
        outputToken: lp('sushiswap', 'WETH/USDC'),
      }),
    );
  });

  it('records each build in the quote metrics: latency by kind and outcome, estimate simulations', async () => {
    const builds = async (kind: string, outcome = 'ok'): Promise<number> =>
      (await QUOTE_METRICS.build.get()).values.find(
        (v) => v.metricName === 'quote_build_duration_seconds_count' && v.labels['kind'] === kind && v.labels['outcome'] === outcome,
      )?.value ?? 0;
    const simulations = async (): Promise<number> =>
      (await QUOTE_METRICS.simulations.get()).values.find((v) => v.labels['network'] === 'ethereum' && v.labels['outcome'] === 'ok')
        ?.value ?? 0;
    const snap = async (): Promise<number[]> => [
      await builds('swap'),
      await builds('zap'),
      await builds('estimate'),
      await builds('approval'),
      await builds('unknown', 'error'),
      await simulations(),
    ];
    const before = await snap();
    await runner.run(wallet, { inputToken: token('USDC'), inputAmount: '1000000000', outputToken: token('WETH') });
    await runner.run(wallet, { inputToken: NATIVE, inputAmount: (10n ** 18n).toString(), outputToken: lp('sushiswap', 'WETH/USDC') });
    await expect(
      orders.execute({
        sender: wallet.address,
        inputToken: token('USDC'),
        inputAmount: '1000000',
        outputToken: key('0x1111111111111111111111111111111111111111'),
      }),
    ).rejects.toThrow(/not a supported token/);
    // swap, zap, two estimates (both simulated), one approval (the native input needs none), one failure before its kind was known
    expect(await snap()).toEqual([before[0]! + 1, before[1]! + 1, before[2]! + 2, before[3]! + 1, before[4]! + 1, before[5]! + 2]);
  });

  it('deposits into an ERC-4626 vault (after a swap into its asset)', async () => {
    expectDelivered(
      await runner.run(wallet, {
        inputToken: token('DAI'),
        inputAmount: (3_000n * 10n ** 18n).toString(),
        outputToken: vault('steakUSDC'),
      }),
    );
  });

  it('deposits native input into a WETH vault', async () => {
    expectDelivered(await runner.run(wallet, { inputToken: NATIVE, inputAmount: (10n ** 18n).toString(), outputToken: vault('gtWETH') }));
  });

  it('supplies to the Aave market (aToken output)', async () => {
    expectDelivered(await runner.run(wallet, { inputToken: token('USDC'), inputAmount: '5000000000', outputToken: aToken('DAI') }), {
      tolerance: 2n,
    });
  });

  it('builds the permit variant: the wallet signs the approval typed data instead of approving', async () => {
    const r = await runner.run(
      wallet,
      { inputToken: token('DAI'), inputAmount: (1_000n * 10n ** 18n).toString(), outputToken: token('WETH') },
      { permit: true },
    );
    expectDelivered(r);
    expect(r.approval!.context!.canPermit).toBe(true);
    expect(r.order.context!.isPermit).toBe(true);
    expect(r.order.context!.rawParams!['function']).toBe('executeWithPermit');
  });

  describe('bad requests answer 400 with the reason', () => {
    const sender = TEST_ACCOUNTS[0]!.address;
    async function rejection(p: Promise<unknown>): Promise<string> {
      try {
        await p;
      } catch (e) {
        expect((e as ServiceError).code).toBe('ERROR_CODE_BAD_REQUEST');
        return (e as Error).message;
      }
      throw new Error('expected a 400');
    }
    const base = () => ({ sender, inputToken: token('USDC'), inputAmount: '1000000000', outputToken: token('WETH') });

    it('unknown tokens, no route, amounts too small or too large', async () => {
      expect(await rejection(orders.execute({ ...base(), outputToken: key('0x1111111111111111111111111111111111111111') }))).toMatch(
        /not a supported token/,
      );
      expect(await rejection(orders.execute({ ...base(), outputToken: key(orphan) }))).toMatch(/^no route: no pools connect USDC to ORPH/);
      expect(await rejection(orders.execute({ ...base(), inputAmount: '1', outputToken: token('WBTC') }))).toMatch(/^amount too small/);
      expect(
        await rejection(estimates.execute({ inputToken: token('USDC'), inputAmount: (10n ** 20n).toString(), outputToken: token('WETH') })),
      ).toMatch(/^amount too large/);
    });

    it('parameters the schemas cannot judge alone', async () => {
      expect(await rejection(orders.execute({ ...base(), feePercentage: 0.5 }))).toMatch(/feePercentage needs a partner/);
      expect(await rejection(orders.execute({ ...base(), sender: ZERO }))).toMatch(/sender must not be the zero address/);
      expect(await rejection(orders.execute({ ...base(), outputToken: token('USDC') }))).toMatch(/must differ/);
      expect(await rejection(orders.execute({ ...base(), outputToken: `base:${manifestToken(net, 'WETH').address}` }))).toMatch(
        /cross-chain/,
      );
      expect(await rejection(orders.execute({ ...base(), inputAmount: '0' }))).toMatch(/greater than zero/);
      expect(await rejection(orders.execute({ ...base(), inputAmount: '1e6' }))).toMatch(/base units/);
      expect(await rejection(orders.execute({ ...base(), slippageTolerancePercentage: 20 }))).toMatch(/between 0.1 and 10/);
      expect(await rejection(orders.execute({ ...base(), validate: false }))).toMatch(/auto slippage needs validate=true/);
      expect(await rejection(approvals.execute({ sender, inputToken: NATIVE, inputAmount: '1' }))).toMatch(/needs no approval/);
      // a permit deadline already past: a permit that expired before it was signed, an order that can only revert
      const permitSignature = `0x${'ab'.repeat(65)}`;
      expect(await rejection(approvals.execute({ sender, inputToken: token('DAI'), inputAmount: '1', permitDeadline: '0' }))).toMatch(
        /^permitDeadline 0 is already past \(now \d+\): sign the permit with a deadline in the future/,
      );
      expect(
        await rejection(orders.execute({ ...base(), inputToken: token('DAI'), inputAmount: '1000', permitSignature, permitDeadline: '0' })),
      ).toMatch(/^permitDeadline 0 is already past/);
      const lastHour = String(Math.floor(Date.now() / 1000) - 3600);
      expect(
        await rejection(
          orders.execute({ ...base(), inputToken: token('DAI'), inputAmount: '1000', permitSignature, permitDeadline: lastHour }),
        ),
      ).toMatch(`permitDeadline ${lastHour} is already past`);
    });

    it('validation names the failure cause: approval, balance', async () => {
      const fresh = Wallet.createRandom().address;
      expect(await rejection(orders.execute({ ...base(), sender: TEST_ACCOUNTS[1]!.address }))).toMatch(
        /^transfer-from failed: insufficient approval/,
      );
      expect(await rejection(orders.execute({ ...base(), sender: fresh }))).toMatch(/^transfer-from failed: insufficient balance/);
      expect(await rejection(orders.execute({ ...base(), sender: fresh, inputToken: NATIVE, inputAmount: '1000' }))).toMatch(
        /^insufficient funds/,
      );
      // Without validation the same order is built (the caller takes the risk).
      const unvalidated = await orders.execute({ ...base(), sender: fresh, validate: false, slippageTolerancePercentage: 1 });
      expect(unvalidated.context!.minOutputAmount).toBe(((BigInt(unvalidated.context!.outputAmount) * 9_900n) / 10_000n).toString());
    });

    it('validation catches a stale quote: slippage exceeded, and auto slippage over its cap', async () => {
      // Tell the graph a pool is far deeper than it is (a fake event), so the quote overshoots the chain.
      const pools = await readChainPools(rpc, net, { ticks: false });
      const pool = pools.find((p) => p.platform === 'uniswap-v2' && p.address === lp('uniswap-v2', 'DAI/USDC').split(':')[1])!;
      const block = await nextEventBlock(1_000);
      await events.publish('ethereum', { ...pool, reserve0: pool.reserve0 * 2n }, { block, logIndex: 0 });
      const graph = harness.graphs.get('ethereum');
      while (graph.pool(pool.address)?.position.block !== block) await new Promise((r) => setTimeout(r, 20));
      try {
        const input = { sender, inputToken: token('USDC'), inputAmount: '20000000000', outputToken: token('DAI') };
        await approvals.execute(input).then((a) => (a.approve ? runner.send(wallet, a.approve) : undefined));
        expect(await rejection(orders.execute({ ...input, slippageTolerancePercentage: 0.1 }))).toMatch(
          /^execution reverted: slippage exceeded/,
        );
        expect(await rejection(orders.execute(input))).toMatch(/^auto slippage exceeded/);
      } finally {
        // A rollback-style event puts the real state back.
        await events.publish('ethereum', pool, { block, logIndex: 1 }, true);
        while (graph.pool(pool.address)?.position.logIndex !== 1) await new Promise((r) => setTimeout(r, 20));
      }
    });
  });

  describe('holding composed tokens (acquired through the service, graph synced by pool events)', () => {
    beforeAll(async () => {
      // Acquire LP, vault and aToken positions through the service itself, then tell the graph.
      await runner.run(wallet, { inputToken: token('USDC'), inputAmount: '20000000000', outputToken: lp('uniswap-v2', 'WETH/USDC') });
      await runner.run(wallet, { inputToken: token('USDC'), inputAmount: '10000000000', outputToken: vault('steakUSDC') });
      await runner.run(wallet, { inputToken: token('USDC'), inputAmount: '10000000000', outputToken: aToken('USDC') });
      await syncGraph();
    }, 120_000);

    const half = async (tokenKey: string): Promise<string> =>
      ((await runner.balance(tokenKey.split(':')[1]!, wallet.address)) / 2n).toString();

    it('zaps out of a V2 LP token into a third token (burn, route both halves)', async () => {
      expectDelivered(
        await runner.run(wallet, {
          inputToken: lp('uniswap-v2', 'WETH/USDC'),
          inputAmount: await half(lp('uniswap-v2', 'WETH/USDC')),
          outputToken: token('DAI'),
        }),
      );
    });

    it('redeems vault shares into another token', async () => {
      expectDelivered(
        await runner.run(wallet, {
          inputToken: vault('steakUSDC'),
          inputAmount: await half(vault('steakUSDC')),
          outputToken: token('WETH'),
        }),
      );
    });

    it('withdraws an Aave position into native ETH', async () => {
      expectDelivered(
        await runner.run(wallet, { inputToken: aToken('USDC'), inputAmount: await half(aToken('USDC')), outputToken: NATIVE }),
      );
    });

    it('goes from one composed token to another: LP -> vault, signed with the LP token permit', async () => {
      const r = await runner.run(
        wallet,
        { inputToken: lp('uniswap-v2', 'WETH/USDC'), inputAmount: await half(lp('uniswap-v2', 'WETH/USDC')), outputToken: vault('gtWETH') },
        { permit: true },
      );
      expectDelivered(r);
      expect(r.order.context!.steps.map((s) => s.split(' ')[0])).toEqual(expect.arrayContaining(['Remove', 'Deposit']));
    });

    it('goes from a vault share to an LP token', async () => {
      expectDelivered(
        await runner.run(wallet, {
          inputToken: vault('steakUSDC'),
          inputAmount: await half(vault('steakUSDC')),
          outputToken: lp('sushiswap', 'WETH/USDC'),
        }),
      );
    });
  });

  it('stores a quote compactly: the executor calls are read back from its transaction, not written twice (issue 30)', async () => {
    const sender = wallet.address;
    const built = [];
    for (const o of [
      { inputToken: token('USDC'), inputAmount: '25000000000', outputToken: token('WBTC') },
      { inputToken: token('LINK'), inputAmount: (2_000n * 10n ** 18n).toString(), outputToken: token('UNI') },
      { inputToken: token('USDC'), inputAmount: '1000000000', outputToken: lp('uniswap-v2', 'DAI/USDC') },
    ]) {
      built.push(await orders.execute({ sender, ...o, validate: false, slippageTolerancePercentage: 1, client: 'ip:203.0.113.7' }));
    }
    const ids = built.map((b) => b.context!.orderId);
    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      type StoredRow = { order_id: string; client: string; calls: unknown; bytes: number };
      const { rows } = await db.query<StoredRow>(
        `SELECT order_id, client, calls, pg_column_size(o.*) AS bytes FROM orders o WHERE order_id = ANY($1)`,
        [ids],
      );
      expect(rows).toHaveLength(3);
      for (const r of rows) {
        expect(r).toMatchObject({ client: 'ip:203.0.113.7', calls: null });
        // before: 3.4 to 5.2 kB a row (the calls were stored beside the transaction carrying them);
        // now the transaction's data once plus the reply's figures. Its data grows with the route
        // (a Uniswap V4 hop's UniversalRouter call is about 1 kB), so the bound is over the data.
        const txBytes = (built.find((b) => b.context!.orderId === r.order_id)!.tx!.data.length - 2) / 2;
        expect(r.bytes - txBytes).toBeLessThan(2_500);
      }
      // what POST /v2/portal relays: the calls of the stored transaction, bound to the signed route
      const store = harness.app.get(OrderStore);
      for (const b of built) {
        const stored = (await store.find(b.context!.orderId))!;
        expect(routeHash(stored.calls)).toBe(b.context!.routeHash);
        expect(stored.reply).toEqual(b);
      }
    } finally {
      await db.end();
    }
  });
});
