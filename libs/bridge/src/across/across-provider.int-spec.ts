/**
 * AcrossBridgeProvider on a devnet of its own (the test devnet's saved build, Across's SpokePools
 * included, on private ports): filled by the devnet's Across relayer and refunded by its data
 * worker (libs/devnet tooling, through the test harness). Private because the relayer and data
 * worker act on every Across deposit they see: on the shared test devnet they would fill, repay and
 * refund the deposits of libs/devnet's Across int-spec running beside this file (and it ours).
 * Every check reads the chains. The expiry test moves the ethereum and base clocks forward, last.
 */
import {
  Interface,
  JsonRpcProvider,
  JsonRpcSigner,
  MaxUint256,
  Wallet,
  ZeroAddress,
  getAddress,
  parseEther,
  parseUnits,
  toBeHex,
} from 'ethers';
import {
  AcrossDataWorker,
  AcrossRelayer,
  type DevnetHandle,
  acrossNetworks,
  acrossRelayerAccount,
  fundAcrossRelayer,
  startDevnet,
} from '@tokensvc/testing';
import type { Network } from '@tokensvc/domain';
import { NATIVE_TOKEN } from '../tokens';
import { BridgeQuoteError, type BridgeDepositCall, type BridgeQuote } from '../provider';
import { ACROSS_DEPOSIT_INPUT_AMOUNT_OFFSET, acrossSpokePoolInterface, toBytes32 } from './across-abi';
import { type AcrossBridgeConfig, acrossConfigFromManifest } from './across-config';
import { AcrossBridgeProvider } from './across-provider';
import { ConfiguredAcrossFees } from './fee-model';

jest.setTimeout(120_000);

type Manifest = Parameters<typeof fundAcrossRelayer>[0]['manifest'];
const ERC20 = new Interface([
  'function approve(address,uint256) returns (bool)',
  'function balanceOf(address) view returns (uint256)',
  'function mint(address,uint256)',
]);
const MINIMUM = { USDC: 1_000_000n, WETH: parseEther('0.0001'), ETH: parseEther('0.0001') };

async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('AcrossBridgeProvider on the devnet (Across SpokePools, devnet relayer and data worker)', () => {
  let devnet: DevnetHandle;
  let rpcUrls: Partial<Record<Network, string>>;
  let manifest: Manifest;
  let config: AcrossBridgeConfig;
  let provider: AcrossBridgeProvider;
  const fees = new ConfiguredAcrossFees({ relayerFeeBps: 4, lpFeeBps: 1, minimumInput: MINIMUM });
  const user = Wallet.createRandom();
  const relayerKey = acrossRelayerAccount().privateKey;
  const chains = {} as Record<'ethereum' | 'arbitrum' | 'base', JsonRpcProvider>;
  const net = (n: Network) => manifest.networks.find((m) => m.network === n)!;
  const token = (n: Network, symbol: string) => getAddress(net(n).tokens.find((t) => t.symbol === symbol)!.address);
  let relayer: AcrossRelayer;
  let worker: AcrossDataWorker;
  const seen: {
    usdc?: { quote: BridgeQuote; requestId: string; depositBlock: number; fillBlock: number; recipient: string };
    eth?: { requestId: string; depositBlock: number };
  } = {};

  const balance = async (n: 'ethereum' | 'arbitrum' | 'base', t: string, holder: string) =>
    ERC20.decodeFunctionResult(
      'balanceOf',
      await chains[n].call({ to: t, data: ERC20.encodeFunctionData('balanceOf', [holder]) }),
    )[0] as bigint;
  const send = async (n: 'ethereum' | 'arbitrum' | 'base', tx: { to: string; data: string; value?: bigint }) => {
    const receipt = await (await user.connect(chains[n]).sendTransaction(tx)).wait();
    if (!receipt || receipt.status !== 1) throw new Error(`transaction to ${tx.to} failed`);
    return receipt;
  };
  /** The user approves if needed and sends the deposit call. */
  const deposit = async (call: BridgeDepositCall) => {
    if (call.approvalToken)
      await send('ethereum', { to: call.approvalToken, data: ERC20.encodeFunctionData('approve', [call.to, MaxUint256]) });
    return send('ethereum', { to: call.to, data: call.data, value: call.value });
  };
  const fillOf = (requestId: string) =>
    waitFor(`the relayer's fill of ${requestId}`, () =>
      relayer.fills.find((f) => f.deposit.originChainId === 1 && f.deposit.depositId.toString() === requestId),
    );

  beforeAll(async () => {
    // Apart from the shared test devnet's ports (TEST_DEVNET_BASE_PORT moves both, for two runs on one machine).
    devnet = await startDevnet({ basePort: Number(process.env['TEST_DEVNET_BASE_PORT'] ?? 18545) + 60, log: () => undefined });
    rpcUrls = devnet.rpcUrls as Partial<Record<Network, string>>;
    manifest = devnet.manifest;
    config = acrossConfigFromManifest(manifest);
    // 50 blocks per eth_getLogs, so the look-ups page through several ranges.
    provider = new AcrossBridgeProvider({
      config,
      rpcUrls,
      fees,
      logRange: 50,
      rpc: { retry: { attempts: 2, baseDelayMs: 50, maxDelayMs: 200 } },
    });
    for (const n of ['ethereum', 'arbitrum', 'base'] as const) {
      chains[n] = new JsonRpcProvider(rpcUrls[n], undefined, { staticNetwork: true, cacheTimeout: -1 });
      chains[n].pollingInterval = 50;
      await chains[n].send('anvil_setBalance', [user.address, toBeHex(parseEther('100'))]);
    }
    // USDC for the user, minted by its owner (ethereum's deployer, an unlocked anvil account).
    const owner = new JsonRpcSigner(chains.ethereum, (net('ethereum') as unknown as { deployer: string }).deployer);
    await (
      await owner.sendTransaction({
        to: token('ethereum', 'USDC'),
        data: ERC20.encodeFunctionData('mint', [user.address, parseUnits('100000', 6)]),
      })
    ).wait();
    await fundAcrossRelayer({ manifest, rpcUrls, relayerKey });
    const networks = acrossNetworks(manifest, rpcUrls);
    worker = new AcrossDataWorker({ networks });
    await worker.init();
    relayer = new AcrossRelayer({ networks, relayerKey, pollMs: 100, mode: 'offline' });
    await relayer.start();
  });

  afterAll(async () => {
    await relayer?.stop();
    worker?.close();
    for (const c of Object.values(chains)) c.destroy();
    await devnet?.stop();
  });

  it('routes USDC, WETH and ETH (as WETH) between devnet networks, from the manifest', () => {
    const route = provider.route('ethereum', 'base')!;
    expect(route.tokens.map((t) => [t.symbol, t.originToken, t.destinationToken])).toEqual(
      expect.arrayContaining([
        ['USDC', token('ethereum', 'USDC'), token('base', 'USDC')],
        ['WETH', token('ethereum', 'WETH'), token('base', 'WETH')],
        ['ETH', NATIVE_TOKEN, NATIVE_TOKEN],
      ]),
    );
    expect(route.tokens).toHaveLength(3);
  });

  it('USDC ethereum -> base: quote, deposit call, findDeposit, the relayer fills, findFill, settled', async () => {
    const recipient = Wallet.createRandom().address;
    const [usdcEth, usdcBase] = [token('ethereum', 'USDC'), token('base', 'USDC')];
    const quote = await provider.quote({
      originNetwork: 'ethereum',
      destinationNetwork: 'base',
      inputToken: usdcEth,
      inputAmount: 1_000_000_000n,
      outputToken: usdcBase,
    });
    const head = await provider.chain('ethereum').head();
    expect(quote).toMatchObject({
      provider: 'across',
      originChainId: 1,
      destinationChainId: 8453,
      fee: 500_000n,
      outputAmount: 999_500_000n,
      estimatedSeconds: 10,
    });
    expect(quote.quoteTimestamp).toBeGreaterThanOrEqual(head.timestamp);
    expect(quote.fillDeadline - quote.quoteTimestamp!).toBeGreaterThanOrEqual(4 * 3600);

    const call = provider.depositCall({ quote, depositor: user.address, recipient, refundTo: user.address });
    expect(call).toMatchObject({
      to: getAddress(config.networks.find((n) => n.network === 'ethereum')!.spokePool),
      value: 0n,
      approvalToken: usdcEth,
      amountOffset: ACROSS_DEPOSIT_INPUT_AMOUNT_OFFSET,
    });
    const args = acrossSpokePoolInterface().decodeFunctionData('deposit', call.data);
    expect([...args]).toEqual([
      toBytes32(user.address),
      toBytes32(recipient),
      toBytes32(usdcEth),
      toBytes32(usdcBase),
      1_000_000_000n,
      999_500_000n,
      8453n,
      toBytes32(ZeroAddress),
      BigInt(quote.quoteTimestamp!),
      BigInt(quote.fillDeadline),
      0n,
      '0x',
    ]);
    expect(BigInt(`0x${call.data.slice(2 + call.amountOffset * 2, 2 + (call.amountOffset + 32) * 2)}`)).toBe(1_000_000_000n);

    const receipt = await deposit(call);
    const [info, ...more] = await provider.findDeposit('ethereum', receipt.hash);
    expect(more).toEqual([]);
    const log = receipt.logs.find((l) => getAddress(l.address) === call.to)!;
    expect(info).toEqual({
      requestId: BigInt(log.topics[2]!).toString(),
      originNetwork: 'ethereum',
      originChainId: 1,
      destinationNetwork: 'base',
      destinationChainId: 8453,
      depositor: user.address,
      inputToken: usdcEth,
      inputAmount: 1_000_000_000n,
      outputToken: usdcBase,
      outputAmount: 999_500_000n,
      recipient,
      refundTo: user.address,
      fillDeadline: quote.fillDeadline,
      txHash: receipt.hash,
      blockNumber: receipt.blockNumber,
      logIndex: log.index,
    });
    expect(await provider.depositState('ethereum', info!.requestId)).toBe('open');
    expect(await provider.findFill('base', 1, info!.requestId)).toBeUndefined();

    relayer.setMode('normal');
    const fill = await fillOf(info!.requestId);
    const fillReceipt = (await chains.base.getTransactionReceipt(fill.transactionHash))!;
    const fillLog = fillReceipt.logs.find((l) => l.topics[0] === acrossSpokePoolInterface().getEvent('FilledRelay')!.topicHash)!;
    const expected = {
      txHash: fill.transactionHash,
      blockNumber: fillReceipt.blockNumber,
      logIndex: fillLog.index,
      filler: relayer.address,
      amount: 999_500_000n,
      recipient,
      outputToken: usdcBase,
    };
    expect(await provider.findFill('base', 1, info!.requestId)).toEqual(expected);
    expect(await provider.findFill('base', 1, info!.requestId, { fromBlock: fillReceipt.blockNumber - 1 })).toEqual(expected);
    expect(await provider.findFill('arbitrum', 1, info!.requestId)).toBeUndefined(); // not its destination
    expect(await balance('base', usdcBase, recipient)).toBe(999_500_000n);
    expect(await provider.depositState('ethereum', info!.requestId)).toBe('settled');
    expect(await provider.findRefund('ethereum', info!.requestId)).toBeUndefined();
    seen.usdc = { quote, requestId: info!.requestId, depositBlock: receipt.blockNumber, fillBlock: fillReceipt.blockNumber, recipient };
  });

  it('native ETH ethereum -> arbitrum: deposited as WETH with value, the recipient gets ETH', async () => {
    const recipient = Wallet.createRandom().address;
    const quote = await provider.quote({
      originNetwork: 'ethereum',
      destinationNetwork: 'arbitrum',
      inputToken: NATIVE_TOKEN,
      inputAmount: parseEther('1'),
      outputToken: NATIVE_TOKEN,
    });
    expect([quote.fee, quote.outputAmount]).toEqual([parseEther('0.0005'), parseEther('0.9995')]);
    const call = provider.depositCall({ quote, depositor: user.address, recipient, refundTo: user.address });
    expect([call.value, call.approvalToken]).toEqual([parseEther('1'), undefined]);
    const args = acrossSpokePoolInterface().decodeFunctionData('deposit', call.data);
    expect([args[2], args[3]]).toEqual([toBytes32(token('ethereum', 'WETH')), toBytes32(token('arbitrum', 'WETH'))]);
    const receipt = await deposit(call);
    const [info] = await provider.findDeposit('ethereum', receipt.hash);
    expect(info).toMatchObject({
      destinationNetwork: 'arbitrum',
      inputToken: token('ethereum', 'WETH'),
      inputAmount: parseEther('1'),
      outputToken: token('arbitrum', 'WETH'),
      outputAmount: parseEther('0.9995'),
      recipient,
    });
    const fill = await fillOf(info!.requestId);
    expect(await provider.findFill('arbitrum', 1, info!.requestId)).toMatchObject({
      txHash: fill.transactionHash,
      amount: parseEther('0.9995'),
      recipient,
      filler: relayer.address,
    });
    expect(await chains.arbitrum.getBalance(recipient)).toBe(parseEther('0.9995'));
    expect(await provider.depositState('ethereum', info!.requestId)).toBe('settled');
    seen.eth = { requestId: info!.requestId, depositBlock: receipt.blockNumber };
  });

  it('logs(): the deposits on ethereum and the fill on base, in chain order, with their block hashes', async () => {
    const { usdc, eth } = seen;
    const onEthereum = await provider.logs('ethereum', usdc!.depositBlock, eth!.depositBlock);
    expect(onEthereum.filter((e) => e.kind === 'deposit').map((e) => e.kind === 'deposit' && e.requestId)).toEqual([
      usdc!.requestId,
      eth!.requestId,
    ]);
    const onBase = await provider.logs('base', usdc!.fillBlock, usdc!.fillBlock);
    expect(onBase).toEqual([
      expect.objectContaining({
        kind: 'fill',
        originChainId: 1,
        requestId: usdc!.requestId,
        amount: 999_500_000n,
        recipient: usdc!.recipient,
        blockNumber: usdc!.fillBlock,
      }),
    ]);
    for (const [network, events] of [
      ['ethereum', onEthereum],
      ['base', onBase],
    ] as const) {
      for (const e of events) expect(e.blockHash).toBe((await provider.chain(network).header(e.blockNumber)).hash);
      const order = events.map((e) => e.blockNumber * 10_000 + e.logIndex);
      expect(order).toEqual([...order].sort((a, b) => a - b));
    }
  });

  it('refuses what Across cannot do, saying what to change', async () => {
    const usdc = {
      originNetwork: 'ethereum' as Network,
      destinationNetwork: 'base' as Network,
      inputToken: token('ethereum', 'USDC'),
      outputToken: token('base', 'USDC'),
    };
    const refusal = async (p: Promise<unknown>) =>
      p.then(
        () => undefined,
        (e: unknown) => e as BridgeQuoteError,
      );
    const noRoute = await refusal(provider.quote({ ...usdc, destinationNetwork: 'ethereum', inputAmount: 5_000_000n }));
    expect(noRoute).toMatchObject({
      code: 'NO_ROUTE',
      message: expect.stringMatching(/from ethereum to ethereum: choose two different networks among ethereum, arbitrum, base/),
    });
    expect(noRoute).toBeInstanceOf(BridgeQuoteError);
    const other = net('ethereum').tokens.find((t) => !['USDC', 'WETH'].includes(t.symbol))!;
    expect(await refusal(provider.quote({ ...usdc, inputToken: other.address, inputAmount: 5_000_000n }))).toMatchObject({
      code: 'UNSUPPORTED_TOKEN',
      message: `across does not carry ${other.address} from ethereum to base; use one of ${provider
        .route('ethereum', 'base')!
        .tokens.map((t) => `${t.symbol} (${t.originToken})`)
        .join(', ')}`,
    });
    expect(await refusal(provider.quote({ ...usdc, inputAmount: 999_999n }))).toMatchObject({
      code: 'AMOUNT_TOO_SMALL',
      message: expect.stringMatching(/below Across's minimum deposit of 1000000 .*; send at least 1000000/),
    });
    const noMinimum = new AcrossBridgeProvider({ config, rpcUrls, fees: new ConfiguredAcrossFees({ relayerFeeBps: 4, lpFeeBps: 1 }) });
    expect(await refusal(noMinimum.quote({ ...usdc, inputAmount: 2n }))).toMatchObject({
      code: 'AMOUNT_TOO_SMALL',
      message: expect.stringMatching(/do not cover Across's fees of 2; send more than 2/),
    });
    expect(await provider.depositState('ethereum', '4000000000')).toBe('unknown');
    expect(await provider.depositState('ethereum', 'not-a-number')).toBe('unknown');
    const transfer = await send('ethereum', { to: Wallet.createRandom().address, data: '0x', value: 1n });
    expect(await provider.findDeposit('ethereum', transfer.hash)).toEqual([]);
  });

  it('an expired deposit with the relayer offline: the data worker refunds it, findRefund finds it, refunded (moves the clocks)', async () => {
    await worker.runBundle(); // repays the fills above first, so the next bundle holds only the refund
    relayer.setMode('offline');
    const short = new AcrossBridgeProvider({
      config,
      rpcUrls,
      fees: new ConfiguredAcrossFees({ relayerFeeBps: 4, lpFeeBps: 1, fillDeadlineSeconds: 60 }),
    });
    const usdcEth = token('ethereum', 'USDC');
    const before = await balance('ethereum', usdcEth, user.address);
    const quote = await short.quote({
      originNetwork: 'ethereum',
      destinationNetwork: 'base',
      inputToken: usdcEth,
      inputAmount: 500_000_000n,
      outputToken: token('base', 'USDC'),
    });
    const receipt = await deposit(
      short.depositCall({ quote, depositor: user.address, recipient: Wallet.createRandom().address, refundTo: user.address }),
    );
    const [info] = await provider.findDeposit('ethereum', receipt.hash);
    expect(await provider.depositState('ethereum', info!.requestId)).toBe('open');
    expect((await worker.runBundle()).payments).toEqual([]);

    for (const c of [chains.ethereum, chains.base]) {
      const now = (await c.getBlock('latest'))!.timestamp;
      await c.send('evm_increaseTime', [toBeHex(Math.max(1, info!.fillDeadline - now + 1))]);
      await c.send('evm_mine', []);
    }
    const bundle = await worker.runBundle();
    expect(bundle.payments.map((p) => [p.kind, p.to, p.amount])).toEqual([['expired-deposit-refund', user.address, 500_000_000n]]);
    const executed = (await chains.ethereum.getTransactionReceipt(bundle.executed[0]!.transactionHash))!;
    const leafLog = executed.logs.find((l) => l.topics[0] === acrossSpokePoolInterface().getEvent('ExecutedRelayerRefundRoot')!.topicHash)!;
    const refund = {
      txHash: executed.hash,
      blockNumber: executed.blockNumber,
      logIndex: leafLog.index,
      amount: 500_000_000n,
      refundTo: user.address,
      token: usdcEth,
    };
    expect(await provider.findRefund('ethereum', info!.requestId)).toEqual(refund);
    expect(await provider.findRefund('ethereum', info!.requestId, { fromBlock: info!.blockNumber })).toEqual(refund);
    expect(await provider.depositState('ethereum', info!.requestId)).toBe('refunded');
    expect(await provider.findFill('base', 1, info!.requestId)).toBeUndefined();
    expect(await balance('ethereum', usdcEth, user.address)).toBe(before);
    // The settled USDC deposit of the first test is not taken for refunded by this leaf.
    expect(await provider.findRefund('ethereum', seen.usdc!.requestId)).toBeUndefined();
    const events = await provider.logs('ethereum', executed.blockNumber, executed.blockNumber);
    expect(events).toEqual([
      expect.objectContaining({ kind: 'refund', requestId: info!.requestId, ...refund, blockHash: executed.blockHash }),
    ]);
  });
});
