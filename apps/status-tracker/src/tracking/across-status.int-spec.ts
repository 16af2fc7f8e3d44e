/**
 * The status tracker on Across (CROSS_CHAIN_BRIDGE=across, configured from the devnet manifest),
 * on a devnet of this file's own (ethereum and base, TEST_DEVNET_BASE_PORT + 90) with the devnet's
 * Across relayer and data worker: private because they act on every Across deposit they see. Each
 * order is a Router.executeBridge transaction whose executor deposits into the SpokePool (as the
 * quote service builds it on Across), stored as the quote service stores orders and sent by a test
 * wallet. The real Nest wiring (Postgres rows, BullMQ jobs, the bridge followers reading Across's
 * logs) follows it: SUCCESS from the relayer's FilledRelay; REFUND_STATUS once the deposit expired
 * with the relayer offline and the data worker refunded it (moves both clocks past the 4-hour fill
 * deadline, so last).
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { Interface, JsonRpcProvider, MaxUint256, type TransactionReceipt, Wallet, getAddress, toBeHex } from 'ethers';
import { Client } from 'pg';
import { AcrossBridgeProvider, acrossConfigFromManifest, type AcrossManifestLike, type BridgeDepositInfo } from '@tokensvc/bridge';
import { bridgeDepositExecutorCall, encodeExecuteBridge } from '@tokensvc/contracts';
import { TEST_ACCOUNTS, manifestToken, networkManifest, type NetworkManifest } from '@tokensvc/devnet';
import type { Network } from '@tokensvc/domain';
import type { CrossChainStatusReply } from '@tokensvc/messages';
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
import { StatusTrackerModule } from '../wiring/app.module';
import { loadTrackerConfig } from '../config/tracker-config';
import { CrossChainStatusUseCase } from '../status/cross-chain-status.usecase';
import { CrossChainTracker, type TrackerEvent } from './tracker';

jest.setTimeout(180_000);

const TERMINAL = ['SUCCESS', 'REFUND_STATUS', 'FAILED'];
const ERC20 = new Interface(['function approve(address,uint256) returns (bool)', 'function balanceOf(address) view returns (uint256)']);
const EXECUTOR = new Interface(['function executor() view returns (address)']);
const ZERO = '0x0000000000000000000000000000000000000000';

describe('status tracker on Across (devnet SpokePools, relayer and data worker)', () => {
  let devnet: DevnetHandle;
  let eth: NetworkManifest;
  let base: NetworkManifest;
  let databaseUrl: string;
  let db: Client;
  let app: INestApplicationContext;
  let status: CrossChainStatusUseCase;
  let provider: AcrossBridgeProvider;
  let relayer: AcrossRelayer;
  let worker: AcrossDataWorker;
  let chains: Record<'ethereum' | 'base', JsonRpcProvider>;
  let wallet: Wallet;
  let executor: string;
  const events: TrackerEvent[] = [];

  beforeAll(async () => {
    devnet = await startDevnet({
      networks: ['ethereum', 'base'],
      basePort: Number(process.env['TEST_DEVNET_BASE_PORT'] ?? 18545) + 90,
      log: () => undefined,
    });
    eth = networkManifest(devnet.manifest, 'ethereum');
    base = networkManifest(devnet.manifest, 'base');
    const rpcUrls = devnet.rpcUrls as Partial<Record<Network, string>>;
    chains = {
      ethereum: new JsonRpcProvider(rpcUrls.ethereum, 1, { staticNetwork: true, cacheTimeout: -1 }),
      base: new JsonRpcProvider(rpcUrls.base, 8453, { staticNetwork: true, cacheTimeout: -1 }),
    };
    for (const c of Object.values(chains)) c.pollingInterval = 20;
    wallet = new Wallet(TEST_ACCOUNTS[2]!.privateKey, chains.ethereum);
    provider = new AcrossBridgeProvider({ config: acrossConfigFromManifest(devnet.manifest as unknown as AcrossManifestLike), rpcUrls });
    executor = EXECUTOR.decodeFunctionResult(
      'executor',
      await chains.ethereum.call({ to: eth.contracts.router, data: EXECUTOR.encodeFunctionData('executor') }),
    )[0] as string;
    await (
      await wallet.sendTransaction({
        to: manifestToken(eth, 'USDC').address,
        data: ERC20.encodeFunctionData('approve', [eth.contracts.router, MaxUint256]),
      })
    ).wait();

    const relayerKey = acrossRelayerAccount().privateKey;
    await fundAcrossRelayer({ manifest: devnet.manifest, rpcUrls, relayerKey });
    const networks = acrossNetworks(devnet.manifest, rpcUrls);
    worker = new AcrossDataWorker({ networks });
    await worker.init();
    relayer = new AcrossRelayer({ networks, relayerKey, pollMs: 100, mode: 'offline' });
    await relayer.start();

    databaseUrl = createTestDatabaseUrl('tracker_across');
    await migrate(databaseUrl);
    db = new Client({ connectionString: databaseUrl });
    await db.connect();
    // The tracker configured as an operator would: the devnet manifest and CROSS_CHAIN_BRIDGE=across.
    const config = loadTrackerConfig({
      DATABASE_URL: databaseUrl,
      NATS_URL: INFRA.nats,
      REDIS_URL: INFRA.redis,
      NETWORKS: 'ethereum,base',
      RPC_URL_ETHEREUM: rpcUrls.ethereum!,
      RPC_URL_BASE: rpcUrls.base!,
      DEVNET_MANIFEST: devnet.manifestPath,
      CROSS_CHAIN_BRIDGE: 'across',
      TRACKER_POLL_MS: '100',
      TRACKER_LOCK_MS: '2000',
      TRACKER_SWEEP_MS: '1000',
      TRACKER_QUEUE_PREFIX: `trkacross${Date.now().toString(36)}`,
      LOG_LEVEL: 'warn',
    });
    expect(config.bridgeNetworks).toEqual(['ethereum', 'base']);
    app = await NestFactory.createApplicationContext(StatusTrackerModule.forRoot(config), { logger: ['error'] });
    app.get(CrossChainTracker).onTransition((e) => events.push(e));
    await app.init();
    status = app.get(CrossChainStatusUseCase);
  }, 240_000);

  afterAll(async () => {
    await relayer?.stop();
    worker?.close();
    await app?.close();
    await db?.end();
    if (databaseUrl) await dropDatabase(databaseUrl);
    for (const c of Object.values(chains ?? {})) c.destroy();
    await devnet?.stop();
  });

  const ask = (orderId: string, txHash: string): Promise<CrossChainStatusReply> => status.execute({ orderId, txHash });
  async function until(
    orderId: string,
    txHash: string,
    done: (r: CrossChainStatusReply) => boolean,
    timeoutMs = 60_000,
  ): Promise<CrossChainStatusReply> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const r = await ask(orderId, txHash);
      if (done(r)) return r;
      if (Date.now() > end) throw new Error(`order ${orderId} still ${r.status} after ${timeoutMs} ms`);
      await new Promise((res) => setTimeout(res, 100));
    }
  }
  const terminal = (r: CrossChainStatusReply): boolean => TERMINAL.includes(r.status);
  const terminalEvents = (orderId: string): string[] =>
    events.filter((e) => e.orderId === orderId && TERMINAL.includes(e.status)).map((e) => e.status);
  const usdcBalance = async (n: 'ethereum' | 'base', holder: string): Promise<bigint> =>
    ERC20.decodeFunctionResult(
      'balanceOf',
      await chains[n].call({
        to: manifestToken(n === 'ethereum' ? eth : base, 'USDC').address,
        data: ERC20.encodeFunctionData('balanceOf', [holder]),
      }),
    )[0] as bigint;

  /**
   * A USDC ethereum -> base order as the quote service builds it on Across (Router.executeBridge,
   * the executor's deposit of all its USDC through the provider's deposit call), stored in `orders`.
   */
  async function storeOrder(amount: bigint): Promise<{ orderId: string; tx: { to: string; data: string } }> {
    const [usdcEth, usdcBase] = [manifestToken(eth, 'USDC').address, manifestToken(base, 'USDC').address];
    const quote = await provider.quote({
      originNetwork: 'ethereum',
      destinationNetwork: 'base',
      inputToken: usdcEth,
      inputAmount: amount,
      outputToken: usdcBase,
    });
    const call = provider.depositCall({ quote, depositor: executor, recipient: wallet.address, refundTo: wallet.address });
    const deadline = BigInt(quote.fillDeadline);
    const data = encodeExecuteBridge(
      {
        inputToken: usdcEth,
        inputAmount: amount,
        outputToken: usdcEth.toLowerCase(),
        minOutputAmount: amount,
        recipient: call.to,
        partner: ZERO,
        feeBps: 0,
        deadline,
      },
      [bridgeDepositExecutorCall(call, usdcEth)],
    );
    const orderId = randomUUID();
    const now = new Date();
    const sender = wallet.address.toLowerCase();
    const context = {
      orderId,
      inputToken: `ethereum:${usdcEth.toLowerCase()}`,
      inputAmount: amount.toString(),
      outputToken: `base:${usdcBase.toLowerCase()}`,
      outputAmount: quote.outputAmount.toString(),
      sender,
    };
    const tx = { to: eth.contracts.router.toLowerCase(), data, from: sender, value: '0' };
    await db.query(
      `INSERT INTO orders (order_id, network, chain_id, sender, created_at, expires_at, keep_until, context, tx, signed_order, calls)
       VALUES ($1, 'ethereum', 1, $2, $3, $4, $5, $6, $7, NULL, '[]')`,
      [orderId, sender, now, new Date(now.getTime() + 20 * 60_000), new Date(now.getTime() + 7 * 24 * 3600_000), context, tx],
    );
    return { orderId, tx };
  }
  async function send(tx: { to: string; data: string }): Promise<{ receipt: TransactionReceipt; deposit: BridgeDepositInfo }> {
    const receipt = (await (await wallet.sendTransaction({ to: tx.to, data: tx.data, gasLimit: 600_000n })).wait())!;
    expect(receipt.status).toBe(1);
    const [deposit] = await provider.findDeposit('ethereum', receipt.hash);
    expect(deposit).toMatchObject({ destinationNetwork: 'base', recipient: wallet.address, refundTo: wallet.address });
    return { receipt, deposit: deposit! };
  }

  it("PENDING / ONGOING while the relayer is offline, then SUCCESS with the relayer's FilledRelay as destination transaction", async () => {
    const { orderId, tx } = await storeOrder(1_000_000_000n);
    const { receipt, deposit } = await send(tx);
    const first = await ask(orderId, receipt.hash);
    expect(first).toMatchObject({
      txHash: receipt.hash,
      crossChainProvider: 'across',
      fromChainId: '1',
      toChainId: '8453',
      originTxHashes: [receipt.hash],
    });
    expect(['PENDING', 'ONGOING']).toContain(first.status);
    const ongoing = await until(orderId, receipt.hash, (r) => r.status !== 'PENDING');
    expect(ongoing).toMatchObject({ status: 'ONGOING', crossChainRequestId: deposit.requestId, destinationTxHashes: [] });
    const before = await usdcBalance('base', wallet.address);
    relayer.setMode('normal');
    const done = await until(orderId, receipt.hash, terminal);
    const fill = await provider.findFill('base', 1, deposit.requestId);
    expect(fill).toMatchObject({ recipient: wallet.address, filler: relayer.address, amount: deposit.outputAmount });
    expect(done).toMatchObject({
      status: 'SUCCESS',
      destinationTxHashes: [fill!.txHash],
      originTxHashes: [receipt.hash],
      crossChainRequestId: deposit.requestId,
    });
    expect(done.statusReason).toBeUndefined();
    expect(await usdcBalance('base', wallet.address)).toBe(before + deposit.outputAmount);
    expect(terminalEvents(orderId)).toEqual(['SUCCESS']);
    expect(await ask(orderId, receipt.hash)).toEqual(done);
  });

  // Last: it moves both chains' clocks past the 4-hour fill deadline.
  it('REFUND_STATUS when the deposit expired with the relayer offline and the data worker refunded it, the refund leaf as destination transaction', async () => {
    await worker.runBundle(); // repays the fill above first, so the next bundle holds only the refund
    relayer.setMode('offline');
    const { orderId, tx } = await storeOrder(500_000_000n);
    const before = await usdcBalance('ethereum', wallet.address);
    const { receipt, deposit } = await send(tx);
    expect(await usdcBalance('ethereum', wallet.address)).toBe(before - 500_000_000n);
    await until(orderId, receipt.hash, (r) => r.status === 'ONGOING');
    for (const c of Object.values(chains)) {
      const now = (await c.getBlock('latest'))!.timestamp;
      await c.send('evm_increaseTime', [toBeHex(Math.max(1, deposit.fillDeadline - now + 1))]);
      await c.send('evm_mine', []);
    }
    await new Promise((r) => setTimeout(r, 500));
    expect((await ask(orderId, receipt.hash)).status).toBe('ONGOING'); // expired, not refunded yet: no premature terminal state
    const bundle = await worker.runBundle();
    expect(bundle.payments.map((p) => [p.kind, getAddress(p.to), p.amount])).toEqual([
      ['expired-deposit-refund', wallet.address, 500_000_000n],
    ]);
    const done = await until(orderId, receipt.hash, terminal);
    const refund = await provider.findRefund('ethereum', deposit.requestId);
    expect(refund).toMatchObject({ refundTo: wallet.address, amount: 500_000_000n });
    expect(done).toMatchObject({ status: 'REFUND_STATUS', destinationTxHashes: [refund!.txHash], crossChainRequestId: deposit.requestId });
    expect(done.statusReason).toContain('not filled before the deadline');
    expect(done.statusReason).toContain(`refunded on the origin chain to ${wallet.address}`);
    expect(await usdcBalance('ethereum', wallet.address)).toBe(before);
    expect(terminalEvents(orderId)).toEqual(['REFUND_STATUS']);
  });
});
