/**
 * Cross-chain orders end to end on Across (issues 8 and 19, "What must be shown"): the whole
 * platform as `npm start` runs it -- gateway, token-data, indexer, quote and status-tracker as
 * processes, and Across's devnet relayer and data worker as a process, over Across's own SpokePools
 * and MulticallHandler -- on PRIVATE devnets (ethereum and base: the test moves their clocks, so
 * never the shared test devnet), its own database and a private nats-server.
 *
 * Through the gateway only: GET /v2/approval (with outputToken), the approval sent when
 * shouldApprove, GET /v2/portal, the order's `tx` sent as it is by a test wallet, then
 * GET /v3/portal/status polled until a terminal state. The states seen must be a valid sequence
 * (PENDING / ONGOING, then one terminal state, never back), and so must the transitions the tracker
 * recorded (its status_events outbox); the outcome is checked on chain.
 *
 *   1. USDC on ethereum -> USDC on base: SUCCESS, the full record, the recipient paid on base
 *   2. USDC on ethereum -> a vault share on base (the deposit message's zap, run by the MulticallHandler in the fill): SUCCESS
 *   3. native ETH on ethereum -> USDC on base (the origin swap; exactly the minimum deposited): SUCCESS
 *   3b. native ETH on ethereum -> an LP share on base (the message's zap into the pair): SUCCESS
 *   3c. USDC on ethereum -> WETH on base (swapped into WETH on ethereum; the MulticallHandler passes on the WETH Across would pay an EOA as ETH): SUCCESS
 *   4. the relayer restarted offline, the fill deadline passed (anvil time control): Across's data
 *      worker refunds the deposit through a relayer refund leaf; REFUND_STATUS, the refund on the origin balance
 *   5. an order sent after its expiry reverts on the origin: FAILED; a txHash that made no deposit: 404, nothing tracked
 *   6. 404 for an order found nowhere, 400 for a malformed txHash
 *   7. bad input: 400s saying what to change (under Across's minimum, fees not covered, unknown token, a pair not served, a permit)
 * 4 and 5 move the chains' clocks, so they run after 1-3 (and 5 after 4).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Interface, JsonRpcProvider, Wallet, parseEther, toBeHex } from 'ethers';
import { Pool } from 'pg';
import { AcrossBridgeProvider, acrossConfigFromManifest, type AcrossManifestLike, type BridgeDepositInfo } from '@tokensvc/bridge';
import { JsonRpcClient } from '@tokensvc/chain';
import {
  TEST_ACCOUNTS,
  manifestPlatform,
  manifestToken,
  networkManifest,
  startDevnet,
  type DevnetHandle,
  type NetworkManifest,
} from '@tokensvc/devnet';
import { ApiKeysRepository, dropDatabase, migrate } from '@tokensvc/persistence';
import {
  APPS,
  INFRA,
  PrivateNatsServer,
  createTestDatabaseUrl,
  deleteRedisKeys,
  isolatedQueuesEnv,
  freePort,
  freePortRange,
  hasBinary,
  startAcrossRelayerProcess,
  startApp,
  stopProcess,
  waitForHttp,
  type AcrossRelayerProcess,
  type AppName,
  type AppProcess,
  type PlatformEnv,
} from '@tokensvc/testing';

/** Private devnet ports of this file (ethereum, base): outside every other test's range, moved with TEST_DEVNET_BASE_PORT like theirs. */
const DEVNET_BASE_PORT = Number(process.env['TEST_DEVNET_BASE_PORT'] ?? 18545) + 24_000;
const NATIVE = '0x0000000000000000000000000000000000000000';
const ERC20 = new Interface(['function balanceOf(address) view returns (uint256)']);
const TERMINAL = ['SUCCESS', 'REFUND_STATUS', 'FAILED'] as const;
type Status = 'PENDING' | 'ONGOING' | (typeof TERMINAL)[number];
/** A state may only be followed by one of a higher rank: PENDING, ONGOING, then one terminal state. */
const RANK: Record<Status, number> = { PENDING: 0, ONGOING: 1, SUCCESS: 2, REFUND_STATUS: 2, FAILED: 2 };
const POLL_MS = 1000;

interface Order {
  context: Record<string, any> & { orderId: string; minOutputAmount: string; outputAmount: string; expiry: string; target: string };
  tx: { to: string; data: string; from?: string; value?: string; gasLimit?: string };
}
interface StatusRecord {
  context?: Record<string, unknown>;
  tx?: Record<string, unknown>;
  txHash: string;
  status: Status;
  statusReason?: string;
  crossChainRequestId?: string;
  crossChainProvider?: string;
  destinationTxHashes: string[];
  originTxHashes: string[];
  fromChainId: number;
  toChainId: number;
}

describe('cross-chain orders end to end through the gateway on Across (whole platform + Across relayer on private devnets)', () => {
  const fileStarted = Date.now();
  const dbUrl = createTestDatabaseUrl('xchain_e2e');
  const queuePrefix = `xce2e${randomBytes(3).toString('hex')}`;
  let nats: PrivateNatsServer | undefined;
  let devnet: DevnetHandle;
  let eth: NetworkManifest;
  let base: NetworkManifest;
  let env: PlatformEnv;
  let gateway: string;
  let db: Pool;
  let bridge: AcrossBridgeProvider;
  let origin: JsonRpcProvider;
  let destination: JsonRpcProvider;
  const procs = new Map<AppName, AppProcess>();
  let relayer: AcrossRelayerProcess | undefined;
  const logs: string[] = [];
  const relayerLogs: string[] = [];
  /** one paid key per scenario: trading calls are limited to 100 a minute per key */
  const keys: string[] = [];
  const timings: string[] = [];

  const tail = (lines: string[], n = 25): string => lines.slice(-n).join('\n');
  /** Across's devnet relayer (in `mode`) with its data worker bundling every 2 s (refunds of expired deposits). */
  const startRelayer = async (mode: string): Promise<void> => {
    relayerLogs.push(`--- relayer started in mode ${mode} ---`);
    relayer = startAcrossRelayerProcess(env, { mode, bundleEverySeconds: 2, fund: relayerLogs.length === 1 }, (line) =>
      relayerLogs.push(line),
    );
    const started = await relayer.started.catch((e: unknown) => {
      throw new Error(`${(e as Error).message}\n${tail(relayerLogs)}`);
    });
    expect(started.mode).toBe(mode);
  };
  const stopRelayer = async (): Promise<void> => {
    if (relayer) await stopProcess(relayer);
    relayer = undefined;
  };

  const tokenKey = (n: NetworkManifest, symbol: string): string => `${n.network}:${manifestToken(n, symbol).address.toLowerCase()}`;
  const vaultKey = (n: NetworkManifest, symbol: string): string => {
    const v = manifestPlatform(n, 'erc4626-vaults').vaults.find((x) => x.symbol === symbol);
    if (!v) throw new Error(`no vault ${symbol} on ${n.network}`);
    return `${n.network}:${v.address.toLowerCase()}`;
  };

  async function call(path: string, key: string): Promise<{ status: number; body: any; headers: Headers }> {
    const res = await fetch(`${gateway}${path}`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(30_000) });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: kept as text for the failure message
    }
    return { status: res.status, body, headers: res.headers };
  }
  async function ok(path: string, key: string): Promise<any> {
    const r = await call(path, key);
    if (r.status !== 200) throw new Error(`GET ${path} answered ${r.status}: ${JSON.stringify(r.body)}`);
    return r.body;
  }

  /** Balances through the project's RPC client (it retries what a history-less anvil answers while a block lands). */
  async function balance(n: NetworkManifest, token: string, owner: string): Promise<bigint> {
    const rpc = new JsonRpcClient(devnet.rpcUrls[n.network]!);
    if (token.toLowerCase() === NATIVE) return BigInt(await rpc.call<string>('eth_getBalance', [owner, 'latest']));
    return BigInt(await rpc.call<string>('eth_call', [{ to: token, data: ERC20.encodeFunctionData('balanceOf', [owner]) }, 'latest']));
  }
  async function chainNow(p: JsonRpcProvider): Promise<number> {
    return (await p.getBlock('latest'))!.timestamp;
  }
  async function passTime(seconds: number, chains: JsonRpcProvider[]): Promise<void> {
    for (const p of chains) {
      await p.send('evm_increaseTime', [toBeHex(seconds)]);
      await p.send('evm_mine', []);
    }
  }

  /** The wallet sends a transaction as the API returned it; the receipt whatever its status. */
  async function send(wallet: Wallet, tx: Order['tx']): Promise<{ hash: string; status: number }> {
    if (tx.from !== undefined) expect(tx.from.toLowerCase()).toBe(wallet.address.toLowerCase());
    const sent = await wallet.sendTransaction({
      to: tx.to,
      data: tx.data,
      value: BigInt(tx.value ?? '0'),
      gasLimit: tx.gasLimit === undefined ? undefined : BigInt(tx.gasLimit),
    });
    return { hash: sent.hash, status: await minedStatus(sent.hash) };
  }

  /**
   * The receipt's status, polled (not ethers' waitForTransaction: it waits for a next block when the
   * automining anvil mined the transaction between its first look and its block listener, and on a
   * quiet chain no next block comes).
   */
  async function minedStatus(hash: string): Promise<number> {
    const rpc = new JsonRpcClient(devnet.rpcUrls['ethereum']!);
    const until = Date.now() + 60_000;
    for (;;) {
      const receipt = await rpc.call<{ status: string } | null>('eth_getTransactionReceipt', [hash]);
      if (receipt) return Number(receipt.status);
      if (Date.now() > until) throw new Error(`transaction ${hash} not mined within 60 s`);
      await new Promise((res) => setTimeout(res, 50));
    }
  }

  /**
   * GET /v2/approval with outputToken (ERC-20 input only: the API takes no native input there),
   * the approval sent when shouldApprove, then GET /v2/portal. The spender is the order's target.
   */
  async function quote(wallet: Wallet, key: string, inputToken: string, inputAmount: bigint, outputToken: string): Promise<Order> {
    const sender = wallet.address.toLowerCase();
    const params = `sender=${sender}&inputToken=${inputToken}&inputAmount=${inputAmount}&outputToken=${outputToken}`;
    let spender: string | undefined;
    if (!inputToken.endsWith(NATIVE)) {
      const approval = await ok(`/v2/approval?${params}`, key);
      expect(approval.context).toMatchObject({ canPermit: false, network: 'ethereum' });
      spender = approval.context.spender;
      if (approval.context.shouldApprove) {
        expect(approval.approve.to.toLowerCase()).toBe(inputToken.split(':')[1]);
        const r = await send(wallet, approval.approve);
        expect(r.status).toBe(1);
      }
    }
    const order = (await ok(`/v2/portal?${params}&slippageTolerancePercentage=1`, key)) as Order;
    expect(order.context.target).toBe(order.tx.to);
    if (spender !== undefined) expect(spender).toBe(order.context.target);
    expect(order).not.toHaveProperty('signedOrder');
    return order;
  }

  /** Polls GET /v3/portal/status; every answer is recorded, so the whole sequence is checked at the end. */
  class StatusWatch {
    readonly seen: Status[] = [];
    last: StatusRecord | undefined;
    constructor(
      readonly orderId: string,
      readonly txHash: string,
      private readonly key: string,
    ) {}

    async poll(): Promise<StatusRecord> {
      for (;;) {
        const r = await call(`/v3/portal/status?orderId=${this.orderId}&txHash=${this.txHash}`, this.key);
        if (r.status === 429) {
          // a client waits as told
          await new Promise((res) => setTimeout(res, Number(r.headers.get('retry-after') ?? '1') * 1000));
          continue;
        }
        if (r.status !== 200)
          throw new Error(`GET /v3/portal/status for ${this.orderId} ${this.txHash} answered ${r.status}: ${JSON.stringify(r.body)}`);
        const rec = r.body as StatusRecord;
        if (!(rec.status in RANK)) throw new Error(`unknown status ${JSON.stringify(rec.status)}`);
        this.seen.push(rec.status);
        this.last = rec;
        return rec;
      }
    }

    async until(what: string, done: (r: StatusRecord) => boolean, timeoutMs: number): Promise<StatusRecord> {
      const started = Date.now();
      for (;;) {
        const r = await this.poll();
        if (done(r)) return r;
        if (Date.now() - started > timeoutMs) {
          throw new Error(
            `order ${this.orderId}: still ${r.status} after ${timeoutMs} ms waiting for ${what} (seen: ${this.distinct().join(' -> ')})\nrelayer:\n${tail(relayerLogs)}\nplatform:\n${tail(logs)}`,
          );
        }
        await new Promise((res) => setTimeout(res, POLL_MS));
      }
    }

    terminal(timeoutMs: number): Promise<StatusRecord> {
      return this.until('a terminal state', (r) => (TERMINAL as readonly string[]).includes(r.status), timeoutMs);
    }

    distinct(): Status[] {
      return this.seen.filter((s, i) => i === 0 || s !== this.seen[i - 1]);
    }

    /** PENDING / ONGOING, then the expected terminal state, never back; and the record stays final. */
    async expectValid(terminal: Status): Promise<void> {
      for (let i = 0; i < 2; i++) {
        await new Promise((res) => setTimeout(res, 300));
        expect(await this.poll()).toEqual(this.last);
      }
      const d = this.distinct();
      const valid = d.every((s, i) => i === 0 || RANK[s] > RANK[d[i - 1]!]) && d[d.length - 1] === terminal;
      expect({ sequence: d, valid }).toEqual({ sequence: d, valid: true });
      // The tracker's own record of the transitions (its outbox, one event per transition): the same order, one terminal event, last.
      const { rows } = await db.query<{ status: Status }>(
        `SELECT status FROM status_events WHERE order_id = $1 AND lower(tx_hash) = lower($2) ORDER BY seq`,
        [this.orderId, this.txHash],
      );
      const events = rows.map((r) => r.status);
      expect(events.filter((s) => (TERMINAL as readonly string[]).includes(s))).toEqual([terminal]);
      expect(events[events.length - 1]).toBe(terminal);
      expect(events.every((s, i) => i === 0 || RANK[s] > RANK[events[i - 1]!])).toBe(true);
    }
  }

  const timed = (name: string, startedAt: number, seq: Status[]): void => {
    timings.push(`${name}: ${((Date.now() - startedAt) / 1000).toFixed(1)} s (seen ${seq.join(' -> ')})`);
  };

  beforeAll(async () => {
    // A private nats-server keeps this platform's requests, pool events and status events to itself;
    // it runs the production bus permissions (every app connects as its own user).
    if (hasBinary('nats-server')) {
      nats = new PrivateNatsServer(await freePort(), { auth: true });
      await nats.start();
    }
    devnet = await startDevnet({ networks: ['ethereum', 'base'], basePort: DEVNET_BASE_PORT, log: () => undefined });
    eth = networkManifest(devnet.manifest, 'ethereum');
    base = networkManifest(devnet.manifest, 'base');
    await migrate(dbUrl);
    db = new Pool({ connectionString: dbUrl, max: 2 });
    const repo = new ApiKeysRepository(db);
    for (let i = 0; i < 8; i++) keys.push((await repo.issue({ tier: 'paid', label: `cross-chain e2e ${i}` })).key);
    // Across's minimum deposit of USDC (1 USDC, as the configured fee model is told): scenario 7 goes below it.
    const extraEnv: Record<string, string> = { ...isolatedQueuesEnv(queuePrefix, nats !== undefined), ACROSS_MIN_INPUT: 'USDC=1000000' };
    env = {
      databaseUrl: dbUrl,
      natsUrl: nats?.url ?? INFRA.nats,
      natsPasswords: nats?.passwords,
      redisUrl: INFRA.redis,
      rpcUrls: devnet.rpcUrls,
      manifestPath: devnet.manifestPath,
      gatewayPort: await freePort(),
      healthPortBase: await freePortRange(5),
      logLevel: 'warn',
      extraEnv,
    };
    gateway = `http://127.0.0.1:${env.gatewayPort}`;
    // The relayer first: its funding mines blocks, and the first block after a loaded anvil state
    // takes the loaded block's state away (an indexer preflight reading it would fail).
    await startRelayer('normal');
    for (const app of APPS)
      procs.set(
        app,
        startApp(app, env, (name, line) => logs.push(`[${name}] ${line}`)),
      );
    await waitForHttp(`${gateway}/health/ready`, 240_000, (s, body) => s === 200 && !body.includes('"down"')).catch((e: unknown) => {
      throw new Error(`${(e as Error).message}\n${tail(logs, 40)}`);
    });
    // The quote service routes once the indexer has written and published the pools of both networks.
    const pairs = [
      [tokenKey(eth, 'USDC'), tokenKey(base, 'USDC')],
      [tokenKey(eth, 'USDC'), vaultKey(base, 'steakUSDC')],
      [`ethereum:${NATIVE}`, tokenKey(base, 'USDC')],
    ];
    const until = Date.now() + 180_000;
    for (const [input, output] of pairs) {
      const amount = input!.endsWith(NATIVE) ? parseEther('1') : 1_000_000_000n;
      for (;;) {
        const r = await call(`/v2/portal/estimate?inputToken=${input}&inputAmount=${amount}&outputToken=${output}`, keys[5]!);
        if (r.status === 200) break;
        if (Date.now() > until)
          throw new Error(`no estimate for ${input} -> ${output} within 180 s: ${r.status} ${JSON.stringify(r.body)}\n${tail(logs, 40)}`);
        await new Promise((res) => setTimeout(res, 2000));
      }
    }
    bridge = new AcrossBridgeProvider({
      config: acrossConfigFromManifest(devnet.manifest as unknown as AcrossManifestLike),
      rpcUrls: devnet.rpcUrls,
    });
    origin = new JsonRpcProvider(devnet.rpcUrls['ethereum']!, 1, { staticNetwork: true, cacheTimeout: -1 });
    destination = new JsonRpcProvider(devnet.rpcUrls['base']!, 8453, { staticNetwork: true, cacheTimeout: -1 });
    origin.pollingInterval = 50;
    destination.pollingInterval = 50;
    timings.push(
      `platform ready (devnets, migrations, five apps + Across relayer, indexer backfill, quote graph): ${((Date.now() - fileStarted) / 1000).toFixed(1)} s`,
    );
  }, 480_000);

  afterAll(async () => {
    origin?.destroy();
    destination?.destroy();
    await stopRelayer();
    await Promise.all([...procs.values()].map((p) => stopProcess(p)));
    await db?.end();
    await nats?.dispose();
    await devnet?.stop();
    await dropDatabase(dbUrl);
    // This file's BullMQ keys (tracker, webhooks, relay) in the shared Redis.
    await deleteRedisKeys(INFRA.redis, queuePrefix);
    timings.push(`whole file: ${((Date.now() - fileStarted) / 1000).toFixed(1)} s`);
    // Error lines of the platform and the relayer, for the record (the assertions above decide the result).
    const errors = [...logs, ...relayerLogs].filter((l) => /"level":"error"/.test(l));
    timings.push(`error log lines: ${errors.length}${errors.length ? `\n    ${errors.slice(0, 10).join('\n    ')}` : ''}`);
    process.stderr.write(`[cross-chain e2e wall times]\n  ${timings.join('\n  ')}\n`);
  }, 60_000);

  /** Scenarios 1-3: the order, the wallet's transaction, the status to SUCCESS, the recipient paid on base. */
  async function runToSuccess(
    name: string,
    account: number,
    key: string,
    inputToken: string,
    inputAmount: bigint,
    outputToken: string,
    outputOnBase: string,
  ) {
    const startedAt = Date.now();
    const wallet = new Wallet(TEST_ACCOUNTS[account]!.privateKey, origin);
    const order = await quote(wallet, key, inputToken, inputAmount, outputToken);
    const before = await balance(base, outputOnBase, wallet.address);
    const sent = await send(wallet, order.tx);
    expect(sent.status).toBe(1);
    const watch = new StatusWatch(order.context.orderId, sent.hash, key);
    const done = await watch.terminal(120_000);
    timed(name, startedAt, watch.distinct());
    expect(done.status).toBe('SUCCESS');
    await watch.expectValid('SUCCESS');
    const received = (await balance(base, outputOnBase, wallet.address)) - before;
    expect(received).toBeGreaterThanOrEqual(BigInt(order.context.minOutputAmount));
    expect(received).toBeGreaterThan(0n);
    // The record's destination transaction is Across's fill of this order's deposit: it paid the
    // deposit's outputAmount to the sender, or to base's MulticallHandler that ran the order's destination leg.
    const [deposit] = await bridge.findDeposit('ethereum', sent.hash);
    expect(deposit).toBeDefined();
    const fill = await bridge.findFill('base', 1, deposit!.requestId);
    expect(fill).toMatchObject({ txHash: done.destinationTxHashes[0], amount: deposit!.outputAmount, recipient: deposit!.recipient });
    const handler = base.contracts.acrossMulticallHandler!.toLowerCase();
    expect(fill!.recipient.toLowerCase()).toBe(order.context.rawParams?.destination ? handler : wallet.address.toLowerCase());
    return { order, done, deposit: deposit!, received, wallet, hash: sent.hash };
  }

  it('1. USDC on ethereum -> USDC on base: SUCCESS with the full record; the recipient received at least minOutputAmount on base', async () => {
    const { order, done, deposit, hash } = await runToSuccess(
      '1. USDC -> USDC',
      0,
      keys[0]!,
      tokenKey(eth, 'USDC'),
      1_000_000_000n,
      tokenKey(base, 'USDC'),
      manifestToken(base, 'USDC').address,
    );
    expect(done).toEqual({
      context: order.context,
      tx: order.tx,
      txHash: hash,
      status: 'SUCCESS',
      crossChainRequestId: deposit.requestId,
      crossChainProvider: 'across',
      destinationTxHashes: [expect.stringMatching(/^0x[0-9a-f]{64}$/)],
      originTxHashes: [hash],
      fromChainId: 1,
      toChainId: 8453,
    });
    expect(done).not.toHaveProperty('statusReason');
  });

  it('2. USDC on ethereum -> a vault share (steakUSDC) on base: SUCCESS, the recipient holds the shares', async () => {
    const vault = vaultKey(base, 'steakUSDC');
    const { order, done } = await runToSuccess(
      '2. USDC -> steakUSDC vault share on base',
      1,
      keys[1]!,
      tokenKey(eth, 'USDC'),
      2_000_000_000n,
      vault,
      vault.split(':')[1]!,
    );
    expect(order.context.rawParams?.destination).toMatchObject({
      network: 'base',
      outputToken: vault,
      gasPaidBy: 'relayer',
      runBy: 'bridge handler contract',
    });
    expect(done).toMatchObject({
      status: 'SUCCESS',
      fromChainId: 1,
      toChainId: 8453,
      crossChainProvider: 'across',
      context: { orderId: order.context.orderId, outputToken: vault },
    });
  });

  it('3. native ETH on ethereum -> USDC on base: SUCCESS; the ETH left the wallet on ethereum', async () => {
    const wallet = new Wallet(TEST_ACCOUNTS[2]!.privateKey, origin);
    const ethBefore = await balance(eth, NATIVE, wallet.address);
    const { order, done } = await runToSuccess(
      '3. native ETH -> USDC on base',
      2,
      keys[2]!,
      `ethereum:${NATIVE}`,
      parseEther('0.5'),
      tokenKey(base, 'USDC'),
      manifestToken(base, 'USDC').address,
    );
    expect(order.tx.value).toBe(parseEther('0.5').toString());
    expect(done).toMatchObject({ status: 'SUCCESS', context: { inputToken: `ethereum:${NATIVE}` } });
    expect(ethBefore - (await balance(eth, NATIVE, wallet.address))).toBeGreaterThanOrEqual(parseEther('0.5'));
  });

  it('3b. native ETH on ethereum -> an LP share (uniswap-v2 WETH/USDC) on base: SUCCESS, the recipient holds the pair tokens', async () => {
    const pair = manifestPlatform(base, 'uniswap-v2').pools.find((p) => ['WETH/USDC', 'USDC/WETH'].includes(p.pair))!;
    const lp = `base:${pair.address.toLowerCase()}`;
    const { order, done } = await runToSuccess(
      '3b. native ETH -> WETH/USDC LP share on base',
      0,
      keys[6]!,
      `ethereum:${NATIVE}`,
      parseEther('0.5'),
      lp,
      pair.address,
    );
    expect(order.context.rawParams?.destination).toMatchObject({ network: 'base', outputToken: lp, gasPaidBy: 'relayer' });
    expect(done).toMatchObject({ status: 'SUCCESS', crossChainProvider: 'across', context: { outputToken: lp } });
  });

  it('3c. USDC on ethereum -> WETH on base: SUCCESS, the recipient holds at least the minimum in WETH (not ETH), nothing left on the handler', async () => {
    const wethBase = manifestToken(base, 'WETH').address;
    const wallet = new Wallet(TEST_ACCOUNTS[1]!.privateKey, origin);
    const ethBefore = await balance(base, NATIVE, wallet.address);
    const weth = tokenKey(base, 'WETH');
    const usdc = tokenKey(eth, 'USDC');
    const { order, done, deposit, received } = await runToSuccess(
      '3c. USDC -> WETH on base',
      1,
      keys[7]!,
      usdc,
      1_000_000_000n,
      weth,
      wethBase,
    );
    expect(order.context.rawParams?.destination).toMatchObject({
      network: 'base',
      outputToken: weth,
      gasPaidBy: 'relayer',
      runBy: 'bridge handler contract',
    });
    expect(done).toMatchObject({ status: 'SUCCESS', crossChainProvider: 'across', context: { outputToken: weth } });
    expect(deposit.outputToken.toLowerCase()).toBe(wethBase.toLowerCase());
    expect(received).toBe(deposit.outputAmount);
    expect(await balance(base, wethBase, base.contracts.acrossMulticallHandler!)).toBe(0n);
    expect(await balance(base, NATIVE, wallet.address)).toBe(ethBefore);
  });

  it('4. relayer offline past the fill deadline (anvil time control): Across refunds the deposit on ethereum; REFUND_STATUS with statusReason', async () => {
    const startedAt = Date.now();
    await stopRelayer();
    await startRelayer('offline');
    const wallet = new Wallet(TEST_ACCOUNTS[3]!.privateKey, origin);
    const usdcEth = manifestToken(eth, 'USDC').address;
    const usdcBase = manifestToken(base, 'USDC').address;
    const order = await quote(wallet, keys[3]!, tokenKey(eth, 'USDC'), 700_000_000n, tokenKey(base, 'USDC'));
    const baseBefore = await balance(base, usdcBase, wallet.address);
    const sent = await send(wallet, order.tx);
    expect(sent.status).toBe(1);
    const afterSend = await balance(eth, usdcEth, wallet.address);
    const watch = new StatusWatch(order.context.orderId, sent.hash, keys[3]!);
    await watch.until('ONGOING', (r) => r.status !== 'PENDING', 60_000);
    const [deposit] = (await bridge.findDeposit('ethereum', sent.hash)) as [BridgeDepositInfo];
    expect(deposit.refundTo.toLowerCase()).toBe(wallet.address.toLowerCase());

    // Nobody fills while the relayer is offline; the order is in flight, nothing terminal.
    await new Promise((res) => setTimeout(res, 3000));
    expect(await bridge.depositState('ethereum', deposit.requestId)).toBe('open');
    expect((await watch.poll()).status).toBe('ONGOING');

    // Past the fill deadline on both chains: no relayer may fill any more, and Across's data
    // worker (bundling every 2 s) refunds the deposit through a relayer refund leaf on ethereum.
    const ahead = Math.max(deposit.fillDeadline - (await chainNow(origin)), deposit.fillDeadline - (await chainNow(destination))) + 5;
    await passTime(ahead, [origin, destination]);
    const done = await watch.terminal(120_000);
    timed('4. relayer offline -> deadline passed -> Across refund leaf', startedAt, watch.distinct());
    expect(done.status).toBe('REFUND_STATUS');
    await watch.expectValid('REFUND_STATUS');
    const refund = await bridge.findRefund('ethereum', deposit.requestId);
    expect(refund).toBeDefined();
    expect(done).toMatchObject({
      context: { orderId: order.context.orderId },
      txHash: sent.hash,
      crossChainRequestId: deposit.requestId,
      crossChainProvider: 'across',
      destinationTxHashes: [refund!.txHash],
      originTxHashes: [sent.hash],
      fromChainId: 1,
      toChainId: 8453,
    });
    expect(done.statusReason).toMatch(/^not filled before the deadline \(.+\); refunded on the origin chain to /);
    expect(done.statusReason!.toLowerCase()).toContain(
      `to ${wallet.address.toLowerCase()} (${deposit.inputAmount} of token ${usdcEth.toLowerCase()})`,
    );
    // On chain: the escrowed input is back in the wallet on ethereum; nothing arrived on base.
    expect(refund).toMatchObject({ amount: deposit.inputAmount });
    expect((await balance(eth, usdcEth, wallet.address)) - afterSend).toBe(deposit.inputAmount);
    expect(deposit.inputAmount).toBeGreaterThan(0n);
    expect(deposit.inputAmount).toBeLessThanOrEqual(700_000_000n);
    expect(await balance(base, usdcBase, wallet.address)).toBe(baseBefore);
    expect(await bridge.findFill('base', 1, deposit.requestId)).toBeUndefined();
  }, 300_000);

  it('5. FAILED: an order sent after its expiry reverts on ethereum; 404 for a txHash that made no deposit', async () => {
    const startedAt = Date.now();
    const wallet = new Wallet(TEST_ACCOUNTS[4]!.privateKey, origin);
    const usdcEth = manifestToken(eth, 'USDC').address;
    const order = await quote(wallet, keys[4]!, tokenKey(eth, 'USDC'), 300_000_000n, tokenKey(base, 'USDC'));
    // The user signs too late: the origin chain's clock is past the order's expiry when it is sent.
    const expiry = Math.floor(new Date(order.context.expiry).getTime() / 1000);
    const now = await chainNow(origin);
    // After scenario 4's time travel the chain is usually past it already (the order's deadline
    // follows the wall clock); otherwise the clock is moved past it here.
    if (now <= expiry) await passTime(expiry - now + 1, [origin]);
    timings.push(
      `5. origin clock vs the order's expiry when sent: ${now - expiry} s past it${now <= expiry ? ' (moved past it by the test)' : ' already (no time moved)'}`,
    );
    expect(await chainNow(origin)).toBeGreaterThan(expiry);
    const before = await balance(eth, usdcEth, wallet.address);
    const sent = await send(wallet, order.tx);
    expect(sent.status).toBe(0);
    expect(await balance(eth, usdcEth, wallet.address)).toBe(before);
    const reverted = new StatusWatch(order.context.orderId, sent.hash, keys[4]!);
    // The status request made before the transaction was known to the tracker: PENDING first, then FAILED.
    const done = await reverted.terminal(60_000);
    timed('5. expired order, reverted on the origin', startedAt, reverted.distinct());
    expect(done).toMatchObject({
      status: 'FAILED',
      statusReason: 'the origin transaction reverted; nothing was bridged',
      txHash: sent.hash,
      destinationTxHashes: [],
      originTxHashes: [sent.hash],
      fromChainId: 1,
      toChainId: 8453,
      context: { orderId: order.context.orderId },
    });
    expect(done.crossChainRequestId ?? '').toBe('');
    await reverted.expectValid('FAILED');

    // The client reports a transaction that is no deposit (a plain transfer) for its order: not
    // tracked (issue 16: only the order's own transaction gets a row), 404 saying why.
    const stray = await wallet.sendTransaction({ to: Wallet.createRandom().address, value: 1n });
    expect(await minedStatus(stray.hash)).toBe(1);
    const wrong = await call(`/v3/portal/status?orderId=${order.context.orderId}&txHash=${stray.hash}`, keys[4]!);
    expect(wrong).toMatchObject({ status: 404, body: { statusCode: 404, message: expect.stringMatching(/made no across deposit/) } });
    const { rows } = await db.query(`SELECT 1 FROM cross_chain_orders WHERE lower(tx_hash) = lower($1)`, [stray.hash]);
    expect(rows).toHaveLength(0);
  }, 180_000);

  it("7. bad input: 400 saying what to change for an amount under Across's minimum, an amount that cannot cover the fees, a token nobody lists, a network pair Across does not serve here, a permit", async () => {
    const key = keys[5]!;
    const sender = TEST_ACCOUNTS[0]!.address.toLowerCase();
    const usdc = tokenKey(eth, 'USDC');
    const bad = async (query: string, message: RegExp): Promise<void> => {
      const r = await call(`/v2/portal?sender=${sender}&${query}`, key);
      expect({ status: r.status, message: r.body?.message }).toEqual({ status: 400, message: expect.stringMatching(message) });
      const e = await call(`/v2/portal/estimate?${query}`, key);
      if (!query.includes('permitSignature'))
        expect({ status: e.status, message: e.body?.message }).toEqual({ status: 400, message: expect.stringMatching(message) });
    };
    await bad(
      `inputToken=${usdc}&inputAmount=999999&outputToken=${tokenKey(base, 'USDC')}`,
      /999999 base units of USDC are below Across's minimum deposit of 1000000 from ethereum to base; send at least 1000000/,
    );
    await bad(
      `inputToken=${usdc}&inputAmount=1000000&outputToken=base:0x${'12'.repeat(20)}`,
      /unknown outputToken base:0x1212.*not a supported token on base/,
    );
    await bad(
      `inputToken=${usdc}&inputAmount=1000000&outputToken=arbitrum:${NATIVE}`,
      /network arbitrum is not enabled on this service|no bridge route from ethereum to arbitrum/,
    );
    await bad(
      `inputToken=ethereum:${NATIVE}&inputAmount=1&outputToken=base:${NATIVE}`,
      /1 base units of WETH do not cover Across's fees of 2; send more than 2/,
    );
    await bad(
      `inputToken=${usdc}&inputAmount=5000000&outputToken=${tokenKey(base, 'USDC')}&permitSignature=0x${'11'.repeat(65)}`,
      /permitSignature is not accepted on cross-chain orders/,
    );
  });

  it('6. 404 for an order found nowhere; 400 naming txHash for a malformed one', async () => {
    const key = keys[5]!;
    const unknown = await call(`/v3/portal/status?orderId=${randomUUID()}&txHash=0x${randomBytes(32).toString('hex')}`, key);
    expect(unknown).toMatchObject({ status: 404, body: { statusCode: 404, error: 'Not Found', message: expect.any(String) } });
    const malformed = await call(`/v3/portal/status?orderId=${randomUUID()}&txHash=0x1234`, key);
    expect(malformed).toMatchObject({
      status: 400,
      body: { statusCode: 400, error: 'Bad Request', message: expect.stringContaining('txHash') },
    });
    const missing = await call(`/v3/portal/status?orderId=${randomUUID()}`, key);
    expect(missing).toMatchObject({ status: 400, body: { statusCode: 400, message: expect.stringContaining('txHash') } });
    const badOrder = await call(`/v3/portal/status?orderId=not-a-uuid&txHash=0x${randomBytes(32).toString('hex')}`, key);
    expect(badOrder).toMatchObject({ status: 400, body: { statusCode: 400, message: expect.stringContaining('orderId') } });
  });
});
