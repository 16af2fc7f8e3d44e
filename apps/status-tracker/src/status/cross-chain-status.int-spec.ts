/**
 * The status tracker on Across, on a devnet of this file's own with the devnet's Across relayer and
 * data worker (testing/tracker-world.ts): orders reach SUCCESS (the relayer's FilledRelay),
 * REFUND_STATUS (the data worker's refund leaf) and FAILED through the real Nest wiring (Postgres
 * rows, BullMQ jobs), terminal states are written once, a tracker restarted mid-way resumes from
 * Postgres, an expired quote still resolves from the transaction, and only an order found nowhere
 * is NOT_FOUND.
 * A row is created only for a transaction on chain that is the order's (issue 16): unknown,
 * pending, foreign or deposit-less transactions are 404 with nothing stored, and an order has at
 * most TRACKER_MAX_TXS_PER_ORDER rows, also under concurrent requests.
 *
 * The bridge followers read nothing here (logs 10,000 blocks deep only, where the devnet has no
 * SpokePool events and this file mines far fewer blocks): every row is the status request's own,
 * so what a request creates is what is asserted.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Wallet } from 'ethers';
import { ErrorCode, type CrossChainStatusReply } from '@tokensvc/messages';
import * as testing from '@tokensvc/testing';
import type { ServiceError } from '@tokensvc/transport';
import { minedReceipt } from '../testing/mined-receipt';
import { startTrackerWorld, type TrackerApp, type TrackerWorld } from '../testing/tracker-world';

jest.setTimeout(300_000);

const TERMINAL = ['SUCCESS', 'REFUND_STATUS', 'FAILED'];
const NO_FOLLOW = { TRACKER_FOLLOW_CONFIRMATIONS: '10000' };
const randomHash = (): string => `0x${randomBytes(32).toString('hex')}`;

describe('cross-chain status tracker (devnet Across: SpokePools, relayer, data worker)', () => {
  let tw: TrackerWorld;
  let tracker: TrackerApp;

  beforeAll(async () => {
    tw = await startTrackerWorld(testing, 'status_tracker');
    tracker = await tw.startTracker(NO_FOLLOW);
    await tw.startRelayer();
  });

  afterAll(async () => {
    await tw?.stop();
  });

  const ask = (orderId: string, txHash: string): Promise<CrossChainStatusReply> => tracker.status.execute({ orderId, txHash });

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
  const rowCount = async (orderId: string): Promise<number> =>
    Number((await tw.db.query<{ n: string }>(`SELECT count(*) AS n FROM cross_chain_orders WHERE order_id = $1`, [orderId])).rows[0]!.n);
  const notFound = (p: Promise<unknown>, message: RegExp) =>
    expect(p).rejects.toMatchObject({ code: ErrorCode.ERROR_CODE_NOT_FOUND, message: expect.stringMatching(message) });
  const terminalEvents = (orderId: string): string[] =>
    tw.events.filter((e) => e.orderId === orderId && TERMINAL.includes(e.status)).map((e) => e.status);

  it('PENDING -> ONGOING -> SUCCESS with the fill as destination transaction, and the stored quote', async () => {
    tw.relayer.setMode('offline');
    const call = await tw.depositCall(1_000_000n);
    const orderId = await tw.storeQuote({ call });
    const receipt = await tw.sendDeposit(call);
    const [deposit] = await tw.provider.findDeposit('ethereum', receipt.hash);
    const first = await ask(orderId, receipt.hash);
    expect(first).toMatchObject({
      status: 'PENDING',
      txHash: receipt.hash,
      crossChainProvider: 'across',
      fromChainId: '1',
      toChainId: '8453',
      originTxHashes: [receipt.hash],
      destinationTxHashes: [],
    });
    expect(first.context?.orderId).toBe(orderId);
    const ongoing = await until(orderId, receipt.hash, (r) => r.status !== 'PENDING');
    expect(ongoing).toMatchObject({ status: 'ONGOING', crossChainRequestId: deposit!.requestId });
    tw.relayer.setMode('normal');
    const done = await until(orderId, receipt.hash, terminal);
    const fill = await tw.provider.findFill('base', 1, deposit!.requestId);
    expect(done).toMatchObject({
      status: 'SUCCESS',
      destinationTxHashes: [fill!.txHash],
      originTxHashes: [receipt.hash],
      crossChainRequestId: deposit!.requestId,
    });
    expect(done.statusReason).toBeUndefined();
    expect(fill).toMatchObject({ filler: tw.relayer.address, amount: deposit!.outputAmount });
    expect(done.tx?.to).toBe(tw.origin.spokePool.toLowerCase());
    expect(terminalEvents(orderId)).toEqual(['SUCCESS']);
    // Terminal is final: later requests read the same record.
    expect(await ask(orderId, receipt.hash)).toEqual(done);
  });

  it("FAILED when the order's origin transaction reverts (deposit without approval), at the first request", async () => {
    const call = await tw.depositCall(1_000_000n);
    const orderId = await tw.storeQuote({ call });
    const receipt = await tw.sendDeposit(call, { approve: false, from: tw.stranger });
    expect(receipt.status).toBe(0);
    // The order's own transaction, reverted: FAILED at once, never polled.
    expect((await ask(orderId, receipt.hash)).status).toBe('FAILED');
    const done = await until(orderId, receipt.hash, terminal);
    expect(done).toMatchObject({
      status: 'FAILED',
      statusReason: 'the origin transaction reverted; nothing was bridged',
      destinationTxHashes: [],
      crossChainRequestId: '',
    });
    expect(terminalEvents(orderId)).toEqual(['FAILED']);
  });

  it('404 and nothing stored for a random txHash with a quoted orderId (issue 16)', async () => {
    const orderId = await tw.storeQuote({ call: await tw.depositCall(1_000_000n) });
    await notFound(ask(orderId, randomHash()), /was not found on ethereum, the origin network of order/);
    await notFound(ask(orderId, randomHash()), /was not found on ethereum/);
    expect(await rowCount(orderId)).toBe(0);
  });

  it('404 and nothing stored for a mined transaction that is not a deposit of this order (issue 16)', async () => {
    const call = await tw.depositCall(1_000_000n);
    const orderId = await tw.storeQuote({ call });
    // A plain transfer: no deposit at all.
    const sent = await tw.user.sendTransaction({ to: Wallet.createRandom().address, value: 1n });
    const transfer = await minedReceipt(tw.origin.provider, sent.hash);
    await notFound(ask(orderId, transfer.hash), /made no across deposit/);
    // A real deposit, but of another quote (other calldata).
    const other = await tw.sendDeposit(await tw.depositCall(1_100_000n));
    expect(other.status).toBe(1);
    expect(await tw.provider.findDeposit('ethereum', other.hash)).toHaveLength(1);
    await notFound(ask(orderId, other.hash), /is a across deposit on ethereum, but it is not the transaction of order/);
    // A reverted transaction that is not the order's either.
    const reverted = await tw.sendDeposit(await tw.depositCall(1_200_000n), { approve: false, from: tw.stranger });
    expect(reverted.status).toBe(0);
    await notFound(ask(orderId, reverted.hash), /reverted on ethereum and it is not the transaction of order/);
    expect(await rowCount(orderId)).toBe(0);
    // The order's own deposit is tracked.
    const own = await tw.sendDeposit(call);
    expect((await ask(orderId, own.hash)).status).toBe('PENDING');
    expect(await rowCount(orderId)).toBe(1);
    expect((await until(orderId, own.hash, (r) => r.status !== 'PENDING')).status).toMatch(/ONGOING|SUCCESS/);
  });

  it('404 "not mined yet" for a transaction still in the mempool, nothing stored; tracked once mined', async () => {
    const call = await tw.depositCall(1_000_000n);
    const orderId = await tw.storeQuote({ call });
    const wallet = tw.user;
    await tw.origin.provider.send('evm_setAutomine', [false]);
    try {
      const sent = await wallet.sendTransaction({ to: call.to, data: call.data, value: call.value, gasLimit: 500_000n });
      await notFound(ask(orderId, sent.hash), /is not mined on ethereum yet: retry once it is mined/);
      expect(await rowCount(orderId)).toBe(0);
      await tw.origin.provider.send('evm_mine', []);
      expect((await tw.origin.provider.getTransactionReceipt(sent.hash))?.status).toBe(1);
      expect((await ask(orderId, sent.hash)).status).toBe('PENDING');
      expect(await rowCount(orderId)).toBe(1);
    } finally {
      await tw.origin.provider.send('evm_setAutomine', [true]);
    }
  });

  it('an order has at most TRACKER_MAX_TXS_PER_ORDER rows (default 4), also for concurrent requests: 409 beyond', async () => {
    const call = await tw.depositCall(1_000_000n);
    const orderId = await tw.storeQuote({ call });
    const stranger = tw.stranger;
    // Six real attempts of the order's transaction (reverted: the stranger never approved).
    const hashes: string[] = [];
    for (let i = 0; i < 6; i++) hashes.push((await tw.sendDeposit(call, { approve: false, from: stranger })).hash);
    const answers = await Promise.allSettled(hashes.map((h) => ask(orderId, h)));
    const ok = answers.filter((a) => a.status === 'fulfilled');
    const refused = answers.filter((a): a is PromiseRejectedResult => a.status === 'rejected');
    expect(ok).toHaveLength(4);
    expect(refused).toHaveLength(2);
    for (const r of refused)
      expect(r.reason).toMatchObject({
        code: ErrorCode.ERROR_CODE_CONFLICT,
        message: expect.stringContaining('already tracks 4 transactions'),
      });
    expect(await rowCount(orderId)).toBe(4);
    // The tracked ones still answer; another transaction does not get in.
    const tracked = hashes.filter((_, i) => answers[i]!.status === 'fulfilled');
    expect((await ask(orderId, tracked[0]!)).status).toBe('FAILED');
    const late = await tw.sendDeposit(call, { approve: false, from: stranger });
    await expect(ask(orderId, late.hash)).rejects.toMatchObject({ code: ErrorCode.ERROR_CODE_CONFLICT });
    expect(await rowCount(orderId)).toBe(4);
  });

  it('FAILED once a row whose transaction vanished (a reorg) has not been found for the configured time, not before', async () => {
    // Only the follower creates such a row (a deposit a reorg then removed); a status request never does.
    const orderId = await tw.storeQuote();
    const txHash = randomHash();
    await tw.db.query(
      `INSERT INTO cross_chain_orders (order_id, tx_hash, status, provider, from_network, from_chain_id, to_network, to_chain_id, origin_tx_hashes)
       VALUES ($1, $2, 'PENDING', 'across', 'ethereum', 1, 'base', 8453, ARRAY[$2])`,
      [orderId, txHash],
    );
    expect((await ask(orderId, txHash)).status).toBe('PENDING');
    await new Promise((r) => setTimeout(r, 500));
    expect((await ask(orderId, txHash)).status).toBe('PENDING');
    // As if tracking had begun 31 minutes ago (default timeout 30 minutes); the sweep queues it.
    await tw.db.query(`UPDATE cross_chain_orders SET created_at = now() - interval '31 minutes' WHERE order_id = $1`, [orderId]);
    const done = await until(orderId, txHash, terminal);
    expect(done).toMatchObject({
      status: 'FAILED',
      statusReason: 'the origin transaction was not found on chain within 30 minutes; nothing was bridged',
    });
  });

  it('a tracker closed mid-way and started again brings the order to SUCCESS exactly once', async () => {
    tw.relayer.setMode('offline');
    const call = await tw.depositCall(2_000_000n);
    const orderId = await tw.storeQuote({ call });
    const receipt = await tw.sendDeposit(call);
    const [deposit] = await tw.provider.findDeposit('ethereum', receipt.hash);
    await ask(orderId, receipt.hash);
    await until(orderId, receipt.hash, (r) => r.status === 'ONGOING');
    await tracker.close();
    tw.relayer.setMode('normal');
    const end = Date.now() + 60_000;
    while (!(await tw.provider.findFill('base', 1, deposit!.requestId)) && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    // Nobody tracks it now: the row still says ONGOING.
    const row = await tw.db.query<{ status: string }>(`SELECT status FROM cross_chain_orders WHERE order_id = $1`, [orderId]);
    expect(row.rows[0]!.status).toBe('ONGOING');
    tracker = await tw.startTracker(NO_FOLLOW);
    // The new tracker's start-up sweep resumes it without any request.
    const deadline = Date.now() + 60_000;
    for (;;) {
      const r = await tw.db.query<{ status: string }>(`SELECT status FROM cross_chain_orders WHERE order_id = $1`, [orderId]);
      if (r.rows[0]!.status !== 'ONGOING' || Date.now() > deadline) break;
      await new Promise((res) => setTimeout(res, 100));
    }
    const done = await ask(orderId, receipt.hash);
    expect(done.status).toBe('SUCCESS');
    expect(terminalEvents(orderId)).toEqual(['SUCCESS']);
  });

  it('answers without context and tx once the stored quote is past its week, resolving from the transaction', async () => {
    // A quote that expired while the order was tracked.
    const call1 = await tw.depositCall(1_500_000n);
    const kept = await tw.storeQuote({ call: call1 });
    const r1 = await tw.sendDeposit(call1);
    expect((await ask(kept, r1.hash)).context?.orderId).toBe(kept);
    await tw.db.query(`UPDATE orders SET keep_until = now() - interval '1 second' WHERE order_id = $1`, [kept]);
    const later = await until(kept, r1.hash, terminal);
    expect(later.status).toBe('SUCCESS');
    expect(later.context).toBeUndefined();
    expect(later.tx).toBeUndefined();
    // A quote already past its week at the first request (8 days old): found from the deposit alone.
    const old = await tw.storeQuote({ createdAt: new Date(Date.now() - 8 * 24 * 3600_000) });
    const r2 = await tw.sendDeposit(await tw.depositCall(1_500_000n));
    const first = await ask(old, r2.hash);
    expect(first.context).toBeUndefined();
    expect(first.tx).toBeUndefined();
    expect(['ONGOING', 'SUCCESS']).toContain(first.status);
    expect(first).toMatchObject({ fromChainId: '1', toChainId: '8453', crossChainProvider: 'across' });
    expect((await until(old, r2.hash, terminal)).status).toBe('SUCCESS');
    // Without a quote the order id cannot be checked: another id for the same deposit gets no row.
    const stranger = randomUUID();
    await notFound(ask(stranger, r2.hash), /the transaction is tracked for another order/);
    expect(await rowCount(stranger)).toBe(0);
  });

  it('NOT_FOUND only for an order found nowhere; BAD_REQUEST for malformed ids', async () => {
    const notFound = (p: Promise<unknown>) =>
      expect(p).rejects.toMatchObject({ code: ErrorCode.ERROR_CODE_NOT_FOUND } satisfies Partial<ServiceError>);
    await notFound(ask(randomUUID(), `0x${randomBytes(32).toString('hex')}`));
    // A mined transaction that is no deposit, with no stored quote: not a cross-chain order.
    const sent = await tw.user.sendTransaction({ to: Wallet.createRandom().address, value: 1n });
    await minedReceipt(tw.origin.provider, sent.hash);
    await notFound(ask(randomUUID(), sent.hash));
    await expect(ask('not-a-uuid', sent.hash)).rejects.toMatchObject({ code: ErrorCode.ERROR_CODE_BAD_REQUEST });
    await expect(ask(randomUUID(), '0x1234')).rejects.toMatchObject({ code: ErrorCode.ERROR_CODE_BAD_REQUEST });
  });

  // Last: it moves both chains' clocks past the deposit's fill deadline (Across's 4-hour window).
  // On the devnet bridge the filler refunded after a grace period; on Across nobody refunds at the
  // deadline itself: the data worker's next bundle does (a relayer refund leaf on the origin).
  it("REFUND_STATUS with the relayer offline past the fill deadline and the data worker's refund leaf, the leaf as destination transaction", async () => {
    tw.relayer.setMode('offline');
    const call = await tw.depositCall(3_000_000n);
    const orderId = await tw.storeQuote({ call });
    const receipt = await tw.sendDeposit(call);
    const [deposit] = await tw.provider.findDeposit('ethereum', receipt.hash);
    await ask(orderId, receipt.hash);
    await until(orderId, receipt.hash, (r) => r.status === 'ONGOING');
    await tw.passDeadline(deposit!.fillDeadline);
    await new Promise((r) => setTimeout(r, 500));
    expect((await ask(orderId, receipt.hash)).status).toBe('ONGOING'); // expired, nothing refunded yet: no premature terminal state
    tw.relayer.setMode('normal'); // too late to fill: the relayer drops it
    const bundle = await tw.worker.runBundle(); // refunds what expired unfilled (and repays the relayer's fills above)
    expect(
      bundle.payments.filter((p) => p.kind === 'expired-deposit-refund').map((p) => [p.deposit.depositId.toString(), p.amount]),
    ).toEqual([[deposit!.requestId, 3_000_000n]]);
    const done = await until(orderId, receipt.hash, terminal);
    const refund = await tw.provider.findRefund('ethereum', deposit!.requestId);
    expect(done).toMatchObject({ status: 'REFUND_STATUS', destinationTxHashes: [refund!.txHash], crossChainRequestId: deposit!.requestId });
    expect(done.statusReason).toContain('not filled before the deadline');
    expect(done.statusReason).toContain(`refunded on the origin chain to ${tw.user.address}`);
    expect(refund).toMatchObject({ refundTo: tw.user.address, amount: 3_000_000n });
    expect(await tw.provider.findFill('base', 1, deposit!.requestId)).toBeUndefined();
    expect(terminalEvents(orderId)).toEqual(['REFUND_STATUS']);
  });
});
