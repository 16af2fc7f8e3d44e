/**
 * Signed orders relayed on a private devnet, through the quote service's real wiring (order store,
 * relayer, BullMQ worker): a wallet with tokens but no native token signs the quote's typed data
 * and the service pays the gas; concurrent and replayed submissions execute once; bad signatures
 * cost nothing; a stuck transaction is replaced; and a relayer process killed (SIGKILL) at four
 * points loses no order, executes none twice and leaves no nonce gap.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import Redis from 'ioredis';
import { Client } from 'pg';
import { Interface, JsonRpcProvider, MaxUint256, Signature, Transaction, Wallet, parseEther, zeroPadValue } from 'ethers';
import { JsonRpcClient } from '@tokensvc/chain';
import { routerInterface } from '@tokensvc/contracts';
import {
  TEST_ACCOUNTS,
  manifestToken,
  networkManifest,
  startDevnet,
  type DevnetHandle,
  type NetworkManifest,
  relayerKeyEnv,
} from '@tokensvc/devnet';
import { ErrorCode, type OrderReply, type StoredOrderReply } from '@tokensvc/messages';
import { createPgPool, dropDatabase, migrate } from '@tokensvc/persistence';
import { INFRA, createTestDatabaseUrl } from '@tokensvc/testing';
import type { ServiceError } from '@tokensvc/transport';
import { QUOTE_METRICS } from '../metrics';
import { BuildOrderUseCase } from '../orders/build-order.usecase';
import { TestPoolEvents } from '../testing/pool-events';
import { startQuoteHarness, type QuoteHarness } from '../testing/quote-harness';
import { seedReadModels } from '../testing/read-models';
import type { ChildArgs } from '../testing/relay-child';
import { OrderStore } from './order-store';
import { RelayQueue } from './relay-queue';
import { RelayRecords } from './relay-records';
import { RelaySender } from './relay-sender';
import type { RelayFaultPoint } from './relayer';
import { Relayer } from './relayer';
import { SubmitOrderUseCase } from './submit-order.usecase';

jest.setTimeout(600_000);

const ERC20 = new Interface([
  'function transfer(address,uint256) returns (bool)',
  'function approve(address,uint256) returns (bool)',
  'function balanceOf(address) view returns (uint256)',
]);
const EXECUTED = routerInterface().getEvent('SignedOrderExecuted')!;
const ROOT = join(__dirname, '..', '..', '..', '..');
const KILL_RUNS = 20;

describe('signed-order relaying on a private devnet', () => {
  let devnet: DevnetHandle;
  let net: NetworkManifest;
  let rpc: JsonRpcClient;
  let provider: JsonRpcProvider;
  let databaseUrl: string;
  let db: Client;
  let events: TestPoolEvents;
  let harness: QuoteHarness;
  let orders: BuildOrderUseCase;
  let submit: SubmitOrderUseCase;
  let relayer: Relayer;
  let funder: Wallet;
  let usdc: string;
  let weth: string;
  const key = (address: string): string => `ethereum:${address.toLowerCase()}`;

  beforeAll(async () => {
    // Apart from the shared test devnet's ports (TEST_DEVNET_BASE_PORT moves both, for two runs on one machine).
    devnet = await startDevnet({
      networks: ['ethereum'],
      basePort: Number(process.env['TEST_DEVNET_BASE_PORT'] ?? 18545) + 19_000,
      log: () => undefined,
    });
    net = networkManifest(devnet.manifest, 'ethereum');
    rpc = new JsonRpcClient(devnet.rpcUrls['ethereum']!);
    databaseUrl = createTestDatabaseUrl('quote_relay');
    await migrate(databaseUrl);
    await seedReadModels(databaseUrl, rpc, net);
    db = new Client({ connectionString: databaseUrl });
    await db.connect();
    events = await TestPoolEvents.create(INFRA.nats, 'relay');
    harness = await startQuoteHarness({
      databaseUrl,
      natsUrl: INFRA.nats,
      rpcUrl: devnet.rpcUrls['ethereum']!,
      manifestPath: devnet.manifestPath,
      relayerKeys: relayerKeyEnv(devnet.manifestPath),
      stream: events.stream,
      prefix: events.prefix,
      env: {
        RELAY_REPLACE_AFTER_MS: '500',
        RELAY_POLL_MS: '50',
        RELAY_LOCK_MS: '2000',
        RELAY_QUEUE_PREFIX: `relaytest${Date.now().toString(36)}`,
        RELAY_SUBMISSIONS_PER_CALLER_PER_MINUTE: '100000',
        RELAY_MAX_FEE_MULTIPLIER: '3',
      },
    });
    provider = new JsonRpcProvider(devnet.rpcUrls['ethereum']!, 1, { staticNetwork: true, cacheTimeout: -1 });
    provider.pollingInterval = 20;
    funder = new Wallet(TEST_ACCOUNTS[1]!.privateKey, provider);
    orders = harness.app.get(BuildOrderUseCase);
    submit = harness.app.get(SubmitOrderUseCase);
    relayer = harness.app.get(Relayer);
    usdc = manifestToken(net, 'USDC').address.toLowerCase();
    weth = manifestToken(net, 'WETH').address.toLowerCase();
  }, 180_000);

  afterAll(async () => {
    provider?.destroy();
    await harness?.close();
    await events?.dispose();
    await db?.end();
    await devnet?.stop();
    if (databaseUrl) await dropDatabase(databaseUrl);
  });

  const balanceOf = async (token: string, owner: string): Promise<bigint> =>
    BigInt(await provider.call({ to: token, data: ERC20.encodeFunctionData('balanceOf', [owner]) }));
  const relayerNonce = async (tag: 'latest' | 'pending' = 'latest'): Promise<number> =>
    provider.getTransactionCount(net.accounts.relayer.address, tag);
  const storedNonce = async (): Promise<number> =>
    Number(
      (
        await db.query<{ next_nonce: string }>(`SELECT next_nonce FROM relayer_nonces WHERE relayer = $1`, [
          net.accounts.relayer.address.toLowerCase(),
        ])
      ).rows[0]?.next_nonce ?? 0,
    );

  /** A fresh wallet holding `amount` USDC, the Router approved, and no native token at all. */
  async function gaslessWallet(amount: bigint): Promise<Wallet> {
    const w = new Wallet(Wallet.createRandom().privateKey, provider);
    await (await funder.sendTransaction({ to: w.address, value: parseEther('1') })).wait(1, 30_000);
    await (await funder.sendTransaction({ to: usdc, data: ERC20.encodeFunctionData('transfer', [w.address, amount]) })).wait(1, 30_000);
    await (
      await w.sendTransaction({ to: usdc, data: ERC20.encodeFunctionData('approve', [net.contracts.router, MaxUint256]) })
    ).wait(1, 30_000);
    await rpc.call('anvil_setBalance', [w.address, '0x0']);
    return w;
  }

  const quote = (w: Wallet, amount = 100_000_000n): Promise<OrderReply> =>
    orders.execute({
      sender: w.address.toLowerCase(),
      inputToken: key(usdc),
      inputAmount: amount.toString(),
      outputToken: key(weth),
      slippageTolerancePercentage: 2,
    });

  const sign = (
    w: Wallet,
    o: OrderReply,
    tweak: (t: { domain: Record<string, unknown>; value: Record<string, unknown> }) => void = () => undefined,
  ): Promise<string> => {
    const t = {
      domain: { ...(o.signedOrder!.domain as Record<string, unknown>) },
      value: { ...(o.signedOrder!.value as Record<string, unknown>) },
    };
    tweak(t);
    return w.signTypedData(t.domain, o.signedOrder!.types as never, t.value);
  };

  async function waitFinal(orderId: string, timeoutMs = 30_000): Promise<StoredOrderReply> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const s = await relayer.status(orderId);
      if (s.relay!.status !== 'pending' && s.relay!.status !== 'quoted') return s;
      if (Date.now() > deadline) throw new Error(`order ${orderId} still ${s.relay!.status}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** SignedOrderExecuted events of `sender` with `nonce` on the whole chain. */
  async function executions(sender: string, nonce: string): Promise<number> {
    const logs = await provider.getLogs({
      address: net.contracts.router,
      topics: [EXECUTED.topicHash, zeroPadValue(sender, 32)],
      fromBlock: 0,
      toBlock: 'latest',
    });
    return logs.filter((l) => (routerInterface().parseLog(l)!.args[1] as bigint).toString() === nonce).length;
  }

  async function refused(p: Promise<unknown>, code: ErrorCode, message: RegExp): Promise<void> {
    const e = (await p.then(
      () => undefined,
      (err: unknown) => err,
    )) as ServiceError | undefined;
    expect(e).toBeDefined();
    expect({ code: e!.code, message: e!.message }).toEqual({ code, message: expect.stringMatching(message) });
  }

  it('relays a signed order for a wallet without native token; status answers each stage', async () => {
    const mined = async (): Promise<number> =>
      (await QUOTE_METRICS.relayFinal.get()).values.find((v) => v.labels['network'] === 'ethereum' && v.labels['state'] === 'mined')
        ?.value ?? 0;
    const minedBefore = await mined();
    const w = await gaslessWallet(500_000_000n);
    const order = await quote(w);
    const ctx = order.context!;
    expect(order.signedOrder).toBeDefined();
    expect((await relayer.status(ctx.orderId)).relay).toMatchObject({ status: 'quoted', txHashes: [] });
    expect((await relayer.status(ctx.orderId)).order).toEqual(order);

    const signature = await sign(w, order);
    const accepted = await submit.execute({ orderId: ctx.orderId, signature, caller: 'test' });
    expect(accepted.relay).toMatchObject({
      status: expect.stringMatching(/^(pending|mined)$/),
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      relayer: net.accounts.relayer.address.toLowerCase(),
    });
    expect(accepted.order).toEqual(order);

    const final = await waitFinal(ctx.orderId);
    expect(final.relay).toMatchObject({ status: 'mined', txHash: accepted.relay!.txHash, txHashes: [accepted.relay!.txHash] });
    const receipt = await provider.getTransactionReceipt(final.relay!.txHash!);
    expect(receipt!.status).toBe(1);
    expect(receipt!.from.toLowerCase()).toBe(net.accounts.relayer.address.toLowerCase());
    expect(String(receipt!.blockNumber)).toBe(final.relay!.blockNumber);
    const received = await balanceOf(weth, w.address);
    expect(received).toBeGreaterThanOrEqual(BigInt(ctx.minOutputAmountSignedOrder));
    expect(final.relay!.receivedAmount).toBe(received.toString());
    expect(await provider.getBalance(w.address)).toBe(0n);
    // The relayer got its gas back in the input token.
    expect(await balanceOf(usdc, w.address)).toBe(400_000_000n);
    expect(await executions(w.address, String(order.signedOrder!.value!['nonce']))).toBe(1);
    expect(await mined()).toBe(minedBefore + 1); // quote_relay_final_total{state="mined"}
  });

  it('100 concurrent submissions of one signed order: one execution, the same transaction hash for every caller', async () => {
    const w = await gaslessWallet(200_000_000n);
    const order = await quote(w);
    const signature = await sign(w, order);
    const before = await relayerNonce();
    const replies = await Promise.all(
      Array.from({ length: 100 }, (_, i) => submit.execute({ orderId: order.context!.orderId, signature, caller: `caller-${i}` })),
    );
    const hashes = new Set(replies.map((r) => r.relay!.txHash));
    expect(hashes.size).toBe(1);
    const final = await waitFinal(order.context!.orderId);
    expect(final.relay!.status).toBe('mined');
    expect(final.relay!.txHash).toBe([...hashes][0]);
    expect(await executions(w.address, String(order.signedOrder!.value!['nonce']))).toBe(1);
    expect(await relayerNonce()).toBe(before + 1);
    // Replayed after it was mined: the same answer, nothing sent.
    const replay = await submit.execute({ orderId: order.context!.orderId, signature, caller: 'late' });
    expect(replay.relay).toMatchObject({ status: 'mined', txHash: final.relay!.txHash });
    expect(await relayerNonce()).toBe(before + 1);
  });

  it('refuses replayed, altered, expired, wrong-chain and high-s signatures with clear messages and no gas spent', async () => {
    const w = await gaslessWallet(300_000_000n);
    const a = await quote(w);
    const b = await quote(w);
    const id = a.context!.orderId;
    const nonceBefore = await relayerNonce('pending');
    const storedBefore = await storedNonce();

    await refused(
      submit.execute({ orderId: '0b1c8a2e-0000-4000-8000-000000000000', signature: await sign(w, a), caller: 't' }),
      ErrorCode.ERROR_CODE_NOT_FOUND,
      /^order 0b1c8a2e-.* not found/,
    );
    await refused(
      submit.execute({ orderId: 'not-an-order', signature: await sign(w, a), caller: 't' }),
      ErrorCode.ERROR_CODE_BAD_REQUEST,
      /orderId must be the UUID/,
    );
    // b's signature replayed on a
    await refused(
      submit.execute({ orderId: id, signature: await sign(w, b), caller: 't' }),
      ErrorCode.ERROR_CODE_BAD_REQUEST,
      /^signature does not match the order: it recovers to 0x[0-9a-f]{40}, not the sender/,
    );
    // altered: a smaller minimum output than quoted
    await refused(
      submit.execute({ orderId: id, signature: await sign(w, a, (t) => (t.value['minOutputAmount'] = '1')), caller: 't' }),
      ErrorCode.ERROR_CODE_BAD_REQUEST,
      /does not match the order/,
    );
    // wrong chain: the same order signed for arbitrum's chain id
    await refused(
      submit.execute({ orderId: id, signature: await sign(w, a, (t) => (t.domain['chainId'] = 42161)), caller: 't' }),
      ErrorCode.ERROR_CODE_BAD_REQUEST,
      /does not match the order.*same chain id 1,/,
    );
    // someone else's signature
    await refused(
      submit.execute({ orderId: id, signature: await sign(new Wallet(Wallet.createRandom().privateKey), a), caller: 't' }),
      ErrorCode.ERROR_CODE_BAD_REQUEST,
      /not the sender/,
    );
    // high-s twin of the valid signature
    const sig = Signature.from(await sign(w, a));
    const highS = (0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n - BigInt(sig.s)).toString(16).padStart(64, '0');
    await refused(
      submit.execute({ orderId: id, signature: `${sig.r}${highS}${sig.v === 27 ? '1c' : '1b'}`, caller: 't' }),
      ErrorCode.ERROR_CODE_BAD_REQUEST,
      /high s value/,
    );
    // expired: the chain's clock past the deadline (snapshot: later tests keep the real clock)
    const snap = await rpc.call<string>('evm_snapshot');
    try {
      await rpc.call('evm_increaseTime', [harness.config.quoteValiditySeconds + 60]);
      await rpc.call('evm_mine');
      await refused(
        submit.execute({ orderId: id, signature: await sign(w, a), caller: 't' }),
        ErrorCode.ERROR_CODE_BAD_REQUEST,
        /^order .* expired at .*; get a new quote/,
      );
    } finally {
      await rpc.call('evm_revert', [snap]);
    }
    // a failing simulation (allowance withdrawn) is never paid for
    await rpc.call('anvil_setBalance', [w.address, '0x16345785d8a0000']);
    await (await w.sendTransaction({ to: usdc, data: ERC20.encodeFunctionData('approve', [net.contracts.router, 0]) })).wait();
    await rpc.call('anvil_setBalance', [w.address, '0x0']);
    await refused(
      submit.execute({ orderId: id, signature: await sign(w, a), caller: 't' }),
      ErrorCode.ERROR_CODE_BAD_REQUEST,
      /^the order would revert on-chain \(.*\), so the relayer does not send it/,
    );

    expect(await relayerNonce('pending')).toBe(nonceBefore);
    expect(await storedNonce()).toBe(storedBefore);
    expect(
      (await db.query(`SELECT count(*)::int AS n FROM relay_submissions WHERE order_id = ANY($1)`, [[id, b.context!.orderId]])).rows[0],
    ).toEqual({ n: 0 });
  });

  it('refuses a second signature for a submitted order (409) and limits submissions per caller (429)', async () => {
    const w = await gaslessWallet(100_000_000n);
    const order = await quote(w, 50_000_000n);
    const signature = await sign(w, order);
    await submit.execute({ orderId: order.context!.orderId, signature, caller: 't' });
    // Re-signing gives the same bytes (RFC 6979): any other signature string is a different submission.
    const other = `${signature.slice(0, 4)}${signature[4] === 'a' ? 'b' : 'a'}${signature.slice(5)}`;
    await refused(
      submit.execute({ orderId: order.context!.orderId, signature: other, caller: 't' }),
      ErrorCode.ERROR_CODE_CONFLICT,
      /already submitted with another signature/,
    );
    await waitFinal(order.context!.orderId);

    const redis = new Redis(INFRA.redis);
    const limited = new SubmitOrderUseCase(relayer, redis, 2);
    try {
      const caller = `limit-${Date.now()}`;
      for (let i = 0; i < 2; i++)
        await refused(
          limited.execute({ orderId: '0b1c8a2e-0000-4000-8000-000000000001', signature, caller }),
          ErrorCode.ERROR_CODE_NOT_FOUND,
          /not found/,
        );
      await refused(
        limited.execute({ orderId: '0b1c8a2e-0000-4000-8000-000000000001', signature, caller }),
        ErrorCode.ERROR_CODE_RATE_LIMITED,
        /too many order submissions: 2 per minute per caller/,
      );
    } finally {
      redis.disconnect();
    }
  });

  it('replaces a transaction not mined in time with a fee bump; exactly one of them executes', async () => {
    const w = await gaslessWallet(100_000_000n);
    const order = await quote(w);
    const signature = await sign(w, order);
    await rpc.call('evm_setAutomine', [false]);
    try {
      const accepted = await submit.execute({ orderId: order.context!.orderId, signature, caller: 't' });
      const deadline = Date.now() + 20_000;
      let status = await relayer.status(order.context!.orderId);
      while (status.relay!.txHashes.length < 3) {
        if (Date.now() > deadline) throw new Error(`no replacement: ${JSON.stringify(status.relay)}`);
        await new Promise((r) => setTimeout(r, 50));
        status = await relayer.status(order.context!.orderId);
      }
      expect(status.relay!.txHashes[0]).toBe(accepted.relay!.txHash);
      const fees = (
        await db.query<{ f: string; p: string }>(
          `SELECT max_fee_per_gas AS f, max_priority_fee_per_gas AS p FROM relay_transactions WHERE order_id = $1 ORDER BY attempt`,
          [order.context!.orderId],
        )
      ).rows;
      for (let i = 1; i < fees.length; i++) {
        expect(BigInt(fees[i]!.f) * 100n).toBeGreaterThanOrEqual(BigInt(fees[i - 1]!.f) * 110n);
        expect(BigInt(fees[i]!.p) * 100n).toBeGreaterThanOrEqual(BigInt(fees[i - 1]!.p) * 110n);
      }
    } finally {
      await rpc.call('evm_setAutomine', [true]);
    }
    await rpc.call('evm_mine');
    const final = await waitFinal(order.context!.orderId);
    expect(final.relay!.status).toBe('mined');
    expect(final.relay!.txHashes).toContain(final.relay!.txHash);
    expect(await executions(w.address, String(order.signedOrder!.value!['nonce']))).toBe(1);
    expect(await relayerNonce('pending')).toBe(await storedNonce());
  });

  it('holds no database transaction (so no row or advisory lock) while it waits for the node: submit, send, bump, receipt, reconcile', async () => {
    const app = `relay-probe-${Date.now().toString(36)}`;
    const pool = createPgPool({ connectionString: databaseUrl, max: 5, application_name: app });
    const hits: string[] = [];
    const methods = new Set<string>();
    /** The node as this relayer sees it: during each call, a transaction its pool left open is a hit. */
    class ProbedRpc extends JsonRpcClient {
      override async call<T>(
        method: string,
        params: readonly unknown[] = [],
        opts: { retryIf?: (e: unknown) => boolean } = {},
      ): Promise<T> {
        methods.add(method);
        const open = await db.query<{ state: string; query: string }>(
          `SELECT state, query FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1 AND state LIKE 'idle in transaction%'`,
          [app],
        );
        for (const r of open.rows)
          hits.push(`${method} awaited with a transaction open (${r.state}) after: ${r.query.replace(/\s+/g, ' ').slice(0, 100)}`);
        return super.call<T>(method, params, opts);
      }
    }
    const probed = new Relayer({
      pool,
      store: new OrderStore(pool),
      networks: new Map([
        [
          'ethereum',
          {
            network: 'ethereum',
            chainId: 1,
            router: net.contracts.router.toLowerCase(),
            rpc: new ProbedRpc(devnet.rpcUrls['ethereum']!),
            wallet: new Wallet(net.accounts.relayer.privateKey),
          },
        ],
      ]),
      token: (_n, address) => harness.graphs.get('ethereum').token(address),
      options: harness.config.relay,
    });
    const w = await gaslessWallet(100_000_000n);
    const order = await quote(w);
    const id = order.context!.orderId;
    const count = async (): Promise<number> =>
      (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM relay_transactions WHERE order_id = $1`, [id])).rows[0]!.n;
    try {
      await rpc.call('evm_setAutomine', [false]);
      try {
        // Checks, simulation, fees, the nonce count, the claim, the re-simulation and the broadcast.
        await probed.submit(id, await sign(w, order));
        // Not mined: once RELAY_REPLACE_AFTER_MS has passed, a step replaces it with a fee bump.
        const deadline = Date.now() + 20_000;
        while ((await count()) < 2) {
          if (Date.now() > deadline) throw new Error('no fee bump');
          await probed.advance(id);
          await new Promise((r) => setTimeout(r, 100));
        }
      } finally {
        await rpc.call('evm_setAutomine', [true]);
      }
      await rpc.call('evm_mine');
      const deadline = Date.now() + 20_000;
      while (!(await probed.advance(id))) {
        if (Date.now() > deadline) throw new Error('not final');
        await new Promise((r) => setTimeout(r, 50));
      }
      await probed.reconcile();
    } finally {
      await pool.end();
    }
    expect((await relayer.status(id)).relay!.status).toBe('mined');
    expect(await executions(w.address, String(order.signedOrder!.value!['nonce']))).toBe(1);
    expect([...methods].sort()).toEqual(
      expect.arrayContaining([
        'eth_call',
        'eth_estimateGas',
        'eth_getBlockByNumber',
        'eth_getTransactionCount',
        'eth_getTransactionReceipt',
        'eth_sendRawTransaction',
      ]),
    );
    expect(hits).toEqual([]);
  });

  it('keeps a quote for a week: older ones are not found and are purged', async () => {
    const store = harness.app.get(OrderStore);
    const w = await gaslessWallet(10_000_000n);
    const order = await quote(w, 10_000_000n);
    const old = { ...order, context: { ...order.context!, orderId: '0b1c8a2e-0000-4000-8000-00000000000a' } };
    await store.save(
      {
        orderId: old.context.orderId,
        network: 'ethereum',
        chainId: 1,
        sender: w.address,
        expiresAt: new Date(Date.now() - 8 * 86_400_000 + 1_200_000),
        reply: old,
      },
      new Date(Date.now() - 8 * 86_400_000),
    );
    await refused(relayer.status(old.context.orderId), ErrorCode.ERROR_CODE_NOT_FOUND, /its week of retention is over/);
    expect(await store.purgeExpired()).toBeGreaterThanOrEqual(1);
    expect((await db.query(`SELECT count(*)::int AS n FROM orders WHERE order_id = $1`, [old.context.orderId])).rows[0]).toEqual({ n: 0 });
    expect((await relayer.status(order.context!.orderId)).order).toEqual(order);
  });

  /** Runs the relayer in its own process, which kills itself (SIGKILL) at `crashAt`. */
  function runChild(args: ChildArgs): Promise<{ signal: NodeJS.Signals | null; code: number | null; out: string }> {
    return new Promise((resolve) => {
      const child = spawn(
        process.execPath,
        ['-r', join(ROOT, 'tools/register.js'), join(ROOT, 'apps/quote/src/testing/relay-child.ts'), JSON.stringify(args)],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      child.on('exit', (code, signal) => resolve({ code, signal, out }));
    });
  }

  describe.each<RelayFaultPoint>(['after-sign', 'after-broadcast', 'after-mined', 'during-replacement'])('relayer killed %s', (point) => {
    it(`${KILL_RUNS} runs: 0 lost orders, 0 double executions, no nonce gap`, async () => {
      const w = await gaslessWallet(BigInt(KILL_RUNS) * 10_000_000n);
      const graph = harness.graphs.get('ethereum');
      const tokens = Object.fromEntries(
        [ZERO, usdc].map((a) => [a, { priceUsd: graph.token(a)!.priceUsd, decimals: graph.token(a)!.decimals }]),
      );
      const queue = harness.app.get(RelayQueue);
      for (let run = 0; run < KILL_RUNS; run++) {
        const order = await quote(w, 10_000_000n);
        const id = order.context!.orderId;
        const signature = await sign(w, order);
        let sent: number;
        if (point === 'during-replacement') await rpc.call('evm_setAutomine', [false]);
        try {
          const child = await runChild({
            databaseUrl,
            rpcUrl: devnet.rpcUrls['ethereum']!,
            network: 'ethereum',
            chainId: 1,
            router: net.contracts.router.toLowerCase(),
            relayerKey: net.accounts.relayer.privateKey,
            orderId: id,
            signature,
            crashAt: point,
            replaceAfterMs: 200,
            tokens,
          });
          expect({ run, signal: child.signal, out: child.signal ? '' : child.out }).toEqual({ run, signal: 'SIGKILL', out: '' });
          sent = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM relay_transactions WHERE order_id = $1`, [id])).rows[0]!.n;
          // A slow machine may replace once before the receipt shows (after-mined): at least the first, or first + bump.
          expect(sent).toBeGreaterThanOrEqual(point === 'during-replacement' ? 2 : 1);
        } finally {
          if (point === 'during-replacement') {
            await rpc.call('evm_setAutomine', [true]);
            await rpc.call('evm_mine');
          }
        }
        // The client retries its POST and gets the first answer; the restarted worker resumes the rest.
        const retried = await submit.execute({ orderId: id, signature, caller: 'retry' });
        expect(retried.relay!.txHashes.length).toBeGreaterThanOrEqual(sent);
        await queue.sweep();
        const final = await waitFinal(id);
        expect({ run, status: final.relay!.status }).toEqual({ run, status: 'mined' });
        expect({ run, executions: await executions(w.address, String(order.signedOrder!.value!['nonce'])) }).toEqual({
          run,
          executions: 1,
        });
      }
      // No nonce gap: every nonce taken was mined, and the counter is where the chain is.
      expect(await relayerNonce('pending')).toBe(await relayerNonce('latest'));
      expect(await storedNonce()).toBe(await relayerNonce('latest'));
      const open = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM relay_submissions WHERE state <> 'mined'`)).rows[0]!.n;
      expect(open).toBe(0);
    });
  });

  describe('griefing and a chain that lost transactions', () => {
    const relayerAddress = (): string => net.accounts.relayer.address.toLowerCase();
    const receiptOf = (hash: string): Promise<{ status: string; to: string } | null> => rpc.call('eth_getTransactionReceipt', [hash]);

    /** Waits until `cond` holds (polling the database or chain), or fails naming `what`. */
    async function until(what: string, cond: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (!(await cond())) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }

    it('50 concurrent orders of one sender with a pending cap of 7: exactly 7 accepted, the other 43 refused as too many pending', async () => {
      const cap = 7;
      const w = await gaslessWallet(50n * 10_000_000n);
      const quoted: OrderReply[] = [];
      for (let i = 0; i < 50; i++) quoted.push(await quote(w, 10_000_000n));
      const signatures = await Promise.all(quoted.map((o) => sign(w, o)));
      const pool = createPgPool({ connectionString: databaseUrl, max: 50 });
      const graph = harness.graphs.get('ethereum');
      const capped = new Relayer({
        pool,
        store: new OrderStore(pool),
        networks: new Map([
          [
            'ethereum',
            {
              network: 'ethereum',
              chainId: 1,
              router: net.contracts.router.toLowerCase(),
              rpc,
              wallet: new Wallet(net.accounts.relayer.privateKey),
            },
          ],
        ]),
        token: (_n, address) => graph.token(address),
        options: { ...harness.config.relay, maxPendingPerSender: cap },
      });
      // Nothing is mined meanwhile, so every accepted order stays pending and counts.
      await rpc.call('evm_setAutomine', [false]);
      let results: Array<PromiseSettledResult<StoredOrderReply>>;
      try {
        results = await Promise.allSettled(quoted.map((o, i) => capped.submit(o.context!.orderId, signatures[i]!)));
      } finally {
        await rpc.call('evm_setAutomine', [true]);
        await pool.end();
      }
      await rpc.call('evm_mine');
      const accepted = results.filter((r) => r.status === 'fulfilled');
      const refusals = results
        .filter((r): r is PromiseRejectedResult => r.status === 'rejected')
        .map((r) => ({ code: (r.reason as ServiceError).code, message: (r.reason as ServiceError).message }));
      expect({ accepted: accepted.length, refused: refusals.length }).toEqual({ accepted: cap, refused: 50 - cap });
      for (const r of refusals)
        expect(r).toEqual({
          code: ErrorCode.ERROR_CODE_RATE_LIMITED,
          message: expect.stringMatching(/already has 7 relayed orders pending \(limit 7\)/),
        });
      // The accepted ones are relayed as usual.
      await harness.app.get(RelayQueue).sweep();
      const submitted = (
        await db.query<{ order_id: string }>(`SELECT order_id FROM relay_submissions WHERE sender = $1`, [w.address.toLowerCase()])
      ).rows;
      expect(submitted).toHaveLength(cap);
      for (const s of submitted) expect((await waitFinal(s.order_id)).relay!.status).toBe('mined');
      expect(await relayerNonce('pending')).toBe(await storedNonce());
    });

    it('simulates again before each broadcast: an approval revoked after acceptance ends in a 0-value cancellation, not a paid revert', async () => {
      const w = await gaslessWallet(20_000_000n);
      const order = await quote(w, 10_000_000n);
      const id = order.context!.orderId;
      const baseFee = (await rpc.call<{ baseFeePerGas: string }>('eth_getBlockByNumber', ['latest', false])).baseFeePerGas;
      await rpc.call('evm_setAutomine', [false]);
      try {
        await submit.execute({ orderId: id, signature: await sign(w, order), caller: 't' });
        // A base fee above the relayer's bid keeps its transaction out of the next block, which
        // carries the sender's revocation: what the relayer sends next would revert.
        await rpc.call('anvil_setNextBlockBaseFeePerGas', ['0xe8d4a51000']);
        await rpc.call('anvil_setBalance', [w.address, '0xde0b6b3a7640000']);
        await w.sendTransaction({
          to: usdc,
          data: ERC20.encodeFunctionData('approve', [net.contracts.router, 0]),
          gasLimit: 100_000n,
          maxPriorityFeePerGas: 1_000_000_000n,
          maxFeePerGas: 3_000_000_000_000n,
        });
        await rpc.call('evm_mine');
        expect(await rpc.call('eth_getTransactionReceipt', [(await relayer.status(id)).relay!.txHash])).toBeNull();
        await until(
          'the relayer to cancel the order',
          async () => (await db.query(`SELECT 1 FROM relay_transactions WHERE order_id = $1 AND kind = 'cancel'`, [id])).rowCount === 1,
        );
        await rpc.call('evm_mine');
      } finally {
        await rpc.call('evm_setAutomine', [true]);
        await rpc.call('anvil_setNextBlockBaseFeePerGas', [baseFee]);
        await rpc.call('evm_mine');
      }
      const final = await waitFinal(id);
      expect(final.relay).toMatchObject({
        status: 'reverted',
        statusReason: expect.stringMatching(
          /^not sent: the order would now revert on-chain \(.+\); .* freed its nonce with a 0-value transaction/,
        ),
      });
      // What was mined is the relayer's 0-value transaction to itself; no order transaction was mined at all.
      const mined = (await Promise.all(final.relay!.txHashes.map(receiptOf))).filter((r) => r !== null);
      expect(mined).toEqual([expect.objectContaining({ status: '0x1', to: relayerAddress() })]);
      expect(await executions(w.address, String(order.signedOrder!.value!['nonce']))).toBe(0);
      expect(await relayerNonce('pending')).toBe(await storedNonce());
    });

    it('stops relaying for a sender whose relayed orders keep failing on chain (strikes), until the window has passed its latest failure', async () => {
      const w = await gaslessWallet(30_000_000n);
      const sender = w.address.toLowerCase();
      const failed = [await quote(w, 10_000_000n), await quote(w, 10_000_000n)];
      // Two of its orders failed on chain (as the cancellation above, or a mined revert, records them):
      // two strikes. Recorded for another gas wallet, so this relayer's nonce reconciliation never
      // takes them for its own transactions.
      for (const [i, o] of failed.entries()) {
        await db.query(
          `INSERT INTO relay_submissions (order_id, network, sender, signature, relayer, nonce, state, status_reason) VALUES ($1, 'ethereum', $2, '0x', $3, $4, 'reverted', 'not sent: test')`,
          [o.context!.orderId, sender, '0x000000000000000000000000000000000000dead', i],
        );
      }
      const order = await quote(w, 10_000_000n);
      const signature = await sign(w, order);
      const pool = createPgPool({ connectionString: databaseUrl, max: 4 });
      const struck = new Relayer({
        pool,
        store: new OrderStore(pool),
        networks: new Map([
          [
            'ethereum',
            {
              network: 'ethereum',
              chainId: 1,
              router: net.contracts.router.toLowerCase(),
              rpc,
              wallet: new Wallet(net.accounts.relayer.privateKey),
            },
          ],
        ]),
        token: (_n, address) => harness.graphs.get('ethereum').token(address),
        options: { ...harness.config.relay, senderStrikes: 2, strikeWindowMs: 24 * 3_600_000 },
      });
      const refused = (await struck.submit(order.context!.orderId, signature).then(
        () => undefined,
        (e: unknown) => e,
      )) as ServiceError | undefined;
      expect({ code: refused?.code, message: refused?.message }).toEqual({
        code: ErrorCode.ERROR_CODE_RATE_LIMITED,
        message: expect.stringMatching(
          new RegExp(
            `relaying is paused for sender ${sender}: 2 of its relayed orders failed on chain in the last 24 h .* it resumes at \\d{4}-.*send the order's transaction \\(tx of GET /v2/portal\\) yourself`,
          ),
        ),
      });
      expect((await db.query(`SELECT 1 FROM relay_submissions WHERE order_id = $1`, [order.context!.orderId])).rowCount).toBe(0);
      // Strikes older than the window do not count: the same order is relayed and mined.
      await db.query(`UPDATE relay_submissions SET updated_at = now() - interval '25 hours' WHERE order_id = ANY($1)`, [
        failed.map((o) => o.context!.orderId),
      ]);
      try {
        await struck.submit(order.context!.orderId, signature);
      } finally {
        await pool.end();
      }
      await harness.app.get(RelayQueue).sweep();
      expect((await waitFinal(order.context!.orderId)).relay!.status).toBe('mined');
    });

    it('stops bumping a stuck order at RELAY_MAX_FEE_MULTIPLIER times the gas price its relayer fee pays for', async () => {
      const w = await gaslessWallet(20_000_000n);
      const order = await quote(w, 10_000_000n);
      const id = order.context!.orderId;
      const graph = harness.graphs.get('ethereum');
      const input = graph.token(usdc)!;
      const native = graph.token(ZERO)!;
      const feeWei = (Number(order.signedOrder!.value!['relayerFee']) / 10 ** input.decimals) * (input.priceUsd / native.priceUsd) * 1e18;
      const txs = async (): Promise<Array<{ raw: string; f: string; kind: string }>> =>
        (
          await db.query<{ raw: string; f: string; kind: string }>(
            `SELECT raw, max_fee_per_gas AS f, kind FROM relay_transactions WHERE order_id = $1 ORDER BY attempt`,
            [id],
          )
        ).rows;
      await rpc.call('evm_setAutomine', [false]);
      let sent: Array<{ raw: string; f: string; kind: string }>;
      try {
        await submit.execute({ orderId: id, signature: await sign(w, order), caller: 't' });
        // Replacements every 500 ms at +15 %: without a ceiling, 30 s would reach 2^40 times the fee.
        let count = 0;
        let stableSince = Date.now();
        const deadline = Date.now() + 30_000;
        while (Date.now() < deadline && Date.now() - stableSince < 3_000) {
          await new Promise((r) => setTimeout(r, 100));
          const n = (await txs()).length;
          if (n !== count) [count, stableSince] = [n, Date.now()];
        }
        sent = await txs();
        expect(Date.now() - stableSince).toBeGreaterThanOrEqual(3_000);
      } finally {
        await rpc.call('evm_setAutomine', [true]);
      }
      await rpc.call('evm_mine');
      expect(sent.length).toBeGreaterThanOrEqual(3);
      expect(sent.every((t) => t.kind === 'order')).toBe(true);
      const multiplier = harness.config.relay.maxFeeMultiplier;
      for (const t of sent) {
        // The worst case of each transaction (its gas limit at its maxFeePerGas) within the multiple of the fee.
        const worst = Number(Transaction.from(t.raw).gasLimit * BigInt(t.f));
        expect(worst).toBeLessThanOrEqual(feeWei * multiplier * 1.001);
      }
      const last = sent.at(-1)!;
      expect(Number(Transaction.from(last.raw).gasLimit * BigInt(last.f)) * 1.15).toBeGreaterThan(feeWei * multiplier * 0.999);
      expect((await waitFinal(id)).relay).toMatchObject({ status: 'mined' });
      expect(await executions(w.address, String(order.signedOrder!.value!['nonce']))).toBe(1);
    });

    /** Relays an order of `w` to the end; returns its id and signature nonce. */
    async function relayed(w: Wallet): Promise<{ id: string; nonce: string }> {
      const order = await quote(w, 10_000_000n);
      await submit.execute({ orderId: order.context!.orderId, signature: await sign(w, order), caller: 't' });
      expect((await waitFinal(order.context!.orderId)).relay!.status).toBe('mined');
      return { id: order.context!.orderId, nonce: String(order.signedOrder!.value!['nonce']) };
    }

    it.each(['a new order', 'the start'])(
      'a chain reverted below the stored nonce, found by %s: the nonce comes back, lost orders are sent again exactly once, nothing waits behind a gap',
      async (by) => {
        const reconciled = async (): Promise<number> =>
          (await QUOTE_METRICS.nonceReconciled.get()).values.find((v) => v.labels['network'] === 'ethereum')?.value ?? 0;
        const reconciledBefore = await reconciled();
        const [w1, w2] = [await gaslessWallet(40_000_000n), await gaslessWallet(40_000_000n)];
        const snap = await rpc.call<string>('evm_snapshot');
        // Funded after the snapshot: on the reverted chain it has nothing, so its order can only revert.
        const late = await gaslessWallet(20_000_000n);
        const a = await relayed(w1);
        const b = await relayed(w2);
        const c = await relayed(late);
        const stored = await storedNonce();
        await rpc.call('evm_revert', [snap]);
        expect(await relayerNonce('latest')).toBe(stored - 3);

        let d: { id: string; nonce: string } | undefined;
        if (by === 'a new order') {
          const order = await quote(w1, 10_000_000n);
          d = { id: order.context!.orderId, nonce: String(order.signedOrder!.value!['nonce']) };
          await submit.execute({ orderId: d.id, signature: await sign(w1, order), caller: 't' });
        } else {
          // What RelayQueue.start runs before its first sweep.
          expect((await relayer.reconcile()).sort()).toEqual([a.id, b.id, c.id].sort());
        }
        for (const [w, o] of [[w1, a], [w2, b], ...(d ? [[w1, d] as const] : [])] as const) {
          expect({ id: o.id, status: (await waitFinal(o.id)).relay!.status }).toEqual({ id: o.id, status: 'mined' });
          expect(await executions(w.address, o.nonce)).toBe(1);
        }
        const lost = await waitFinal(c.id);
        expect(lost.relay).toMatchObject({
          status: 'reverted',
          statusReason: expect.stringMatching(/^not sent: the order would now revert on-chain/),
        });
        expect(await executions(late.address, c.nonce)).toBe(0);
        // No gap: every nonce taken is mined, and the stored counter is the chain's.
        expect(await relayerNonce('pending')).toBe(await relayerNonce('latest'));
        expect(await storedNonce()).toBe(await relayerNonce('latest'));
        expect(await storedNonce()).toBe(stored + (d ? 1 : 0));
        expect(await reconciled()).toBeGreaterThan(reconciledBefore); // quote_relayer_nonce_reconciled_total
      },
    );

    it('a replica re-checking an order another has just had mined records no cancellation; a chain that then loses the block executes the order again', async () => {
      const w = await gaslessWallet(20_000_000n);
      const snap = await rpc.call<string>('evm_snapshot');
      const a = await relayed(w);
      const net = relayer.networks.get('ethereum')!;
      const kinds = async (): Promise<string[]> =>
        (await db.query<{ kind: string }>(`SELECT kind FROM relay_transactions WHERE order_id = $1 ORDER BY attempt`, [a.id])).rows.map(
          (r) => r.kind,
        );
      // The window a second replica can hit: the transaction mined on chain, the submission not yet recorded final.
      await db.query(
        `UPDATE relay_submissions SET state = 'pending', mined_tx_hash = NULL, block_number = NULL, gas_used = NULL, output_amount = NULL WHERE order_id = $1`,
        [a.id],
      );
      const pool = createPgPool({ connectionString: databaseUrl, max: 2 });
      try {
        const records = new RelayRecords(pool);
        const replica = new RelaySender(
          {
            pool,
            store: harness.app.get(OrderStore),
            networks: relayer.networks,
            token: (n, t) => harness.graphs.get(n).token(t),
            options: harness.config.relay,
          },
          records,
        );
        // It read the transaction before the first replica marked it broadcast, so it sends it (after a re-simulation, which reverts: the signature nonce is used).
        const [tx] = await records.transactions(a.id);
        await replica.send(net, (await records.submission(a.id))!, { ...tx!, broadcast_at: null });
      } finally {
        await pool.end();
      }
      expect(await kinds()).toEqual(['order']);
      await relayer.advance(a.id);
      expect((await relayer.status(a.id)).relay).toMatchObject({ status: 'mined' });

      // What an earlier version could record in that window: a cancellation at the mined nonce, never mined anywhere.
      const order = Transaction.from(
        (await db.query<{ raw: string }>(`SELECT raw FROM relay_transactions WHERE order_id = $1`, [a.id])).rows[0]!.raw,
      );
      const cancel = await net.wallet.signTransaction({
        type: 2,
        chainId: 1,
        nonce: order.nonce,
        to: net.wallet.address,
        value: 0n,
        gasLimit: 21_000n,
        maxFeePerGas: order.maxFeePerGas! * 2n,
        maxPriorityFeePerGas: order.maxPriorityFeePerGas! * 2n,
      });
      await db.query(
        `INSERT INTO relay_transactions (tx_hash, order_id, attempt, raw, max_fee_per_gas, max_priority_fee_per_gas, kind, broadcast_at) VALUES ($1, $2, 1, $3, 0, 0, 'cancel', now())`,
        [Transaction.from(cancel).hash, a.id, cancel],
      );
      // The chain loses the block: the order, not the cancellation, is what is sent again.
      await rpc.call('evm_revert', [snap]);
      expect(await executions(w.address, a.nonce)).toBe(0);
      expect(await relayer.reconcile()).toEqual([a.id]);
      expect((await waitFinal(a.id)).relay).toMatchObject({ status: 'mined' });
      expect(await kinds()).toEqual(['order']);
      expect(await executions(w.address, a.nonce)).toBe(1);
      expect(await storedNonce()).toBe(await relayerNonce('latest'));
    });
  });

  // Last: the cancellation moves the chain's clock past every deadline quoted so far.
  describe('reverted and expired outcomes', () => {
    it('reports a transaction that reverts on-chain as reverted, with the reason', async () => {
      const w = await gaslessWallet(20_000_000n);
      const order = await quote(w, 10_000_000n);
      const id = order.context!.orderId;
      await rpc.call('evm_setAutomine', [false]);
      try {
        await submit.execute({ orderId: id, signature: await sign(w, order), caller: 't' });
        // The sender moves its tokens away in the same block, with a higher tip, so it runs first.
        await rpc.call('anvil_setBalance', [w.address, '0xde0b6b3a7640000']);
        await w.sendTransaction({
          to: usdc,
          data: ERC20.encodeFunctionData('transfer', [funder.address, 20_000_000n]),
          gasLimit: 100_000n,
          maxPriorityFeePerGas: 100_000_000_000n,
          maxFeePerGas: 200_000_000_000n,
        });
        await rpc.call('evm_mine');
      } finally {
        await rpc.call('evm_setAutomine', [true]);
      }
      const final = await waitFinal(id);
      expect(final.relay).toMatchObject({
        status: 'reverted',
        statusReason: expect.stringMatching(/^execution reverted: ERC20InsufficientBalance\(/),
      });
      expect(final.relay!.blockNumber).toBeDefined();
      expect(await executions(w.address, String(order.signedOrder!.value!['nonce']))).toBe(0);
      expect(await relayerNonce('pending')).toBe(await storedNonce());
    });

    it('frees the nonce of an order still pending at its deadline with a 0-value transaction and reports it expired', async () => {
      const w = await gaslessWallet(20_000_000n);
      const order = await quote(w, 10_000_000n);
      const id = order.context!.orderId;
      await rpc.call('evm_setAutomine', [false]);
      try {
        await submit.execute({ orderId: id, signature: await sign(w, order), caller: 't' });
        // A base fee above what the order's transaction bids keeps it out of the block that moves time on.
        await rpc.call('anvil_setNextBlockBaseFeePerGas', ['0xe8d4a51000']);
        await rpc.call('evm_increaseTime', [harness.config.quoteValiditySeconds + 60]);
        await rpc.call('evm_mine');
        const deadline = Date.now() + 20_000;
        while ((await db.query(`SELECT 1 FROM relay_transactions WHERE order_id = $1 AND kind = 'cancel'`, [id])).rowCount === 0) {
          if (Date.now() > deadline) throw new Error('no cancellation was sent');
          await new Promise((r) => setTimeout(r, 50));
        }
        await rpc.call('evm_mine');
      } finally {
        await rpc.call('evm_setAutomine', [true]);
      }
      const final = await waitFinal(id);
      expect(final.relay).toMatchObject({
        status: 'expired',
        statusReason: expect.stringMatching(/freed its nonce with a 0-value transaction/),
      });
      const receipt = await provider.getTransactionReceipt(final.relay!.txHash!);
      expect(receipt!.to!.toLowerCase()).toBe(net.accounts.relayer.address.toLowerCase());
      expect(await executions(w.address, String(order.signedOrder!.value!['nonce']))).toBe(0);
      expect(await relayerNonce('pending')).toBe(await relayerNonce('latest'));
      expect(await storedNonce()).toBe(await relayerNonce('latest'));
    });

    it('reports a quote never submitted before its deadline as expired', async () => {
      const stale = await db.query<{ order_id: string }>(
        `SELECT order_id FROM orders o WHERE NOT EXISTS (SELECT 1 FROM relay_submissions s WHERE s.order_id = o.order_id) LIMIT 1`,
      );
      expect(stale.rowCount).toBe(1);
      const quoted = await relayer.status(stale.rows[0]!.order_id);
      expect(quoted.relay!.status).toBe('quoted');
      // Twenty minutes later, as far as the quote's expiry is concerned:
      await db.query(`UPDATE orders SET expires_at = now() - interval '1 second' WHERE order_id = $1`, [stale.rows[0]!.order_id]);
      expect((await relayer.status(stale.rows[0]!.order_id)).relay).toMatchObject({
        status: 'expired',
        statusReason: expect.stringMatching(/^the quote expired at .* without being submitted; get a new quote/),
      });
    });
  });
});

const ZERO = '0x0000000000000000000000000000000000000000';
