/**
 * Cross-chain orders on Across (CROSS_CHAIN_BRIDGE=across), on a devnet of this file's own
 * (ethereum -> base, the test devnet's saved build with Across's SpokePools, TEST_DEVNET_BASE_PORT
 * + 80): the quote service, configured from the devnet manifest, builds the origin transaction
 * (Router.executeBridge: the executor deposits all of the bridged token through the provider's
 * SpokePool.deposit call), a test wallet sends the API's approval and order as they are, the
 * devnet's Across relayer fills on base and the recipient's balance is read there. Private because
 * the relayer acts on every Across deposit it sees. Destination legs (a swap or zap on base, or
 * WETH passed on to an externally owned account) run in the fill, from the deposit's message.
 */
import { Interface, JsonRpcProvider, type TransactionReceipt, Wallet, getAddress, parseEther, toBeHex } from 'ethers';
import { AcrossBridgeProvider, acrossConfigFromManifest, type AcrossManifestLike, type BridgeDepositInfo } from '@tokensvc/bridge';
import { JsonRpcClient } from '@tokensvc/chain';
import { TEST_ACCOUNTS, manifestPlatform, manifestToken, networkManifest, type NetworkManifest, relayerKeyEnv } from '@tokensvc/devnet';
import type { Network } from '@tokensvc/domain';
import { ErrorCode, type OrderReply } from '@tokensvc/messages';
import { dropDatabase, migrate } from '@tokensvc/persistence';
import {
  AcrossDataWorker,
  AcrossRelayer,
  INFRA,
  acrossNetworks,
  acrossRelayerAccount,
  createTestDatabaseUrl,
  fundAcrossRelayer,
  startDevnet,
  type DevnetHandle,
} from '@tokensvc/testing';
import type { ServiceError } from '@tokensvc/transport';
import { TestPoolEvents } from '../testing/pool-events';
import { startQuoteHarness, type QuoteHarness } from '../testing/quote-harness';
import { seedReadModels } from '../testing/read-models';
import { ApprovalUseCase } from './approval.usecase';
import { CrossChainOrders } from './cross-chain-orders';

jest.setTimeout(180_000);

const ERC20 = new Interface([
  'function balanceOf(address) view returns (uint256)',
  'function transfer(address,uint256) returns (bool)',
  'function totalAssets() view returns (uint256)',
]);
const NATIVE = '0x0000000000000000000000000000000000000000';

describe('cross-chain orders on Across (devnet SpokePools and relayer)', () => {
  let devnet: DevnetHandle;
  let eth: NetworkManifest;
  let base: NetworkManifest;
  let databaseUrl: string;
  let events: TestPoolEvents;
  let harness: QuoteHarness;
  let provider: AcrossBridgeProvider;
  let relayer: AcrossRelayer;
  let origin: JsonRpcProvider;
  let orders: CrossChainOrders;
  let approvals: ApprovalUseCase;
  let wallet: Wallet;
  const key = (n: NetworkManifest, symbol: string): string => `${n.network}:${manifestToken(n, symbol).address.toLowerCase()}`;
  const vault = (n: NetworkManifest, symbol: string): string =>
    `${n.network}:${manifestPlatform(n, 'erc4626-vaults')
      .vaults.find((v) => v.symbol === symbol)!
      .address.toLowerCase()}`;
  const rpc = (n: Network): JsonRpcClient => new JsonRpcClient(devnet.rpcUrls[n]!);

  beforeAll(async () => {
    // Apart from the shared test devnet and the other Across files (TEST_DEVNET_BASE_PORT moves them all).
    devnet = await startDevnet({
      networks: ['ethereum', 'base'],
      basePort: Number(process.env['TEST_DEVNET_BASE_PORT'] ?? 18545) + 80,
      log: () => undefined,
    });
    eth = networkManifest(devnet.manifest, 'ethereum');
    base = networkManifest(devnet.manifest, 'base');
    databaseUrl = createTestDatabaseUrl('quote_across');
    await migrate(databaseUrl);
    for (const n of [eth, base]) await seedReadModels(databaseUrl, rpc(n.network), n);
    events = await TestPoolEvents.create(INFRA.nats, 'across');
    harness = await startQuoteHarness({
      databaseUrl,
      natsUrl: INFRA.nats,
      rpcUrl: devnet.rpcUrls['ethereum']!,
      manifestPath: devnet.manifestPath,
      relayerKeys: relayerKeyEnv(devnet.manifestPath),
      stream: events.stream,
      prefix: events.prefix,
      env: {
        NETWORKS: 'ethereum,base',
        RPC_URL_BASE: devnet.rpcUrls['base']!,
        CROSS_CHAIN_BRIDGE: 'across',
        RELAY_QUEUE_PREFIX: `xacross${Date.now().toString(36)}`,
      },
    });
    orders = harness.app.get(CrossChainOrders);
    approvals = harness.app.get(ApprovalUseCase);
    const rpcUrls = devnet.rpcUrls as Partial<Record<Network, string>>;
    provider = new AcrossBridgeProvider({ config: acrossConfigFromManifest(devnet.manifest as unknown as AcrossManifestLike), rpcUrls });
    const relayerKey = acrossRelayerAccount().privateKey;
    await fundAcrossRelayer({ manifest: devnet.manifest, rpcUrls, relayerKey });
    relayer = new AcrossRelayer({ networks: acrossNetworks(devnet.manifest, rpcUrls), relayerKey, pollMs: 100 });
    await relayer.start();
    origin = new JsonRpcProvider(devnet.rpcUrls['ethereum']!, 1, { staticNetwork: true, cacheTimeout: -1 });
    origin.pollingInterval = 20;
    wallet = new Wallet(TEST_ACCOUNTS[2]!.privateKey, origin);
  }, 240_000);

  afterAll(async () => {
    await relayer?.stop();
    origin?.destroy();
    await harness?.close();
    await events?.dispose();
    await devnet?.stop();
    if (databaseUrl) await dropDatabase(databaseUrl);
  });

  /** Balances through the project's RPC client, which retries what a history-less anvil answers while a block lands. */
  const balanceOn = async (n: Network, token: string, owner: string): Promise<bigint> => {
    if (token === NATIVE) return BigInt(await rpc(n).call<string>('eth_getBalance', [owner, 'latest']));
    return BigInt(await rpc(n).call<string>('eth_call', [{ to: token, data: ERC20.encodeFunctionData('balanceOf', [owner]) }, 'latest']));
  };
  const waitFor = async (what: string, check: () => Promise<boolean> | boolean, timeoutMs = 30_000): Promise<void> => {
    const started = Date.now();
    while (!(await check())) {
      if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const refuse = async (p: Promise<unknown>, message: RegExp): Promise<void> => {
    const e = (await p.then(
      () => undefined,
      (err: unknown) => err,
    )) as ServiceError | undefined;
    expect({ code: e?.code, message: e?.message }).toEqual({
      code: ErrorCode.ERROR_CODE_BAD_REQUEST,
      message: expect.stringMatching(message),
    });
  };

  /** Approval and order as the API answers them, sent as they are; the relayer fills on base; the recipient's balance is read there. */
  async function run(
    inputKey: string,
    amount: bigint,
    outputKey: string,
    extra: { partner?: string; feePercentage?: number } = {},
  ): Promise<{ order: OrderReply; deposit: BridgeDepositInfo; received: bigint; receipt: TransactionReceipt }> {
    const sender = wallet.address.toLowerCase();
    const outToken = outputKey.split(':')[1]!;
    if (!inputKey.endsWith(NATIVE)) {
      const approval = await approvals.execute({ sender, inputToken: inputKey, inputAmount: amount.toString(), outputToken: outputKey });
      expect(approval.context).toMatchObject({ spender: eth.contracts.router.toLowerCase() });
      if (approval.approve) await (await wallet.sendTransaction({ to: approval.approve.to, data: approval.approve.data })).wait();
    }
    const order = await orders.build({
      sender,
      inputToken: inputKey,
      inputAmount: amount.toString(),
      outputToken: outputKey,
      slippageTolerancePercentage: 1,
      ...extra,
    });
    expect(order.context!.target).toBe(eth.contracts.router.toLowerCase());
    expect(order.context!.rawParams!['bridge']).toMatchObject({ provider: 'across', destinationChainId: 8453 });
    const before = await balanceOn('base', outToken, sender);
    const sent = await wallet.sendTransaction({
      to: order.tx!.to,
      data: order.tx!.data,
      value: BigInt(order.tx!.value ?? '0'),
      gasLimit: BigInt(order.tx!.gasLimit!),
    });
    const receipt = (await sent.wait())!;
    expect(receipt.status).toBe(1);
    expect(receipt.gasUsed).toBeLessThan(BigInt(order.tx!.gasLimit!));
    const [deposit, ...more] = await provider.findDeposit('ethereum', receipt.hash);
    expect(more).toEqual([]);
    // The Router's executor deposited into the SpokePool; refunds go to the sender.
    expect(deposit).toMatchObject({ destinationNetwork: 'base', refundTo: wallet.address });
    let received = 0n;
    await waitFor('the relayer to pay on base', async () => {
      received = (await balanceOn('base', outToken, sender)) - before;
      return received > 0n;
    });
    const fill = await provider.findFill('base', 1, deposit!.requestId);
    expect(fill).toMatchObject({ amount: deposit!.outputAmount, recipient: deposit!.recipient, filler: relayer.address });
    expect(await provider.depositState('ethereum', deposit!.requestId)).toBe('settled');
    return { order, deposit: deposit!, received, receipt };
  }

  /** Same-asset: the relayer pays the sender the deposit's outputAmount itself, the order's minimum. */
  async function runDirect(
    inputKey: string,
    amount: bigint,
    outputKey: string,
    extra: { partner?: string; feePercentage?: number } = {},
  ): Promise<{ order: OrderReply; deposit: BridgeDepositInfo; received: bigint; receipt: TransactionReceipt }> {
    const r = await run(inputKey, amount, outputKey, extra);
    expect(r.order.context!.rawParams!['destination']).toBeNull();
    expect(r.deposit).toMatchObject({
      outputAmount: BigInt(r.order.context!.minOutputAmount),
      recipient: wallet.address,
      refundTo: wallet.address,
    });
    expect(r.received).toBe(r.deposit.outputAmount);
    return r;
  }

  /**
   * A destination leg: the deposit pays the bridged asset to base's MulticallHandler with a message,
   * the handler runs Router.execute with it in the fill, and the sender receives at least the
   * order's minimum of the final token; nothing is left on the handler.
   */
  async function runWithDestinationLeg(
    inputKey: string,
    amount: bigint,
    outputKey: string,
  ): Promise<{ order: OrderReply; received: bigint }> {
    const r = await run(inputKey, amount, outputKey);
    const c = r.order.context!;
    // the bridged asset that delivers most (USDC or WETH)
    const bridged = (c.rawParams!['bridge'] as { bridgedToken: string }).bridgedToken;
    expect(r.deposit).toMatchObject({
      recipient: getAddress(base.contracts.acrossMulticallHandler!),
      outputToken: manifestToken(base, bridged).address,
    });
    expect(c.rawParams!['destination']).toMatchObject({
      network: 'base',
      outputToken: outputKey,
      gasPaidBy: 'relayer',
      runBy: 'bridge handler contract',
      inputAmount: r.deposit.outputAmount.toString(),
    });
    expect(r.received).toBeGreaterThanOrEqual(BigInt(c.minOutputAmount));
    expect(c.steps.some((s) => s.includes('handler contract') && s.includes('through the Router'))).toBe(true);
    expect(await balanceOn('base', manifestToken(base, bridged).address, base.contracts.acrossMulticallHandler!)).toBe(0n);
    return { order: r.order, received: r.received };
  }

  it('USDC ethereum -> USDC base: built through the Router, deposited into the SpokePool, filled by the relayer; the recipient receives outputAmount', async () => {
    const { order, deposit, received } = await runDirect(key(eth, 'USDC'), 1_000_000_000n, key(base, 'USDC'));
    const c = order.context!;
    // 0.05 % (relayer 4 bps + LP 1 bp, the configured model), exact: nothing is swapped
    expect(c.feeCosts).toEqual([
      expect.objectContaining({ name: 'bridge fee', token: key(eth, 'USDC'), amount: '500000', included: true }),
    ]);
    expect(c.outputAmount).toBe('999500000');
    expect(c.minOutputAmount).toBe(c.outputAmount);
    expect(c.route).toEqual([key(eth, 'USDC'), key(base, 'USDC')]);
    expect(deposit).toMatchObject({
      inputToken: manifestToken(eth, 'USDC').address,
      inputAmount: 1_000_000_000n,
      outputToken: manifestToken(base, 'USDC').address,
    });
    expect(received).toBe(999_500_000n);
    expect(c.steps.some((s) => s.includes('into the across bridge on ethereum'))).toBe(true);
    const estimate = await orders.estimate({ inputToken: key(eth, 'USDC'), inputAmount: '1000000000', outputToken: key(base, 'USDC') });
    expect(estimate.outputAmount).toBe('999500000');
  });

  it('native ETH ethereum -> ETH base: the Router wraps it, deposits WETH, and Across pays the EOA recipient in ETH', async () => {
    const before = await origin.getBalance(wallet.address);
    const { order, deposit, received } = await runDirect(`ethereum:${NATIVE}`, parseEther('0.5'), `base:${NATIVE}`);
    expect(order.tx!.value).toBe(parseEther('0.5').toString());
    expect(deposit).toMatchObject({
      inputToken: manifestToken(eth, 'WETH').address,
      inputAmount: parseEther('0.5'),
      outputToken: manifestToken(base, 'WETH').address,
    });
    expect(received).toBe(BigInt(order.context!.outputAmount));
    expect(received).toBe(parseEther('0.5') - parseEther('0.00025'));
    expect(before - (await origin.getBalance(wallet.address))).toBeGreaterThanOrEqual(parseEther('0.5'));
  });

  it('native ETH ethereum -> USDC base (origin swap): the executor deposits exactly the origin minimum and the Router sweeps the rest back to the sender', async () => {
    const usdc = manifestToken(eth, 'USDC').address;
    const before = await balanceOn('ethereum', usdc, wallet.address);
    const { order, deposit, receipt } = await runDirect(`ethereum:${NATIVE}`, parseEther('1'), key(base, 'USDC'));
    const c = order.context!;
    expect(c.residualTokens).toContain(key(eth, 'USDC'));
    expect(BigInt(c.outputAmount)).toBe(deposit.outputAmount);
    const swept = (await balanceOn('ethereum', usdc, wallet.address)) - before;
    // What the swap made above the deposit came back (the pool's price moves with other tests: only its sign is known).
    expect(swept).toBeGreaterThanOrEqual(0n);
    expect(deposit.inputAmount).toBe(BigInt((c.rawParams!['order'] as { minOutputAmount: string }).minOutputAmount));
    expect(receipt.logs.length).toBeGreaterThan(0);
  });

  it('USDC ethereum -> DEGEN base: the destination swap rides on the deposit message and runs in the fill', async () => {
    const { order } = await runWithDestinationLeg(key(eth, 'USDC'), 1_000_000_000n, key(base, 'DEGEN'));
    expect(order.context!.route[0]).toBe(key(eth, 'USDC'));
    expect(order.context!.route.at(-1)).toBe(key(base, 'DEGEN'));
  });

  it('USDC ethereum -> a vault share (steakUSDC) on base: the handler zaps into the vault and the sender holds the shares', async () => {
    const vault = `base:${manifestPlatform(base, 'erc4626-vaults')
      .vaults.find((v) => v.symbol === 'steakUSDC')!
      .address.toLowerCase()}`;
    await runWithDestinationLeg(key(eth, 'USDC'), 2_000_000_000n, vault);
  });

  it('native ETH ethereum -> an LP share (uniswap-v2 WETH/USDC) on base: origin leg wraps, the handler zaps into the pair', async () => {
    const pair = manifestPlatform(base, 'uniswap-v2').pools.find((p) => ['WETH/USDC', 'USDC/WETH'].includes(p.pair))!;
    await runWithDestinationLeg(`ethereum:${NATIVE}`, parseEther('0.5'), `base:${pair.address.toLowerCase()}`);
  });

  it('itemises the partner fee and the bridge fee: the partner is paid on ethereum, the bridge keeps 0.05 % of what is bridged', async () => {
    const partner = '0x000000000000000000000000000000000000bEEF';
    const { order, received } = await runDirect(key(eth, 'USDC'), 1_000_000_000n, key(base, 'USDC'), { partner, feePercentage: 0.1 });
    const c = order.context!;
    expect(c.slippageTolerancePercentage).toBe(0); // nothing is swapped: the bridge is exact
    expect(c.feeCosts[0]).toMatchObject({ name: 'partner fee', recipient: partner.toLowerCase(), amount: '1000000', included: true });
    expect(c.feeCosts[1]).toMatchObject({ name: 'bridge fee', token: key(eth, 'USDC'), amount: '499500', included: true });
    expect(received).toBe(999_000_000n - 499_500n);
    expect(await balanceOn('ethereum', manifestToken(eth, 'USDC').address, partner)).toBe(1_000_000n);
  });

  it('swaps on the origin first (WBTC -> USDC on ethereum): pinned to both graphs, the deposit is the origin minimum and the recipient gets what it makes', async () => {
    const funder = new Wallet(TEST_ACCOUNTS[0]!.privateKey, origin);
    const wbtc = manifestToken(eth, 'WBTC').address;
    await (await funder.sendTransaction({ to: wbtc, data: ERC20.encodeFunctionData('transfer', [wallet.address, 10_000_000n]) })).wait();
    const { order, deposit, received } = await runDirect(key(eth, 'WBTC'), 5_000_000n, key(base, 'USDC'));
    const c = order.context!;
    expect(c.route[0]).toBe(key(eth, 'WBTC'));
    expect(c.route.slice(-2)).toEqual([key(eth, 'USDC'), key(base, 'USDC')]);
    expect(c.slippageTolerancePercentage).toBe(1);
    expect(received).toBe(BigInt(c.outputAmount));
    expect(deposit.inputAmount).toBe(BigInt((c.rawParams!['order'] as { minOutputAmount: string }).minOutputAmount));
    expect(c.pinnedBlocks.map((p) => p.network)).toEqual(['ethereum', 'base']);
    for (const p of c.pinnedBlocks) {
      const head = harness.graphs.get(p.network as 'ethereum' | 'base').head;
      expect(p).toEqual({ network: p.network, blockNumber: String(head.blockNumber), blockHash: head.blockHash });
    }
  });

  it('USDC ethereum -> native ETH on base: swapped into WETH on ethereum (cheaper than a destination leg), Across pays the EOA recipient in ETH', async () => {
    const { order, deposit, received } = await runDirect(key(eth, 'USDC'), 3_000_000_000n, `base:${NATIVE}`);
    expect(order.context!.route.slice(-3)).toEqual([key(eth, 'WETH'), key(base, 'WETH'), `base:${NATIVE}`]);
    expect(deposit).toMatchObject({
      inputToken: manifestToken(eth, 'WETH').address,
      outputToken: manifestToken(base, 'WETH').address,
      recipient: wallet.address,
    });
    // ~3000 USDC of ETH at the devnet's ~$3,000
    expect(received).toBeGreaterThan(parseEther('0.9'));
  });

  /**
   * WETH asked for: a fill paid to the sender (an EOA) would arrive as ETH, so the deposit pays
   * base's MulticallHandler (a contract: paid in WETH) and its message, with no calls of its own,
   * drains all of it to the sender; nothing stays on the handler and no ETH arrives.
   */
  it('native ETH ethereum -> WETH base: the handler passes the WETH Across pays it on to the sender', async () => {
    const wethBase = manifestToken(base, 'WETH').address;
    const handler = base.contracts.acrossMulticallHandler!;
    const ethBefore = await balanceOn('base', NATIVE, wallet.address);
    const { order, deposit, received } = await run(`ethereum:${NATIVE}`, parseEther('0.5'), key(base, 'WETH'));
    const c = order.context!;
    expect(deposit).toMatchObject({
      inputToken: manifestToken(eth, 'WETH').address,
      inputAmount: parseEther('0.5'),
      outputToken: wethBase,
      recipient: getAddress(handler),
      refundTo: wallet.address,
    });
    expect(deposit.outputAmount).toBe(BigInt(c.minOutputAmount));
    expect(received).toBe(deposit.outputAmount);
    expect(received).toBe(parseEther('0.5') - parseEther('0.00025'));
    expect(c.route).toEqual([`ethereum:${NATIVE}`, key(base, 'WETH')]);
    const passedOn = { network: 'base', inputToken: key(base, 'WETH'), outputToken: key(base, 'WETH'), runBy: 'bridge handler contract' };
    expect(c.rawParams!['destination']).toMatchObject(passedOn);
    expect(c.steps.some((s) => s.includes("bridge's handler contract") && s.includes('passes all of it on to the recipient'))).toBe(true);
    expect(await balanceOn('base', wethBase, handler)).toBe(0n);
    expect(await balanceOn('base', NATIVE, wallet.address)).toBe(ethBefore);
  });

  // Built only: a swap on ethereum here would move the pool under the stale graph the last test quotes from.
  it('USDC ethereum -> WETH base: swapped into WETH on ethereum, then passed on by the handler (the order, and its estimate)', async () => {
    const sender = wallet.address.toLowerCase();
    const request = {
      inputToken: key(eth, 'USDC'),
      inputAmount: '1000000000',
      outputToken: key(base, 'WETH'),
      slippageTolerancePercentage: 1,
    };
    const order = await orders.build({ sender, ...request });
    const c = order.context!;
    expect(c.route.slice(-2)).toEqual([key(eth, 'WETH'), key(base, 'WETH')]);
    expect(c.rawParams!['bridge']).toMatchObject({
      bridgedToken: 'WETH',
      depositOutputToken: key(base, 'WETH'),
      depositOutputAmount: c.minOutputAmount,
    });
    expect(c.rawParams!['destination']).toMatchObject({ network: 'base', inputToken: key(base, 'WETH'), outputToken: key(base, 'WETH') });
    expect(BigInt(c.minOutputAmount)).toBeGreaterThan(parseEther('0.3'));
    const estimate = await orders.estimate(request);
    expect(estimate.context!.gasLimit).toBe(c.gasLimit);
  });

  it('refuses, with a 400 saying what to change: a network pair not served, an amount that does not cover the fees', async () => {
    const sender = wallet.address.toLowerCase();
    await refuse(
      orders.build({ sender, inputToken: key(eth, 'USDC'), inputAmount: '1000000', outputToken: `arbitrum:${NATIVE}` }),
      /no bridge route from ethereum to arbitrum|network arbitrum is not enabled/,
    );
    await refuse(
      orders.estimate({ inputToken: key(eth, 'USDC'), inputAmount: '2', outputToken: key(base, 'USDC') }),
      /send more than|send at least/,
    );
    // Into a vault every carried token is tried: 2 units of USDC do not cover Across's USDC fee, and through WETH (the
    // devnet's pools turn them into some wei, above Across's WETH fee) the order needs far more than the
    // auto slippage cap; either refusal says what to change.
    await refuse(
      orders.estimate({ inputToken: key(eth, 'USDC'), inputAmount: '2', outputToken: vault(base, 'steakUSDC') }),
      /send more than|send at least|auto slippage exceeded: .*set slippageTolerancePercentage explicitly/,
    );
    await refuse(
      orders.build({
        sender,
        inputToken: key(eth, 'USDC'),
        inputAmount: '1000000',
        outputToken: key(base, 'USDC'),
        permitSignature: `0x${'11'.repeat(65)}`,
      }),
      /permitSignature is not accepted on cross-chain orders/,
    );
    await refuse(
      orders.build({ sender, inputToken: key(eth, 'USDC'), inputAmount: '1000000', outputToken: `base:0x${'12'.repeat(20)}` }),
      /unknown outputToken base:0x1212.*not a supported token on base/,
    );
    await refuse(
      orders.estimate({ inputToken: key(eth, 'USDC'), inputAmount: '1000000', outputToken: key(base, 'USDC'), explain: true }),
      /explain=true is available for same-chain orders only/,
    );
    await refuse(
      orders.estimate({ inputToken: key(eth, 'USDC'), inputAmount: (10n ** 16n).toString(), outputToken: key(base, 'DEGEN') }),
      /amount too large/,
    );
  });

  describe('who is paid on base: the sender, or the recipient given, only where it can receive (issue 30)', () => {
    const CODE = '0x6080604052348015600f57600080fd5b50600160005260206000f3';
    const OTHER_CODE = '0x6080604052600260005260206000f3';
    const setCode = (n: Network, address: string, code: string): Promise<unknown> => rpc(n).call('anvil_setCode', [address, code]);
    const fresh = (): string => Wallet.createRandom().address.toLowerCase();
    const usdcOrder = (sender: string, recipient?: string): Promise<OrderReply> =>
      orders.build({
        sender,
        inputToken: key(eth, 'USDC'),
        inputAmount: '100000000',
        outputToken: key(base, 'USDC'),
        ...(recipient === undefined ? {} : { recipient }),
      });

    it('refuses a sender that is a contract on ethereum with no contract, or other code, at its address on base', async () => {
      const wallet1 = fresh();
      await setCode('ethereum', wallet1, CODE);
      await refuse(
        usdcOrder(wallet1),
        new RegExp(
          `sender ${wallet1} is a contract on ethereum with no contract at that address on base: .*funds could be lost; give a recipient you control on base \\(recipient=<address>\\)`,
        ),
      );
      await setCode('base', wallet1, OTHER_CODE);
      await refuse(
        usdcOrder(wallet1),
        new RegExp(`sender ${wallet1} is a contract on ethereum with different code at that address on base`),
      );
      // an explicit recipient is checked the same way
      await refuse(
        usdcOrder(wallet.address.toLowerCase(), wallet1),
        new RegExp(`recipient ${wallet1} is a contract on ethereum with different code at that address on base`),
      );
    });

    it('builds for a contract with the same code on both networks, and for an EIP-7702-delegated account (an EOA)', async () => {
      const multisig = fresh();
      await setCode('ethereum', multisig, CODE);
      await setCode('base', multisig, CODE);
      expect((await usdcOrder(multisig)).context).toMatchObject({ sender: multisig, recipient: multisig });
      const delegated = fresh();
      await setCode('ethereum', delegated, `0xef0100${'ab'.repeat(20)}`);
      expect((await usdcOrder(delegated)).context).toMatchObject({ sender: delegated, recipient: delegated });
    });

    // Small amounts into outputs whose price no earlier swap moved (the graphs of this file follow no
    // indexer: a stale pool price would make a destination leg miss its minimum, and the fill revert).
    it('pays the recipient given on base (direct fill, and a destination zap into a vault run by the handler), refunds would go to the sender; both executed on chain', async () => {
      const sender = wallet.address.toLowerCase();
      for (const outputKey of [key(base, 'USDC'), vault(base, 'steakUSDC')]) {
        const recipient = fresh();
        const amount = 100_000_000n;
        const approval = await approvals.execute({
          sender,
          inputToken: key(eth, 'USDC'),
          inputAmount: amount.toString(),
          outputToken: outputKey,
        });
        if (approval.approve) await (await wallet.sendTransaction({ to: approval.approve.to, data: approval.approve.data })).wait();
        const order = await orders.build({
          sender,
          recipient,
          inputToken: key(eth, 'USDC'),
          inputAmount: amount.toString(),
          outputToken: outputKey,
          slippageTolerancePercentage: 1,
        });
        expect(order.context).toMatchObject({ sender, recipient });
        const senderBefore = await balanceOn('base', outputKey.split(':')[1]!, sender);
        const receipt = (await (
          await wallet.sendTransaction({ to: order.tx!.to, data: order.tx!.data, gasLimit: BigInt(order.tx!.gasLimit!) })
        ).wait())!;
        const [deposit] = await provider.findDeposit('ethereum', receipt.hash);
        expect(deposit).toMatchObject({ refundTo: wallet.address });
        let received = 0n;
        await waitFor('the relayer to pay the recipient on base', async () => {
          received = await balanceOn('base', outputKey.split(':')[1]!, recipient);
          return received > 0n;
        });
        expect(received).toBeGreaterThanOrEqual(BigInt(order.context!.minOutputAmount));
        expect(await balanceOn('base', outputKey.split(':')[1]!, sender)).toBe(senderBefore);
      }
    });
  });

  // Last: it moves both chains' clocks past a fill deadline.
  it("a destination leg that would deliver less than the order's minimum makes the fill revert: no relayer fills, and Across refunds the deposit on ethereum after its deadline", async () => {
    const worker = new AcrossDataWorker({ networks: acrossNetworks(devnet.manifest, devnet.rpcUrls as Partial<Record<Network, string>>) });
    await worker.init();
    relayer.setMode('offline');
    const output = vault(base, 'steakUSDC');
    const vaultAddress = output.split(':')[1]!;
    const sender = wallet.address.toLowerCase();
    const approval = await approvals.execute({ sender, inputToken: key(eth, 'USDC'), inputAmount: '500000000', outputToken: output });
    if (approval.approve) await (await wallet.sendTransaction({ to: approval.approve.to, data: approval.approve.data })).wait();
    const order = await orders.build({
      sender,
      inputToken: key(eth, 'USDC'),
      inputAmount: '500000000',
      outputToken: output,
      slippageTolerancePercentage: 0.5,
    });
    const receipt = (await (
      await wallet.sendTransaction({ to: order.tx!.to, data: order.tx!.data, gasLimit: BigInt(order.tx!.gasLimit!) })
    ).wait())!;
    const [deposit] = await provider.findDeposit('ethereum', receipt.hash);
    // bridged as USDC or as WETH (after an origin swap), whichever makes more shares
    expect(deposit).toMatchObject({ recipient: getAddress(base.contracts.acrossMulticallHandler!), refundTo: wallet.address });
    const refunded = { token: deposit!.inputToken, amount: deposit!.inputAmount };
    const userBefore = await balanceOn('ethereum', refunded.token, wallet.address);
    const sharesBefore = await balanceOn('base', vaultAddress, wallet.address);

    // While the deposit waits, the vault's share price rises 2 % (a donation of assets): what
    // arrives now buys ~2 % fewer shares than quoted, more than the 0.5 % allowed.
    const donor = new Wallet(
      TEST_ACCOUNTS[1]!.privateKey,
      new JsonRpcProvider(devnet.rpcUrls['base']!, 8453, { staticNetwork: true, cacheTimeout: -1 }),
    );
    const totalAssets = BigInt(
      await rpc('base').call<string>('eth_call', [{ to: vaultAddress, data: ERC20.encodeFunctionData('totalAssets') }, 'latest']),
    );
    await (
      await donor.sendTransaction({
        to: manifestToken(base, 'USDC').address,
        data: ERC20.encodeFunctionData('transfer', [vaultAddress, (totalAssets * 2n) / 100n]),
      })
    ).wait();

    // The relayer comes back: every fill it tries reverts in the handler's calls (Router: less than the minimum), so it gives up.
    relayer.setMode('normal');
    await waitFor('the relayer to give the deposit up', () =>
      relayer.dropped.some((d) => d.deposit.depositId === BigInt(deposit!.requestId)),
    );
    expect(relayer.dropped.find((d) => d.deposit.depositId === BigInt(deposit!.requestId))!.reason).toMatch(/^fill failed 3 times/);
    expect(await provider.depositState('ethereum', deposit!.requestId)).toBe('open');
    expect(await provider.findFill('base', 1, deposit!.requestId)).toBeUndefined();
    expect(await balanceOn('base', vaultAddress, wallet.address)).toBe(sharesBefore);

    // Past the fill deadline on both chains (anvil time control): Across's data worker refunds it on ethereum.
    for (const n of ['ethereum', 'base'] as const) {
      const p = new JsonRpcProvider(devnet.rpcUrls[n]!, undefined, { staticNetwork: true });
      const now = (await p.getBlock('latest'))!.timestamp;
      await p.send('evm_increaseTime', [toBeHex(deposit!.fillDeadline - now + 5)]);
      await p.send('evm_mine', []);
      p.destroy();
    }
    const bundle = await worker.runBundle();
    worker.close();
    expect(bundle.payments).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: 'expired-deposit-refund', to: wallet.address, amount: refunded.amount })]),
    );
    expect(await provider.depositState('ethereum', deposit!.requestId)).toBe('refunded');
    expect(await provider.findRefund('ethereum', deposit!.requestId)).toMatchObject({ amount: refunded.amount, refundTo: wallet.address });
    expect((await balanceOn('ethereum', refunded.token, wallet.address)) - userBefore).toBe(refunded.amount);
    expect(await balanceOn('base', vaultAddress, wallet.address)).toBe(sharesBefore);
  });
});
