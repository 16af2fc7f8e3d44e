/**
 * Cross-chain orders on two devnet networks (ethereum -> base): the quote service builds the
 * origin transaction (Router.executeBridge: partner fee, optional swap, bridge deposit of the final
 * token's minimum), a test wallet sends the API's approval and order transactions as they are, and
 * the devnet bridge's filler pays the recipient on base, whose balance is checked there. When the
 * output is not the bridged token, the filler runs the destination swap or zap first, built by the
 * same quote service in process (QuoteServiceSwapper over the use cases, as the filler process does
 * over NATS). The last test moves the chains' clocks (refund after the deadline), so it stays last.
 */
import { Interface, JsonRpcProvider, Wallet, parseEther, toBeHex } from 'ethers';
import { BRIDGE_REFUND_GRACE } from '@tokensvc/contracts';
import { DevnetBridgeProvider, Filler, QuoteServiceSwapper, devnetBridgeConfig, devnetFillerKey, type BridgeDepositInfo } from '@tokensvc/bridge';
import { JsonRpcClient } from '@tokensvc/chain';
import { TEST_ACCOUNTS, manifestPlatform, manifestToken, networkManifest, startDevnet, type DevnetHandle, type NetworkManifest } from '@tokensvc/devnet';
import { ErrorCode, type OrderReply } from '@tokensvc/messages';
import { dropDatabase, migrate } from '@tokensvc/persistence';
import { INFRA, createTestDatabaseUrl } from '@tokensvc/testing';
import type { ServiceError } from '@tokensvc/transport';
import { headBlock, readChainPools } from '../testing/chain-pools';
import { TestPoolEvents } from '../testing/pool-events';
import { startQuoteHarness, type QuoteHarness } from '../testing/quote-harness';
import { seedReadModels } from '../testing/read-models';
import { ApprovalUseCase } from './approval.usecase';
import { BuildOrderUseCase } from './build-order.usecase';
import { EstimateUseCase } from './estimate.usecase';

jest.setTimeout(180_000);

const ERC20 = new Interface([
  'function balanceOf(address) view returns (uint256)',
  'function transfer(address,uint256) returns (bool)',
  'function totalAssets() view returns (uint256)',
]);
const NATIVE = '0x0000000000000000000000000000000000000000';

interface LogLine {
  level: string;
  msg: string;
  [field: string]: unknown;
}

describe('cross-chain orders on two devnet networks', () => {
  let devnet: DevnetHandle;
  let eth: NetworkManifest;
  let base: NetworkManifest;
  let databaseUrl: string;
  let events: TestPoolEvents;
  let harness: QuoteHarness;
  let provider: DevnetBridgeProvider;
  let filler: Filler;
  let origin: JsonRpcProvider;
  let destination: JsonRpcProvider;
  let orders: BuildOrderUseCase;
  let estimates: EstimateUseCase;
  let approvals: ApprovalUseCase;
  let wallet: Wallet;
  const lines: LogLine[] = [];
  /** figures for the report: deposit (origin receipt) -> recipient paid on base, and the filler's swap gas */
  const timings: Array<{ name: string; ms: number }> = [];
  const key = (n: NetworkManifest, symbol: string): string => `${n.network}:${manifestToken(n, symbol).address.toLowerCase()}`;
  const vault = (n: NetworkManifest, symbol: string): string => `${n.network}:${manifestPlatform(n, 'erc4626-vaults').vaults.find((v) => v.symbol === symbol)!.address.toLowerCase()}`;
  const v2Pair = (n: NetworkManifest, a: string, b: string): string => {
    const pair = manifestPlatform(n, 'uniswap-v2').pools.find((p) => [`${a}/${b}`, `${b}/${a}`].includes(p.pair));
    if (!pair) throw new Error(`no uniswap-v2 ${a}/${b} pair on ${n.network}`);
    return `${n.network}:${pair.address.toLowerCase()}`;
  };

  /** Event positions only move forward (as the indexer's do). */
  const lastEventBlock = new Map<string, number>();
  /** Publishes every pool's chain state as the indexer would after a block, and waits for the graph. */
  async function syncGraph(n: NetworkManifest): Promise<void> {
    const rpc = new JsonRpcClient(devnet.rpcUrls[n.network]!);
    const block = Math.max(await headBlock(rpc), (lastEventBlock.get(n.network) ?? 0) + 1);
    lastEventBlock.set(n.network, block);
    const pools = await readChainPools(rpc, n, { ticks: false });
    for (const [i, p] of pools.entries()) await events.publish(n.network, p, { block, logIndex: i });
    const graph = harness.graphs.get(n.network);
    const deadline = Date.now() + 10_000;
    while (pools.some((p) => graph.pool(p.address)?.position.block !== block)) {
      if (Date.now() > deadline) throw new Error(`the ${n.network} graph did not apply the pool events`);
      await new Promise((r) => setTimeout(r, 20));
    }
    await harness.graphs.settled();
  }

  beforeAll(async () => {
    devnet = await startDevnet({ networks: ['ethereum', 'base'], basePort: 39545, log: () => undefined });
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
      env: { NETWORKS: 'ethereum,base', RPC_URL_BASE: devnet.rpcUrls['base']!, CROSS_CHAIN_BRIDGE: 'devnet', RELAY_QUEUE_PREFIX: `xchain${Date.now().toString(36)}` },
    });
    orders = harness.app.get(BuildOrderUseCase);
    estimates = harness.app.get(EstimateUseCase);
    approvals = harness.app.get(ApprovalUseCase);
    const manifest = devnet.manifest as unknown as Parameters<typeof devnetBridgeConfig>[0];
    const fillerKey = devnetFillerKey(manifest);
    provider = new DevnetBridgeProvider({ config: devnetBridgeConfig(manifest), rpcUrls: devnet.rpcUrls });
    // The filler builds its destination swaps with this quote service, in process (the filler process asks over NATS).
    const swapper = new QuoteServiceSwapper({ buildOrder: (r) => orders.execute(r), approval: (r) => approvals.execute(r) }, new Wallet(fillerKey).address);
    filler = new Filler({ provider, privateKey: fillerKey, pollMs: 100, receiptPollMs: 20, retryDelayMs: 500, swapper, log: (level, msg, fields) => void lines.push({ level, msg, ...fields }) });
    filler.start();
    origin = new JsonRpcProvider(devnet.rpcUrls['ethereum']!, 1, { staticNetwork: true, cacheTimeout: -1 });
    destination = new JsonRpcProvider(devnet.rpcUrls['base']!, 8453, { staticNetwork: true, cacheTimeout: -1 });
    origin.pollingInterval = 20;
    wallet = new Wallet(TEST_ACCOUNTS[2]!.privateKey, origin);
  }, 240_000);

  afterEach(async () => {
    // The filler's swaps (and the tests' own) moved base's pools: the graph follows, as the indexer would make it.
    if (harness) for (const n of [eth, base]) await syncGraph(n);
  });

  afterAll(async () => {
    await filler?.stop();
    if (filler) {
      const report = [
        ...timings.map((t) => `deposit -> recipient paid on base: ${t.ms} ms (${t.name})`),
        ...filler.swaps.map((s) => {
          const fill = lines.find((l) => l.msg === 'filled' && l['requestId'] === s.requestId);
          return `filler destination swap ${s.inputAmount} ${s.inputToken} -> ${s.received} ${s.outputToken}: swap gasUsed ${s.gasUsed}, fill gasUsed ${fill?.['gasUsed']}`;
        }),
        ...lines.filter((l) => l.msg === 'filled' && !filler.swaps.some((s) => s.requestId === l['requestId'])).map((l) => `direct fill (no swap): gasUsed ${l['gasUsed']}`),
      ];
      process.stderr.write(`[cross-chain figures]\n  ${report.join('\n  ')}\n`);
    }
    origin?.destroy();
    destination?.destroy();
    await harness?.close();
    await events?.dispose();
    await devnet?.stop();
    if (databaseUrl) await dropDatabase(databaseUrl);
  });

  /** Balances through the project's RPC client, which retries what a history-less anvil answers while a block lands. */
  const balanceOn = async (p: JsonRpcProvider, token: string, owner: string): Promise<bigint> => {
    const rpc = new JsonRpcClient(devnet.rpcUrls[p === origin ? 'ethereum' : 'base']!);
    if (token === NATIVE) return BigInt(await rpc.call<string>('eth_getBalance', [owner, 'latest']));
    return BigInt(await rpc.call<string>('eth_call', [{ to: token, data: ERC20.encodeFunctionData('balanceOf', [owner]) }, 'latest']));
  };
  const messagesFor = (d: BridgeDepositInfo): string[] => lines.filter((l) => l['requestId'] === d.requestId).map((l) => l.msg);
  const waitFor = async (what: string, check: () => Promise<boolean> | boolean, timeoutMs = 30_000): Promise<void> => {
    const started = Date.now();
    while (!(await check())) {
      if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; filler log:\n${lines.slice(-30).map((l) => JSON.stringify(l, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))).join('\n')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  /** Approval (as the API answers it, with outputToken) and the order, sent as they are. */
  async function send(inputKey: string, amount: bigint, outputKey: string, extra: { partner?: string; feePercentage?: number; slippageTolerancePercentage?: number } = {}): Promise<{ order: OrderReply; deposit: BridgeDepositInfo; before: bigint; sentAt: number }> {
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
    const sentAt = Date.now();
    expect(receipt!.status).toBe(1);
    expect(receipt!.gasUsed).toBeLessThan(BigInt(order.tx!.gasLimit!));
    const [deposit] = await provider.findDeposit('ethereum', receipt!.hash);
    // The deposit names the final token and asks for the order's minimum of it.
    expect(deposit).toMatchObject({ outputToken: expect.stringMatching(new RegExp(`^${outToken}$`, 'i')), outputAmount: BigInt(order.context!.minOutputAmount), recipient: wallet.address, refundTo: wallet.address, destinationNetwork: 'base' });
    return { order, deposit: deposit!, before, sentAt };
  }

  /** send(), then wait for the filler to pay the recipient on base and settle. */
  async function run(name: string, inputKey: string, amount: bigint, outputKey: string, extra: Parameters<typeof send>[3] = {}): Promise<{ order: OrderReply; deposit: BridgeDepositInfo; received: bigint }> {
    const { order, deposit, before, sentAt } = await send(inputKey, amount, outputKey, extra);
    const outToken = outputKey.split(':')[1]!;
    let received = 0n;
    await waitFor('the filler to pay on base', async () => {
      received = (await balanceOn(destination, outToken, wallet.address)) - before;
      return received > 0n;
    });
    timings.push({ name, ms: Date.now() - sentAt });
    await waitFor('the settlement', async () => (await provider.depositState('ethereum', deposit.requestId)) === 'settled');
    // The chain shows the settlement as soon as it is mined; the filler logs it once its receipt is back.
    await waitFor('the filler to log the settlement', () => messagesFor(deposit).includes('settled'));
    // What the recipient got is what the fill says, at least the minimum.
    const fill = await provider.findFill('base', 1, deposit.requestId);
    expect(fill).toMatchObject({ amount: received, recipient: wallet.address });
    expect(received).toBeGreaterThanOrEqual(BigInt(order.context!.minOutputAmount));
    return { order, deposit, received };
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
    expect(BigInt(c.minOutputAmount)).toBeLessThanOrEqual(BigInt(c.outputAmount));
    expect(c.minOutputAmountUsd).toBeLessThanOrEqual(c.outputAmountUsd);
    expect(new Date(c.expiry!).getTime()).toBeGreaterThan(Date.now());
  }

  /** The destination leg is described in the order, and its gas is the filler's (not in tx.gasLimit). */
  function expectDestinationLeg(order: OrderReply, outputKey: string): void {
    const c = order.context!;
    const d = c.rawParams!['destination'] as Record<string, string>;
    expect(d).toMatchObject({ network: 'base', outputToken: outputKey, expectedOutput: c.outputAmount, gasPaidBy: 'filler' });
    expect(BigInt(d['gasEstimate']!)).toBeGreaterThan(0n);
    expect(c.route[c.route.length - 1]).toBe(outputKey);
    expect(c.route).toContain(d['inputToken']);
    expect(c.steps.some((s) => s.startsWith('A filler spends'))).toBe(true);
    expect(c.steps.some((s) => s.startsWith('  on base: '))).toBe(true);
    // One tolerance over both legs: the deposit asks for outputAmount less the order's slippage.
    expect(BigInt(c.minOutputAmount)).toBe((BigInt(c.outputAmount) * BigInt(1_000_000 - Math.round(c.slippageTolerancePercentage * 10_000))) / 1_000_000n);
  }

  /** The filler's destination swap for this deposit: it received at least what the deposit asks, and paid all of it. */
  function swapOf(deposit: BridgeDepositInfo, received: bigint): (typeof filler.swaps)[number] {
    const swap = filler.swaps.find((s) => s.requestId === deposit.requestId);
    expect(swap).toBeDefined();
    expect(swap!.received).toBe(received);
    expect(swap!.received).toBeGreaterThanOrEqual(deposit.outputAmount);
    expect(swap!.gasUsed).toBeGreaterThan(0n);
    expect(messagesFor(deposit)).toEqual(expect.arrayContaining(['swap sent', 'swapped', 'fill sent', 'filled', 'settled']));
    return swap!;
  }

  it('bridges USDC from ethereum to base: the recipient receives exactly outputAmount; the partner fee and the bridge fee are itemised', async () => {
    const partner = '0x000000000000000000000000000000000000bEEF';
    const { order, received } = await run('USDC -> USDC', key(eth, 'USDC'), 1_000_000_000n, key(base, 'USDC'), { partner, feePercentage: 0.1 });
    expectCrossChainShape(order);
    const c = order.context!;
    expect(received).toBe(BigInt(c.outputAmount));
    expect(c.minOutputAmount).toBe(c.outputAmount);
    expect(c.slippageTolerancePercentage).toBe(0); // nothing is swapped: the bridge is exact
    expect(c.route).toEqual([key(eth, 'USDC'), key(base, 'USDC')]);
    expect(c.rawParams!['destination']).toBeNull();
    expect(c.feeCosts[0]).toMatchObject({ name: 'partner fee', recipient: partner.toLowerCase(), amount: '1000000', included: true });
    // 999 USDC bridged: 0.05 % fee
    expect(c.feeCosts[1]).toMatchObject({ name: 'bridge fee', token: key(eth, 'USDC'), amount: '499500', included: true });
    expect(BigInt(c.outputAmount)).toBe(999_000_000n - 499_500n);
    expect(await balanceOn(origin, manifestToken(eth, 'USDC').address, partner)).toBe(1_000_000n);
    const estimate = await estimates.execute({ inputToken: key(eth, 'USDC'), inputAmount: '1000000000', outputToken: key(base, 'USDC') });
    expect(estimate.context).toMatchObject({ simulated: false });
    // no partner fee in the estimate
    expect(BigInt(estimate.outputAmount)).toBeGreaterThan(BigInt(c.outputAmount));
  });

  it('swaps on the origin first (WBTC -> USDC on ethereum), then bridges: the recipient gets all the swap produced, less the bridge fee', async () => {
    const funder = new Wallet(TEST_ACCOUNTS[0]!.privateKey, origin);
    const wbtc = manifestToken(eth, 'WBTC').address;
    await (await funder.sendTransaction({ to: wbtc, data: ERC20.encodeFunctionData('transfer', [wallet.address, 10_000_000n]) })).wait();
    const { order, deposit, received } = await run('WBTC -> USDC (origin swap)', key(eth, 'WBTC'), 5_000_000n, key(base, 'USDC'));
    expectCrossChainShape(order);
    const c = order.context!;
    // WBTC, then any hops of the origin swap, USDC on ethereum, USDC on base
    expect(c.route[0]).toBe(key(eth, 'WBTC'));
    expect(c.route.slice(-2)).toEqual([key(eth, 'USDC'), key(base, 'USDC')]);
    expect(c.slippageTolerancePercentage).toBe(1);
    // The graph predicts the swap exactly: outputAmount is what arrives; the deposit's minimum is below it.
    expect(received).toBe(BigInt(c.outputAmount));
    expect(deposit.outputAmount).toBeLessThan(received);
    // Pinned to both graphs' blocks: the origin swap's snapshot and the destination graph's head.
    expect(c.pinnedBlocks.map((p) => p.network)).toEqual(['ethereum', 'base']);
    for (const p of c.pinnedBlocks) {
      const head = harness.graphs.get(p.network as 'ethereum' | 'base').head;
      expect(p).toEqual({ network: p.network, blockNumber: String(head.blockNumber), blockHash: head.blockHash });
    }
  });

  it('takes native ETH in and delivers WETH on base', async () => {
    const before = await origin.getBalance(wallet.address);
    const { order, received } = await run('ETH -> WETH', `ethereum:${NATIVE}`, parseEther('0.5'), key(base, 'WETH'));
    expectCrossChainShape(order);
    expect(order.tx!.value).toBe(parseEther('0.5').toString());
    expect(received).toBe(BigInt(order.context!.outputAmount));
    expect(before - (await origin.getBalance(wallet.address))).toBeGreaterThanOrEqual(parseEther('0.5'));
  });

  it('USDC on ethereum into a vault share on base: the filler bridges USDC and deposits it into the vault for the recipient', async () => {
    const output = vault(base, 'steakUSDC');
    const estimate = await estimates.execute({ inputToken: key(eth, 'USDC'), inputAmount: '2000000000', outputToken: output, slippageTolerancePercentage: 1 });
    const { order, deposit, received } = await run('USDC -> steakUSDC (vault on base)', key(eth, 'USDC'), 2_000_000_000n, output);
    expectCrossChainShape(order);
    expectDestinationLeg(order, output);
    const c = order.context!;
    expect(c.route).toEqual([key(eth, 'USDC'), key(base, 'USDC'), output]);
    expect(c.rawParams!['destination']).toMatchObject({ inputToken: key(base, 'USDC'), inputAmount: String(2_000_000_000n - 1_000_000n) });
    // A vault deposit is exact: everything quoted arrives.
    expect(received).toBe(BigInt(c.outputAmount));
    expect(estimate).toMatchObject({ outputToken: output, outputAmount: c.outputAmount, minOutputAmount: c.minOutputAmount });
    const swap = swapOf(deposit, received);
    expect(swap).toMatchObject({ inputAmount: 2_000_000_000n - 1_000_000n, outputToken: expect.stringMatching(new RegExp(`^${output.split(':')[1]}$`, 'i')) });
  });

  it('native ETH on ethereum into a Uniswap V2 LP share on base: a zap on the destination', async () => {
    const output = v2Pair(base, 'WETH', 'USDC');
    const { order, deposit, received } = await run('ETH -> WETH/USDC LP (zap on base)', `ethereum:${NATIVE}`, parseEther('1'), output);
    expectCrossChainShape(order);
    expectDestinationLeg(order, output);
    expect(order.tx!.value).toBe(parseEther('1').toString());
    expect(order.context!.steps.some((s) => s.includes('Add liquidity'))).toBe(true);
    swapOf(deposit, received);
    // The zap is predicted from the graph; the chain pays within a hair of it.
    const expected = BigInt(order.context!.outputAmount);
    expect(received * 1000n).toBeGreaterThanOrEqual(expected * 999n);
  });

  it('USDC on ethereum into native ETH on base: the recipient is paid in the native coin', async () => {
    const output = `base:${NATIVE}`;
    const { order, deposit, received } = await run('USDC -> native ETH on base', key(eth, 'USDC'), 3_000_000_000n, output);
    expectCrossChainShape(order);
    expectDestinationLeg(order, output);
    expect(order.context!.steps.some((s) => s.includes('into ETH'))).toBe(true);
    swapOf(deposit, received);
    // ~3000 USDC of ETH at the devnet's ~$3,000
    expect(received).toBeGreaterThan(parseEther('0.9'));
    expect(received * 1000n).toBeGreaterThanOrEqual(BigInt(order.context!.outputAmount) * 999n);
  });

  it('answers 400 for a permit, an unknown output token, a network without a bridge route, tiny amounts and pools too small for the destination leg', async () => {
    const sender = wallet.address.toLowerCase();
    const refuse = async (p: Promise<unknown>, message: RegExp): Promise<void> => {
      const e = (await p.then(() => undefined, (err: unknown) => err)) as ServiceError | undefined;
      expect({ code: e?.code, message: e?.message }).toEqual({ code: ErrorCode.ERROR_CODE_BAD_REQUEST, message: expect.stringMatching(message) });
    };
    await refuse(orders.execute({ sender, inputToken: key(eth, 'USDC'), inputAmount: '1000000', outputToken: key(base, 'USDC'), permitSignature: `0x${'11'.repeat(65)}` }), /permitSignature is not accepted on cross-chain orders/);
    await refuse(orders.execute({ sender, inputToken: key(eth, 'USDC'), inputAmount: '1000000', outputToken: `base:0x${'12'.repeat(20)}` }), /unknown outputToken base:0x1212.*not a supported token on base/);
    await refuse(orders.execute({ sender, inputToken: key(eth, 'USDC'), inputAmount: '1000000', outputToken: `arbitrum:${NATIVE}` }), /network arbitrum is not enabled on this service/);
    await refuse(estimates.execute({ inputToken: key(eth, 'USDC'), inputAmount: '10', outputToken: key(base, 'USDC') }), /do not cover the bridge fee/);
    await refuse(estimates.execute({ inputToken: key(eth, 'USDC'), inputAmount: '1000000', outputToken: key(base, 'USDC'), explain: true }), /explain=true is available for same-chain orders only/);
    await refuse(estimates.execute({ inputToken: key(eth, 'USDC'), inputAmount: '10', outputToken: vault(base, 'steakUSDC') }), /do not cover the bridge fee/);
    await refuse(estimates.execute({ inputToken: key(eth, 'USDC'), inputAmount: (10n ** 16n).toString(), outputToken: key(base, 'DEGEN') }), /amount too large/);
  });

  it('a destination swap that would deliver less than the deposit asks is not run: no fill, and the deposit is refunded on ethereum after its deadline', async () => {
    filler.setMode('offline');
    const output = vault(base, 'steakUSDC');
    const vaultAddress = output.split(':')[1]!;
    const { order, deposit, before } = await send(key(eth, 'USDC'), 500_000_000n, output, { slippageTolerancePercentage: 0.5 });
    expectDestinationLeg(order, output);
    expect(deposit.inputToken.toLowerCase()).toBe(manifestToken(eth, 'USDC').address.toLowerCase()); // USDC is bridged as it is
    const userBefore = await balanceOn(origin, deposit.inputToken, wallet.address);

    // While the deposit waits, the vault's share price rises 2 % (a donation of assets): the
    // 499.75 USDC that arrive now buy ~2 % fewer shares than quoted, more than the 0.5 % allowed.
    const donor = new Wallet(TEST_ACCOUNTS[1]!.privateKey, destination);
    const totalAssets = BigInt(await new JsonRpcClient(devnet.rpcUrls['base']!).call<string>('eth_call', [{ to: vaultAddress, data: ERC20.encodeFunctionData('totalAssets') }, 'latest']));
    await (await donor.sendTransaction({ to: manifestToken(base, 'USDC').address, data: ERC20.encodeFunctionData('transfer', [vaultAddress, (totalAssets * 2n) / 100n]) })).wait();

    filler.setMode('normal');
    await waitFor('the filler to refuse the destination swap', () => messagesFor(deposit).includes('destination swap would deliver less than the deposit asks; not filling'));
    const refusal = lines.find((l) => l['requestId'] === deposit.requestId && l.msg.startsWith('destination swap would deliver less'))!;
    expect(refusal['needed']).toBe(deposit.outputAmount);
    expect(refusal['expected'] as bigint).toBeLessThan(deposit.outputAmount);
    await new Promise((r) => setTimeout(r, 1_500)); // several passes and retries: still nothing
    expect(await provider.depositState('ethereum', deposit.requestId)).toBe('open');
    expect(await provider.findFill('base', 1, deposit.requestId)).toBeUndefined();
    expect(filler.swaps.some((s) => s.requestId === deposit.requestId)).toBe(false);
    expect(await balanceOn(destination, vaultAddress, wallet.address)).toBe(before);

    // Past fillDeadline + the escrow's refund grace on both chains (anvil time control): the filler refunds.
    const now = (await origin.getBlock('latest'))!.timestamp;
    const ahead = deposit.fillDeadline - now + Number(BRIDGE_REFUND_GRACE) + 1;
    for (const p of [origin, destination]) {
      await p.send('evm_increaseTime', [toBeHex(ahead)]);
      await p.send('evm_mine', []);
    }
    await waitFor('the refund', async () => (await provider.depositState('ethereum', deposit.requestId)) === 'refunded');
    expect(await provider.findRefund('ethereum', deposit.requestId)).toMatchObject({ amount: deposit.inputAmount, refundTo: wallet.address });
    expect((await balanceOn(origin, deposit.inputToken, wallet.address)) - userBefore).toBe(deposit.inputAmount);
    expect(deposit.inputAmount).toBe(500_000_000n);
    expect(await provider.findFill('base', 1, deposit.requestId)).toBeUndefined();
    expect(await balanceOn(destination, vaultAddress, wallet.address)).toBe(before);
    await waitFor('the refund log line', () => messagesFor(deposit).includes('refunded'));
    expect(lines.find((l) => l['requestId'] === deposit.requestId && l.msg === 'refunded')).toMatchObject({ reason: 'destination swap would deliver less than the deposit asks; not filling' });
  });
});
