/**
 * Across on the test devnet (issue 19): deposits into Across's own SpokePools (deployed by the
 * devnet build from @across-protocol/contracts' artifacts), filled on the destination by the devnet
 * relayer, and refunded or repaid by the devnet data worker through relayer refund leaves the
 * SpokePool executes itself. Every check reads the chains. It runs on a devnet of its own (the
 * saved build, on ports apart from the shared test devnet's): its relayer and data worker act on
 * every Across deposit they see, and the expiry test moves the clocks forward, neither of which
 * the files sharing the test devnet should meet (a crash test counting transfers up to a head
 * found this file's deposits). The expiry test stays last.
 */
import {
  AbiCoder,
  Contract,
  type JsonRpcProvider,
  type Log,
  MaxUint256,
  Wallet,
  ZeroAddress,
  keccak256,
  parseEther,
  parseUnits,
  toBeHex,
  JsonRpcSigner,
} from 'ethers';
import type { Network } from '@tokensvc/domain';
import { ABI } from '../chain/abis';
import { type DevnetManifest, type NetworkManifest, manifestAcross, manifestToken, networkManifest } from '../manifest';
import { OP_L2_MESSENGER } from '../deploy/across';
import { type DevnetHandle, startDevnet } from '../devnet';
import { applyL1ToL2Alias } from './admin';
import { AcrossDataWorker, type BundleResult } from './dataworker';
import { acrossRelayerAccount, fundAcrossRelayer } from './inventory';
import { MerkleTree, refundLeafHash } from './merkle';
import { AcrossRelayer } from './relayer';
import {
  type AcrossDeposit,
  FILL_STATUS,
  acrossNetworks,
  decodeDeposit,
  devnetProvider,
  fillStatus,
  spokePoolInterface,
  toBytes32,
} from './spoke';

jest.setTimeout(60_000);

const ERC20 = ['function balanceOf(address) view returns (uint256)', 'function transfer(address,uint256) returns (bool)'];
const HANDLER_INSTRUCTIONS = 'tuple(tuple(address target, bytes callData, uint256 value)[] calls, address fallbackRecipient)';

async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('Across on the devnet', () => {
  let devnet: DevnetHandle;
  let rpcUrls: Partial<Record<Network, string>>;
  let manifest: DevnetManifest;
  let eth: NetworkManifest;
  let arb: NetworkManifest;
  let base: NetworkManifest;
  let providers: Record<'ethereum' | 'arbitrum' | 'base', JsonRpcProvider>;
  let relayer: AcrossRelayer;
  let worker: AcrossDataWorker;
  const relayerAccount = acrossRelayerAccount();
  const depositor = Wallet.createRandom();
  const iface = spokePoolInterface();

  const balanceOf = (network: 'ethereum' | 'arbitrum' | 'base', token: string, holder: string): Promise<bigint> =>
    new Contract(token, ERC20, providers[network]).getFunction('balanceOf')(holder) as Promise<bigint>;
  const spokeLogs = (logs: readonly Log[], name: string) => logs.map((l) => iface.parseLog(l)).filter((e) => e?.name === name);

  type Chain = 'ethereum' | 'arbitrum' | 'base';
  const net = (chain: Chain): NetworkManifest => ({ ethereum: eth, arbitrum: arb, base })[chain];

  /** The depositor calls SpokePool.deposit on `from` (ethereum by default), after approving an ERC-20 input. */
  async function deposit(o: {
    from?: Chain;
    to: NetworkManifest;
    inputToken: string;
    outputToken: string;
    inputAmount: bigint;
    outputAmount: bigint;
    recipient: string;
    message?: string;
    native?: boolean;
    deadlineIn?: number;
  }): Promise<AcrossDeposit> {
    const from = o.from ?? 'ethereum';
    const signer = depositor.connect(providers[from]);
    const spokePool = manifestAcross(net(from)).spokePool;
    if (!o.native)
      await (
        await signer.sendTransaction({ to: o.inputToken, data: ABI.erc20().encodeFunctionData('approve', [spokePool, MaxUint256]) })
      ).wait();
    const now = (await providers[from].getBlock('latest'))!.timestamp;
    const data = iface.encodeFunctionData('deposit', [
      toBytes32(depositor.address),
      toBytes32(o.recipient),
      toBytes32(o.inputToken),
      toBytes32(o.outputToken),
      o.inputAmount,
      o.outputAmount,
      o.to.chainId,
      toBytes32(ZeroAddress),
      now,
      now + (o.deadlineIn ?? 600),
      0,
      o.message ?? '0x',
    ]);
    const receipt = (await (await signer.sendTransaction({ to: spokePool, data, value: o.native ? o.inputAmount : 0n })).wait())!;
    const log = receipt.logs.find((l) => l.topics[0] === iface.getEvent('FundsDeposited')!.topicHash)!;
    return decodeDeposit(net(from).chainId, log);
  }

  async function filled(d: AcrossDeposit, network: 'arbitrum' | 'base') {
    const fill = await waitFor(`the fill of deposit ${d.depositId}`, () =>
      relayer.fills.find((f) => f.deposit.originChainId === d.originChainId && f.deposit.depositId === d.depositId),
    );
    const receipt = (await providers[network].getTransactionReceipt(fill.transactionHash))!;
    const [event] = spokeLogs(receipt.logs, 'FilledRelay');
    return { fill, receipt, event: event! };
  }

  beforeAll(async () => {
    // TEST_DEVNET_BASE_PORT moves the shared devnet's ports; this one keeps 70 above them.
    devnet = await startDevnet({ basePort: Number(process.env['TEST_DEVNET_BASE_PORT'] ?? 18545) + 70, log: () => undefined });
    rpcUrls = devnet.rpcUrls as Partial<Record<Network, string>>;
    manifest = devnet.manifest;
    eth = networkManifest(manifest, 'ethereum');
    arb = networkManifest(manifest, 'arbitrum');
    base = networkManifest(manifest, 'base');
    providers = {
      ethereum: devnetProvider(rpcUrls.ethereum!),
      arbitrum: devnetProvider(rpcUrls.arbitrum!),
      base: devnetProvider(rpcUrls.base!),
    };
    await fundAcrossRelayer({ manifest, rpcUrls, relayerKey: relayerAccount.privateKey });
    // A fresh depositor: gas and ETH to bridge, and USDC minted by its owner (ethereum's deployer).
    for (const [chain, n] of [
      ['ethereum', eth],
      ['arbitrum', arb],
      ['base', base],
    ] as const) {
      await providers[chain].send('anvil_setBalance', [depositor.address, toBeHex(parseEther('100'))]);
      const owner = new JsonRpcSigner(providers[chain], n.deployer);
      await (
        await owner.sendTransaction({
          to: manifestToken(n, 'USDC').address,
          data: ABI.erc20().encodeFunctionData('mint', [depositor.address, parseUnits('100000', 6)]),
        })
      ).wait();
    }
    const networks = acrossNetworks(manifest, rpcUrls);
    expect(networks.map((n) => n.network)).toEqual(['ethereum', 'arbitrum', 'base']);
    worker = new AcrossDataWorker({ networks });
    await worker.init();
    relayer = new AcrossRelayer({ networks, relayerKey: relayerAccount.privateKey, pollMs: 100 });
    await relayer.start();
  });

  afterAll(async () => {
    await relayer?.stop();
    worker?.close();
    for (const p of Object.values(providers ?? {})) p.destroy();
    await devnet?.stop();
  });

  it("deploys Across's chain-specific SpokePools behind ERC1967 proxies, administered by the HubPool's stand-in", async () => {
    const admin = eth.deployer;
    const implSlot = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc';
    for (const [n, network] of [
      [eth, 'ethereum'],
      [arb, 'arbitrum'],
      [base, 'base'],
    ] as const) {
      const { spokePool, multicallHandler } = manifestAcross(n);
      const pool = new Contract(spokePool, iface, providers[network]);
      expect(await pool.getFunction('crossDomainAdmin')()).toBe(admin);
      expect(await pool.getFunction('wrappedNativeToken')()).toBe(n.weth);
      expect(await pool.getFunction('depositQuoteTimeBuffer')()).toBe(3600n);
      expect(await pool.getFunction('fillDeadlineBuffer')()).toBe(21600n);
      const implementation = `0x${(await providers[network].getStorage(spokePool, implSlot)).slice(-40)}`;
      expect((await providers[network].getCode(implementation)).length).toBeGreaterThan(20_000);
      expect((await providers[network].getCode(multicallHandler)).length).toBeGreaterThan(2);
    }
  });

  it('fills a USDC deposit ethereum -> base (relayer normal), then repays the relayer on ethereum through a refund leaf', async () => {
    const usdcEth = manifestToken(eth, 'USDC').address;
    const usdcBase = manifestToken(base, 'USDC').address;
    const recipient = Wallet.createRandom().address;
    const spokeBefore = await balanceOf('ethereum', usdcEth, manifestAcross(eth).spokePool);
    const d = await deposit({
      to: base,
      inputToken: usdcEth,
      outputToken: usdcBase,
      inputAmount: parseUnits('1000', 6),
      outputAmount: parseUnits('999', 6),
      recipient,
    });
    expect(await balanceOf('ethereum', usdcEth, manifestAcross(eth).spokePool)).toBe(spokeBefore + d.inputAmount);

    const { event } = await filled(d, 'base');
    expect(event.args['depositId']).toBe(d.depositId);
    expect(event.args['originChainId']).toBe(1n);
    expect(event.args['outputAmount']).toBe(d.outputAmount);
    expect(event.args['relayer']).toBe(toBytes32(relayer.address));
    expect(event.args['recipient']).toBe(toBytes32(recipient));
    expect(await balanceOf('base', usdcBase, recipient)).toBe(d.outputAmount);
    expect(
      await fillStatus(
        providers.base,
        { network: 'base', chainId: base.chainId, rpcUrl: rpcUrls.base!, spokePool: manifestAcross(base).spokePool },
        d,
      ),
    ).toBe(FILL_STATUS.Filled);

    const relayerBefore = await balanceOf('ethereum', usdcEth, relayer.address);
    const bundle = await worker.runBundle();
    expect(bundle.payments.map((p) => [p.kind, p.to, p.amount])).toEqual([['relayer-repayment', relayer.address, d.inputAmount]]);
    await expectBundleOnChain(bundle, 'ethereum');
    expect(await balanceOf('ethereum', usdcEth, relayer.address)).toBe(relayerBefore + d.inputAmount);
    expect(await balanceOf('ethereum', usdcEth, manifestAcross(eth).spokePool)).toBe(spokeBefore);
  });

  it('fills a native ETH deposit ethereum -> arbitrum: the origin pool wraps it, the recipient gets ETH from the WETH fill', async () => {
    const recipient = Wallet.createRandom().address;
    const wethBefore = await balanceOf('ethereum', eth.weth, manifestAcross(eth).spokePool);
    const d = await deposit({
      to: arb,
      inputToken: eth.weth,
      outputToken: arb.weth,
      inputAmount: parseEther('1'),
      outputAmount: parseEther('0.999'),
      recipient,
      native: true,
    });
    expect(await balanceOf('ethereum', eth.weth, manifestAcross(eth).spokePool)).toBe(wethBefore + d.inputAmount);
    const { event } = await filled(d, 'arbitrum');
    expect(event.args['outputToken']).toBe(toBytes32(arb.weth));
    expect(await providers.arbitrum.getBalance(recipient)).toBe(d.outputAmount);
  });

  it("runs a deposit's message through the MulticallHandler on fill: the handler forwards the USDC to a second address", async () => {
    const usdcBase = manifestToken(base, 'USDC').address;
    const handler = manifestAcross(base).multicallHandler;
    const second = Wallet.createRandom().address;
    const outputAmount = parseUnits('250', 6);
    const transfer = new Contract(usdcBase, ERC20).interface.encodeFunctionData('transfer', [second, outputAmount]);
    const message = AbiCoder.defaultAbiCoder().encode([HANDLER_INSTRUCTIONS], [[[[usdcBase, transfer, 0n]], ZeroAddress]]);
    const d = await deposit({
      to: base,
      inputToken: manifestToken(eth, 'USDC').address,
      outputToken: usdcBase,
      inputAmount: parseUnits('251', 6),
      outputAmount,
      recipient: handler,
      message,
    });
    const { event } = await filled(d, 'base');
    expect(event.args['messageHash']).toBe(keccak256(message));
    expect(await balanceOf('base', usdcBase, second)).toBe(outputAmount);
    expect(await balanceOf('base', usdcBase, handler)).toBe(0n);
  });

  it('fills slowly in slow mode and only deposits up to its inventory limit in partial-inventory mode', async () => {
    const usdcEth = manifestToken(eth, 'USDC').address;
    const usdcBase = manifestToken(base, 'USDC').address;
    relayer.setMode('slow', { slowDelayMs: 1_500 });
    const slow = await deposit({
      to: base,
      inputToken: usdcEth,
      outputToken: usdcBase,
      inputAmount: parseUnits('10', 6),
      outputAmount: parseUnits('9', 6),
      recipient: Wallet.createRandom().address,
    });
    const { fill } = await filled(slow, 'base');
    expect(fill.ms).toBeGreaterThanOrEqual(1_500);

    relayer.setMode('partial-inventory', { maxFillAmount: parseUnits('100', 6) });
    const big = Wallet.createRandom().address;
    const small = Wallet.createRandom().address;
    const tooBig = await deposit({
      to: base,
      inputToken: usdcEth,
      outputToken: usdcBase,
      inputAmount: parseUnits('501', 6),
      outputAmount: parseUnits('500', 6),
      recipient: big,
    });
    const fits = await deposit({
      to: base,
      inputToken: usdcEth,
      outputToken: usdcBase,
      inputAmount: parseUnits('51', 6),
      outputAmount: parseUnits('50', 6),
      recipient: small,
    });
    await filled(fits, 'base');
    expect(await balanceOf('base', usdcBase, small)).toBe(fits.outputAmount);
    await new Promise((r) => setTimeout(r, 1_000)); // several passes: the big one stays unfilled
    expect(relayer.pendingDeposits().map((p) => p.depositId)).toContain(tooBig.depositId);
    expect(await balanceOf('base', usdcBase, big)).toBe(0n);
    relayer.setMode('normal');
    await filled(tooBig, 'base');
    expect(await balanceOf('base', usdcBase, big)).toBe(tooBig.outputAmount);
  });

  it('repays the relayer on arbitrum and base in one root bundle (the HubPool stand-in as the aliased admin and through the OP messenger)', async () => {
    await worker.runBundle(); // the fills of the earlier tests (ethereum leaves) first
    const usdc = { arbitrum: manifestToken(arb, 'USDC').address, base: manifestToken(base, 'USDC').address };
    const toArb = await deposit({
      from: 'base',
      to: arb,
      inputToken: usdc.base,
      outputToken: usdc.arbitrum,
      inputAmount: parseUnits('300', 6),
      outputAmount: parseUnits('299', 6),
      recipient: Wallet.createRandom().address,
    });
    const toBase = await deposit({
      from: 'arbitrum',
      to: base,
      inputToken: usdc.arbitrum,
      outputToken: usdc.base,
      inputAmount: parseUnits('200', 6),
      outputAmount: parseUnits('199', 6),
      recipient: Wallet.createRandom().address,
    });
    const ethToBase = await deposit({
      from: 'arbitrum',
      to: base,
      inputToken: arb.weth,
      outputToken: base.weth,
      inputAmount: parseEther('0.5'),
      outputAmount: parseEther('0.499'),
      recipient: Wallet.createRandom().address,
      native: true,
    });
    await filled(toArb, 'arbitrum');
    await filled(toBase, 'base');
    await filled(ethToBase, 'base');
    const before = {
      base: await balanceOf('base', usdc.base, relayer.address),
      arbUsdc: await balanceOf('arbitrum', usdc.arbitrum, relayer.address),
      arbWeth: await balanceOf('arbitrum', arb.weth, relayer.address),
    };

    const bundle = await worker.runBundle();
    // Three leaves (base USDC, arbitrum USDC, arbitrum WETH): proofs of one and two siblings, checked by the pools.
    expect(bundle.leaves).toHaveLength(3);
    expect(bundle.relayed.map((r) => r.network).sort()).toEqual(['arbitrum', 'base']);
    expect(bundle.executed).toHaveLength(3);
    for (const r of bundle.relayed) {
      const receipt = (await providers[r.network as Chain].getTransactionReceipt(r.transactionHash))!;
      expect(receipt.from).toBe(r.network === 'base' ? OP_L2_MESSENGER : applyL1ToL2Alias(eth.deployer));
      expect(spokeLogs(receipt.logs, 'RelayedRootBundle')[0]!.args['relayerRefundRoot']).toBe(bundle.root);
    }
    for (const e of bundle.executed) {
      const receipt = (await providers[e.network as Chain].getTransactionReceipt(e.transactionHash))!;
      expect(spokeLogs(receipt.logs, 'ExecutedRelayerRefundRoot')).toHaveLength(1);
    }
    expect(await balanceOf('base', usdc.base, relayer.address)).toBe(before.base + toArb.inputAmount);
    expect(await balanceOf('arbitrum', usdc.arbitrum, relayer.address)).toBe(before.arbUsdc + toBase.inputAmount);
    expect(await balanceOf('arbitrum', arb.weth, relayer.address)).toBe(before.arbWeth + ethToBase.inputAmount);
  });

  it('refunds the depositor on ethereum from the SpokePool when the relayer is offline past the fill deadline', async () => {
    const usdcEth = manifestToken(eth, 'USDC').address;
    const usdcBase = manifestToken(base, 'USDC').address;
    const baseNet = { network: 'base' as Network, chainId: base.chainId, rpcUrl: rpcUrls.base!, spokePool: manifestAcross(base).spokePool };
    // Settle the fills of the earlier tests first, so this bundle holds only the refund.
    await worker.runBundle();
    relayer.setMode('offline');
    const recipient = Wallet.createRandom().address;
    const before = await balanceOf('ethereum', usdcEth, depositor.address);
    const d = await deposit({
      to: base,
      inputToken: usdcEth,
      outputToken: usdcBase,
      inputAmount: parseUnits('500', 6),
      outputAmount: parseUnits('499', 6),
      recipient,
      deadlineIn: 60,
    });
    expect(await balanceOf('ethereum', usdcEth, depositor.address)).toBe(before - d.inputAmount);
    await waitFor('the relayer to see the deposit', () => relayer.pendingDeposits().some((p) => p.depositId === d.depositId));
    await new Promise((r) => setTimeout(r, 500));
    expect(await fillStatus(providers.base, baseNet, d)).toBe(FILL_STATUS.Unfilled);
    // Nothing is due before the deadline.
    expect((await worker.runBundle()).payments).toEqual([]);

    for (const p of [providers.ethereum, providers.base]) {
      const now = (await p.getBlock('latest'))!.timestamp;
      await p.send('evm_increaseTime', [toBeHex(Math.max(1, d.fillDeadline - now + 1))]);
      await p.send('evm_mine', []);
    }
    const bundle = await worker.runBundle();
    expect(bundle.payments.map((p) => [p.kind, p.network, p.token, p.to, p.amount])).toEqual([
      ['expired-deposit-refund', 'ethereum', usdcEth, depositor.address, d.inputAmount],
    ]);
    await expectBundleOnChain(bundle, 'ethereum');
    expect(await balanceOf('ethereum', usdcEth, depositor.address)).toBe(before);
    expect(await fillStatus(providers.base, baseNet, d)).toBe(FILL_STATUS.Unfilled);
    expect(await balanceOf('base', usdcBase, recipient)).toBe(0n);
    await waitFor('the relayer to drop the expired deposit', () =>
      relayer.dropped.find((x) => x.deposit.depositId === d.depositId && x.reason === 'fill deadline passed'),
    );
  });

  /** The bundle's root was relayed on the network and every leaf executed there, as the events say. */
  async function expectBundleOnChain(bundle: BundleResult, network: 'ethereum'): Promise<void> {
    expect(bundle.root).toBeDefined();
    expect(bundle.relayed.map((r) => r.network)).toEqual([network]);
    const relay = (await providers[network].getTransactionReceipt(bundle.relayed[0]!.transactionHash))!;
    const [relayed] = spokeLogs(relay.logs, 'RelayedRootBundle');
    expect(relayed!.args['relayerRefundRoot']).toBe(bundle.root);
    for (const [i, leaf] of bundle.leaves.entries())
      expect(MerkleTree.verify(new MerkleTree(bundle.leaves.map(refundLeafHash)).proof(i), bundle.root!, refundLeafHash(leaf))).toBe(true);
    expect(bundle.executed).toHaveLength(bundle.leaves.length);
    for (const [i, executed] of bundle.executed.entries()) {
      const receipt = (await providers[network].getTransactionReceipt(executed.transactionHash))!;
      const [event] = spokeLogs(receipt.logs, 'ExecutedRelayerRefundRoot');
      const leaf = bundle.leaves[i]!;
      expect(event!.args['rootBundleId']).toBe(relayed!.args['rootBundleId']);
      expect(event!.args['leafId']).toBe(BigInt(leaf.leafId));
      expect([...(event!.args['refundAmounts'] as bigint[])]).toEqual(leaf.refundAmounts);
      expect([...(event!.args['refundAddresses'] as string[])]).toEqual(leaf.refundAddresses);
      expect(event!.args['deferredRefunds']).toBe(false);
    }
  }
});
