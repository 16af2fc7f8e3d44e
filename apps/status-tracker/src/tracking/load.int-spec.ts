/**
 * Issues 8 and 19 under load, on Across's events: 1,000 orders in flight at once, the tracker (a
 * child process, real Nest wiring, CROSS_CHAIN_BRIDGE=across) SIGKILLed mid-way and started again.
 * Every order must reach its correct terminal state (900 filled by the devnet's Across relayer ->
 * SUCCESS from FilledRelay; 70 deposited while no relayer ran, expired past their fill deadline by
 * time travel and refunded by the data worker's relayer refund leaf -> REFUND_STATUS; 30 reverted
 * origin transactions -> FAILED), each with exactly one terminal write and no write after it (a
 * trigger on `cross_chain_orders` records every UPDATE), and none stuck. It also measures the time
 * from each fill (the relayer's fill receipt returned: the devnet automines, so the fill is on chain
 * then) to the row's `terminal_at` (SUCCESS), and logs p50/p99 on one line. Tracker settings: the
 * defaults for the bridge followers (read every 1 s) and the safety-net poll (30 s; PENDING 5 s),
 * 50 tracking steps at once (the default: a step is short, so one replica drives all 1,000
 * orders), lock 5 s (a dead worker's jobs are taken over after it), sweep 10 s.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Interface, MaxUint256, Wallet, type TransactionRequest } from 'ethers';
import * as testing from '@tokensvc/testing';
import type { TrackerChildArgs, TrackerChildMessage, TrackerChildRequest } from '../testing/tracker-child';
import { minedReceipt } from '../testing/mined-receipt';
import { startTrackerWorld, type TrackerWorld } from '../testing/tracker-world';

jest.setTimeout(600_000);

const ROOT = join(__dirname, '..', '..', '..', '..');
const SUCCESS_COUNT = 900;
const REFUND_COUNT = 70;
const FAILED_COUNT = 30;
const TRACKER_ENV = {
  TRACKER_POLL_MS: '30000',
  TRACKER_PENDING_POLL_MS: '5000',
  TRACKER_FOLLOW_MS: '1000',
  TRACKER_CONCURRENCY: '50',
  TRACKER_LOCK_MS: '5000',
  TRACKER_SWEEP_MS: '10000',
};

type Expected = 'SUCCESS' | 'REFUND_STATUS' | 'FAILED';
interface LoadOrder {
  orderId: string;
  txHash: string;
  expected: Expected;
}

interface TrackerChild {
  child: ChildProcess;
  status(orderId: string, txHash: string): Promise<string>;
  /** SIGTERM, then SIGKILL after 10 s; resolves once it exited */
  stop(): Promise<void>;
  exited: Promise<void>;
}

function startChild(tw: TrackerWorld): Promise<TrackerChild> {
  const args: TrackerChildArgs = { env: tw.trackerEnv(TRACKER_ENV), across: tw.across };
  const child = spawn(
    process.execPath,
    [
      '-r',
      join(ROOT, 'tools', 'register.js'),
      join(ROOT, 'apps', 'status-tracker', 'src', 'testing', 'tracker-child.ts'),
      JSON.stringify(args),
    ],
    {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    },
  );
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const waiting = new Map<number, { resolve: (s: string) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`tracker child not ready after 60 s: ${stderr}`)), 60_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`tracker child exited (${code}) before it was ready: ${stderr}`));
    });
    child.on('message', (m: TrackerChildMessage) => {
      if (m.type === 'ready') {
        clearTimeout(timer);
        resolve({
          child,
          exited,
          status: (orderId, txHash) =>
            new Promise((res, rej) => {
              const id = nextId++;
              waiting.set(id, { resolve: res, reject: rej });
              child.send({ type: 'status', id, orderId, txHash } satisfies TrackerChildRequest);
            }),
          async stop() {
            if (child.exitCode !== null || child.signalCode !== null) return;
            child.kill('SIGTERM');
            const hard = setTimeout(() => child.kill('SIGKILL'), 10_000);
            await exited;
            clearTimeout(hard);
          },
        });
        return;
      }
      const w = waiting.get(m.id);
      waiting.delete(m.id);
      if (m.error !== undefined) w?.reject(new Error(m.error));
      else w?.resolve(m.status!);
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

async function mapLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

describe('status tracker under load on Across, SIGKILLed mid-way (issues 8, 19)', () => {
  let tw: TrackerWorld;
  const children: TrackerChild[] = [];

  beforeAll(async () => {
    tw = await startTrackerWorld(testing, 'status_tracker_load');
    // Every UPDATE of a row, with the state before and after: the proof of "terminal exactly once".
    await tw.db.query(
      `CREATE TABLE load_row_updates (order_id uuid, tx_hash text, old_status text, new_status text, old_terminal timestamptz, new_terminal timestamptz, at timestamptz DEFAULT clock_timestamp())`,
    );
    await tw.db.query(`CREATE FUNCTION load_record_update() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO load_row_updates (order_id, tx_hash, old_status, new_status, old_terminal, new_terminal) VALUES (NEW.order_id, NEW.tx_hash, OLD.status, NEW.status, OLD.terminal_at, NEW.terminal_at);
        RETURN NEW;
      END $$`);
    await tw.db.query(
      `CREATE TRIGGER load_record_update AFTER UPDATE ON cross_chain_orders FOR EACH ROW EXECUTE FUNCTION load_record_update()`,
    );
  });

  afterAll(async () => {
    for (const c of children) await c.stop();
    await tw?.stop();
  });

  /** Signs `txs` with explicit nonces, sends them all with automine off, and mines until all are in blocks. */
  async function sendBatch(wallet: Wallet, txs: TransactionRequest[]): Promise<string[]> {
    const provider = tw.origin.provider;
    let nonce = await provider.getTransactionCount(wallet.address, 'pending');
    const raws: string[] = [];
    for (const tx of txs)
      raws.push(
        await wallet.signTransaction({
          type: 2,
          chainId: tw.origin.chainId,
          nonce: nonce++,
          gasLimit: 500_000n,
          maxFeePerGas: 100_000_000_000n,
          maxPriorityFeePerGas: 1_000_000_000n,
          value: 0n,
          ...tx,
        }),
      );
    await provider.send('evm_setAutomine', [false]);
    const hashes: string[] = [];
    try {
      for (let i = 0; i < raws.length; i += 100)
        hashes.push(
          ...(await Promise.all(raws.slice(i, i + 100).map((raw) => provider.send('eth_sendRawTransaction', [raw]) as Promise<string>))),
        );
      for (let i = 0; i < 100; i++) {
        await provider.send('evm_mine', []);
        const pool = (await provider.send('txpool_status', [])) as { pending: string };
        if (Number(pool.pending) === 0) break;
      }
    } finally {
      await provider.send('evm_setAutomine', [true]);
    }
    return hashes;
  }

  /** `n` USDC SpokePool deposits of one quote (fill deadline from the chains' clock now), each to its own recipient. */
  async function depositTxs(n: number): Promise<{ txs: TransactionRequest[]; fillDeadline: number }> {
    const quote = await tw.provider.quote({
      originNetwork: 'ethereum',
      destinationNetwork: 'base',
      inputToken: tw.origin.usdc,
      inputAmount: 1_000_000n,
      outputToken: tw.destination.usdc,
    });
    const user = tw.user.address;
    const txs = Array.from({ length: n }, () => {
      const call = tw.provider.depositCall({ quote, depositor: user, recipient: Wallet.createRandom().address, refundTo: user });
      return { to: call.to, data: call.data };
    });
    return { txs, fillDeadline: quote.fillDeadline };
  }

  async function receiptStatuses(hashes: string[]): Promise<number[]> {
    const out: number[] = [];
    for (let i = 0; i < hashes.length; i += 100) {
      const receipts = await Promise.all(hashes.slice(i, i + 100).map((h) => tw.origin.provider.getTransactionReceipt(h)));
      out.push(...receipts.map((r) => r?.status ?? -1));
    }
    return out;
  }

  async function counts(): Promise<Record<string, number>> {
    const { rows } = await tw.db.query<{ status: string; n: string }>(
      `SELECT status, count(*) AS n FROM cross_chain_orders GROUP BY status`,
    );
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  }

  it('1,000 orders: every one terminal exactly once and correct across a SIGKILL; fill -> SUCCESS latency', async () => {
    const t0 = Date.now();
    const user = tw.user;
    await user
      .sendTransaction({
        to: tw.origin.usdc,
        data: new Interface(['function approve(address,uint256)']).encodeFunctionData('approve', [tw.origin.spokePool, MaxUint256]),
      })
      .then((t) => minedReceipt(tw.origin.provider, t.hash));

    // Deposits nobody fills before their deadline (no relayer runs yet), and reverted origin
    // transactions (the stranger never approved the SpokePool).
    const firstDepositBlock = (await tw.origin.provider.getBlockNumber()) + 1;
    const refunds = await depositTxs(REFUND_COUNT);
    const refundTxs = refunds.txs;
    const refundHashes = await sendBatch(user, refundTxs);
    const failedHashes = await sendBatch(tw.stranger, refundTxs.slice(0, FAILED_COUNT));
    // Past the refund deposits' fill deadline (Across's 4-hour window) on both chains: no relayer may
    // fill them now, and the data worker's next bundle refunds them. (The devnet bridge's filler
    // refunded after a grace period of its own; on Across the refund is the data worker's leaf.)
    await tw.passDeadline(refunds.fillDeadline);
    // Deposits made after the time travel: fresh deadlines, filled.
    const successTxs = (await depositTxs(SUCCESS_COUNT)).txs;
    const successHashes = await sendBatch(user, successTxs);
    expect(await receiptStatuses([...refundHashes, ...successHashes])).toEqual(Array(REFUND_COUNT + SUCCESS_COUNT).fill(1));
    expect(await receiptStatuses(failedHashes)).toEqual(Array(FAILED_COUNT).fill(0));

    const orders: LoadOrder[] = [];
    // Each order's stored quote is its transaction (a status request tracks only the order's own transaction).
    const txOf = new Map<string, TransactionRequest>();
    for (const [txs, hashes] of [
      [refundTxs, refundHashes],
      [refundTxs.slice(0, FAILED_COUNT), failedHashes],
      [successTxs, successHashes],
    ] as const)
      hashes.forEach((h, i) => txOf.set(h, txs[i]!));
    for (const [hashes, expected] of [
      [successHashes, 'SUCCESS'],
      [refundHashes, 'REFUND_STATUS'],
      [failedHashes, 'FAILED'],
    ] as const) {
      for (const txHash of hashes) {
        const tx = txOf.get(txHash)!;
        orders.push({
          orderId: await tw.storeQuote({ call: { to: tx.to as string, data: tx.data!, value: 0n } }),
          txHash: txHash.toLowerCase(),
          expected,
        });
      }
    }
    const tDeposits = Date.now();

    // The first tracker, and the first status request of every order (creates its row and job).
    children.push(await startChild(tw));
    const first = children[0]!;
    const firstAnswers: Record<string, number> = {};
    await mapLimit(orders, 50, async (o) => {
      const s = await first.status(o.orderId, o.txHash);
      firstAnswers[s] = (firstAnswers[s] ?? 0) + 1;
    });
    // A first request answers from the row it just created (the job is queued after it); the
    // reverted ones are the orders' own transactions, FAILED at once (nothing to poll).
    expect(firstAnswers).toEqual({ PENDING: orders.length - FAILED_COUNT, FAILED: FAILED_COUNT });
    const tRegistered = Date.now();

    // The data worker's bundle: a relayer refund leaf on ethereum paying the expired deposits back
    // to the user. Then the relayer, reading every deposit above: it fills the fresh ones (`filled`
    // = its fill's receipt returned, so the fill is mined) and drops the expired ones. The bundle
    // runs first, alone: run alongside the relayer's fills, its eth_calls on base failed now and
    // then (an error without revert data, while each fill mines a block there), and a bundle is
    // not retried (the devnet data worker forgets what it paid as it goes).
    const { payments, executed } = await tw.worker.runBundle();
    const tRefunded = Date.now();
    const fillSentAt = new Map<string, { atMs: number; txHash: string }>();
    const relayer = await tw.startRelayer({
      fromBlocks: { ethereum: firstDepositBlock },
      log: (line, fields) => {
        if (line === 'filled')
          fillSentAt.set(String(fields!['key']).split(':')[1]!, { atMs: Date.now(), txHash: String(fields!['tx']).toLowerCase() });
      },
    });

    // SIGKILL the tracker once about a third of the fills are through to SUCCESS.
    const killDeadline = Date.now() + 240_000;
    while (((await counts())['SUCCESS'] ?? 0) < SUCCESS_COUNT / 3) {
      if (Date.now() > killDeadline) throw new Error(`not a third SUCCESS after 240 s: ${JSON.stringify(await counts())}`);
      await sleep(100);
    }
    first.child.kill('SIGKILL');
    const killedAt = Date.now();
    await first.exited;
    const atKill = await counts();
    const fillsAtKill = fillSentAt.size;

    children.push(await startChild(tw));
    const restartedAt = Date.now();

    const doneDeadline = Date.now() + 300_000;
    let now = await counts();
    while ((now['PENDING'] ?? 0) + (now['ONGOING'] ?? 0) > 0) {
      if (Date.now() > doneDeadline) break;
      await sleep(200);
      now = await counts();
    }
    const allTerminalAt = Date.now();
    // Linger a little: a late second write (a worker that had the job before the kill) would show here.
    await sleep(3_000);
    await relayer.stop();

    // No order stuck, and the kill really was mid-way.
    expect(now).toEqual({ SUCCESS: SUCCESS_COUNT, REFUND_STATUS: REFUND_COUNT, FAILED: FAILED_COUNT });
    expect(atKill['SUCCESS']).toBeGreaterThan(0);
    expect((atKill['PENDING'] ?? 0) + (atKill['ONGOING'] ?? 0)).toBeGreaterThan(0);

    // Every order in its own correct terminal state.
    const { rows } = await tw.db.query<{
      order_id: string;
      tx_hash: string;
      status: string;
      status_reason: string | null;
      request_id: string | null;
      destination_tx_hashes: string[];
      terminal_at: Date;
    }>(`SELECT order_id, tx_hash, status, status_reason, request_id, destination_tx_hashes, terminal_at FROM cross_chain_orders`);
    const byKey = new Map(rows.map((r) => [`${r.order_id}_${r.tx_hash}`, r]));
    const wrong: string[] = [];
    for (const o of orders) {
      const r = byKey.get(`${o.orderId}_${o.txHash}`);
      if (!r) wrong.push(`${o.orderId}: no row`);
      else if (r.status !== o.expected) wrong.push(`${o.orderId}: ${r.status}, expected ${o.expected}`);
      else if (o.expected === 'SUCCESS' && r.destination_tx_hashes[0] !== fillSentAt.get(r.request_id!)?.txHash)
        wrong.push(`${o.orderId}: destination ${r.destination_tx_hashes.join()} is not the fill`);
      else if (
        o.expected === 'REFUND_STATUS' &&
        (r.destination_tx_hashes.length !== 1 || !r.status_reason?.includes('not filled before the deadline'))
      )
        wrong.push(`${o.orderId}: refund record ${JSON.stringify(r)}`);
      else if (o.expected === 'FAILED' && r.status_reason !== 'the origin transaction reverted; nothing was bridged')
        wrong.push(`${o.orderId}: ${r.status_reason}`);
    }
    expect(wrong).toEqual([]);
    // Refunded deposits were never filled: the relayer dropped each as expired. Each refund is the bundle's leaf.
    const refundRows = rows.filter((r) => r.status === 'REFUND_STATUS');
    expect(refundRows.filter((r) => fillSentAt.has(r.request_id!))).toEqual([]);
    expect(
      relayer.dropped
        .filter((d) => d.reason === 'fill deadline passed')
        .map((d) => d.deposit.depositId.toString())
        .sort(),
    ).toEqual(refundRows.map((r) => r.request_id!).sort());
    const refunded = payments.filter((p) => p.kind === 'expired-deposit-refund');
    expect(refunded.map((p) => p.deposit.depositId.toString()).sort()).toEqual(refundRows.map((r) => r.request_id!).sort());
    const leafTxs = new Set(executed.filter((e) => e.network === 'ethereum').map((e) => e.transactionHash.toLowerCase()));
    expect(refundRows.filter((r) => !leafTxs.has(r.destination_tx_hashes[0]!))).toEqual([]);

    // Exactly one terminal write per order, and nothing written to a row after it was terminal.
    const { rows: writes } = await tw.db.query<{ order_id: string; tx_hash: string; terminal_writes: string; after_terminal: string }>(
      `SELECT order_id, tx_hash,
              count(*) FILTER (WHERE old_terminal IS NULL AND new_terminal IS NOT NULL) AS terminal_writes,
              count(*) FILTER (WHERE old_terminal IS NOT NULL) AS after_terminal
         FROM load_row_updates GROUP BY order_id, tx_hash`,
    );
    expect(writes).toHaveLength(orders.length);
    expect(writes.filter((w) => w.terminal_writes !== '1' || w.after_terminal !== '0')).toEqual([]);

    // Fill -> SUCCESS row, per fill, split by when the fill landed relative to the kill.
    const latencies = { all: [] as number[], trackerUp: [] as number[], outage: [] as number[] };
    for (const r of rows.filter((x) => x.status === 'SUCCESS')) {
      const fill = fillSentAt.get(r.request_id!)!;
      const ms = r.terminal_at.getTime() - fill.atMs;
      latencies.all.push(ms);
      (fill.atMs < killedAt || fill.atMs > restartedAt ? latencies.trackerUp : latencies.outage).push(ms);
    }
    const fmt = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      return s.length === 0 ? 'n=0' : `n=${s.length} p50=${percentile(s, 50)}ms p99=${percentile(s, 99)}ms max=${s[s.length - 1]}ms`;
    };
    const { rows: restartWrites } = await tw.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM load_row_updates WHERE new_terminal IS NOT NULL AND old_terminal IS NULL AND at >= to_timestamp($1 / 1000.0)`,
      [restartedAt],
    );
    console.log(
      `[status-tracker load] orders=${orders.length} (SUCCESS ${SUCCESS_COUNT}, REFUND_STATUS ${REFUND_COUNT}, FAILED ${FAILED_COUNT}); ` +
        `first answers ${JSON.stringify(firstAnswers)}; SIGKILL at ${JSON.stringify(atKill)} (fills sent ${fillsAtKill}); restart ${restartedAt - killedAt}ms after the kill, ` +
        `${restartWrites[0]!.n} terminal writes by the new tracker; all terminal ${allTerminalAt - restartedAt}ms after the restart; ` +
        `fill -> SUCCESS: all ${fmt(latencies.all)}; fill while a tracker ran ${fmt(latencies.trackerUp)}; fill during the outage ${fmt(latencies.outage)}; ` +
        `phases: deposits ${tDeposits - t0}ms, registration ${tRegistered - tDeposits}ms, refund bundle ${tRefunded - tRegistered}ms, run ${allTerminalAt - tRegistered}ms`,
    );
  });
});
