/**
 * The status tracker on two private anvils with the devnet bridge and a real Filler: orders reach
 * SUCCESS, REFUND_STATUS and FAILED through the real Nest wiring (Postgres rows, BullMQ jobs),
 * terminal states are written once, a tracker restarted mid-way resumes from Postgres, an expired
 * quote still resolves from the transaction, and only an order found nowhere is NOT_FOUND.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Wallet } from 'ethers';
import { ErrorCode, type CrossChainStatusReply } from '@tokensvc/messages';
import { createTestDatabaseUrl } from '@tokensvc/testing';
import type { ServiceError } from '@tokensvc/transport';
import { startTrackerWorld, type TrackerApp, type TrackerWorld } from '../testing/tracker-world';

jest.setTimeout(300_000);

const TERMINAL = ['SUCCESS', 'REFUND_STATUS', 'FAILED'];

describe('cross-chain status tracker (two anvils, devnet bridge, filler)', () => {
  let tw: TrackerWorld;
  let tracker: TrackerApp;

  beforeAll(async () => {
    tw = await startTrackerWorld(createTestDatabaseUrl('status_tracker'));
    tracker = await tw.startTracker();
    tw.filler.start();
  });

  afterAll(async () => {
    await tw?.stop();
  });

  const ask = (orderId: string, txHash: string): Promise<CrossChainStatusReply> => tracker.status.execute({ orderId, txHash });

  async function until(orderId: string, txHash: string, done: (r: CrossChainStatusReply) => boolean, timeoutMs = 60_000): Promise<CrossChainStatusReply> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const r = await ask(orderId, txHash);
      if (done(r)) return r;
      if (Date.now() > end) throw new Error(`order ${orderId} still ${r.status} after ${timeoutMs} ms`);
      await new Promise((res) => setTimeout(res, 100));
    }
  }
  const terminal = (r: CrossChainStatusReply): boolean => TERMINAL.includes(r.status);
  const terminalEvents = (orderId: string): string[] => tw.events.filter((e) => e.orderId === orderId && TERMINAL.includes(e.status)).map((e) => e.status);

  it('PENDING -> ONGOING -> SUCCESS with the fill as destination transaction, and the stored quote', async () => {
    tw.filler.setMode('offline');
    const orderId = await tw.storeQuote();
    const receipt = await tw.sendDeposit(await tw.depositCall(1_000_000n));
    const [deposit] = await tw.provider.findDeposit('ethereum', receipt.hash);
    const first = await ask(orderId, receipt.hash);
    expect(first).toMatchObject({ status: 'PENDING', txHash: receipt.hash, crossChainProvider: 'devnet-bridge', fromChainId: '1', toChainId: '8453', originTxHashes: [receipt.hash], destinationTxHashes: [] });
    expect(first.context?.orderId).toBe(orderId);
    const ongoing = await until(orderId, receipt.hash, (r) => r.status !== 'PENDING');
    expect(ongoing).toMatchObject({ status: 'ONGOING', crossChainRequestId: deposit!.requestId });
    tw.filler.setMode('normal');
    const done = await until(orderId, receipt.hash, terminal);
    const fill = await tw.provider.findFill('base', 1, deposit!.requestId);
    expect(done).toMatchObject({ status: 'SUCCESS', destinationTxHashes: [fill!.txHash], originTxHashes: [receipt.hash], crossChainRequestId: deposit!.requestId });
    expect(done.statusReason).toBeUndefined();
    expect(done.tx?.to).toBe((tw.origin.escrow.target as string).toLowerCase());
    expect(terminalEvents(orderId)).toEqual(['SUCCESS']);
    // Terminal is final: later requests read the same record.
    expect(await ask(orderId, receipt.hash)).toEqual(done);
  });

  it('FAILED when the origin transaction reverts (deposit without approval)', async () => {
    const orderId = await tw.storeQuote();
    const receipt = await tw.sendDeposit(await tw.depositCall(1_000_000n), { approve: false, from: tw.world.stranger.on(tw.origin) });
    expect(receipt.status).toBe(0);
    await ask(orderId, receipt.hash);
    const done = await until(orderId, receipt.hash, terminal);
    expect(done).toMatchObject({ status: 'FAILED', statusReason: 'the origin transaction reverted; nothing was bridged', destinationTxHashes: [], crossChainRequestId: '' });
    expect(terminalEvents(orderId)).toEqual(['FAILED']);
  });

  it('FAILED when the origin transaction succeeded but made no deposit (wrong target)', async () => {
    const orderId = await tw.storeQuote();
    const sent = await tw.world.user.on(tw.origin).sendTransaction({ to: Wallet.createRandom().address, value: 1n });
    const receipt = (await tw.origin.provider.waitForTransaction(sent.hash))!;
    await ask(orderId, receipt.hash);
    const done = await until(orderId, receipt.hash, terminal);
    expect(done.status).toBe('FAILED');
    expect(done.statusReason).toMatch(/made no bridge deposit \(wrong target\)/);
  });

  it('FAILED once the origin transaction has not been found for the configured time, not before', async () => {
    const orderId = await tw.storeQuote();
    const txHash = `0x${randomBytes(32).toString('hex')}`;
    expect((await ask(orderId, txHash)).status).toBe('PENDING');
    await new Promise((r) => setTimeout(r, 500));
    expect((await ask(orderId, txHash)).status).toBe('PENDING');
    // As if tracking had begun 31 minutes ago (default timeout 30 minutes).
    await tw.db.query(`UPDATE cross_chain_orders SET created_at = now() - interval '31 minutes' WHERE order_id = $1`, [orderId]);
    const done = await until(orderId, txHash, terminal);
    expect(done).toMatchObject({ status: 'FAILED', statusReason: 'the origin transaction was not found on chain within 30 minutes; nothing was bridged' });
  });

  it('a tracker closed mid-way and started again brings the order to SUCCESS exactly once', async () => {
    tw.filler.setMode('offline');
    const orderId = await tw.storeQuote();
    const receipt = await tw.sendDeposit(await tw.depositCall(2_000_000n));
    const [deposit] = await tw.provider.findDeposit('ethereum', receipt.hash);
    await ask(orderId, receipt.hash);
    await until(orderId, receipt.hash, (r) => r.status === 'ONGOING');
    await tracker.close();
    tw.filler.setMode('normal');
    const end = Date.now() + 60_000;
    while (!(await tw.provider.findFill('base', 1, deposit!.requestId)) && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    // Nobody tracks it now: the row still says ONGOING.
    const row = await tw.db.query<{ status: string }>(`SELECT status FROM cross_chain_orders WHERE order_id = $1`, [orderId]);
    expect(row.rows[0]!.status).toBe('ONGOING');
    tracker = await tw.startTracker();
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
    const kept = await tw.storeQuote();
    const r1 = await tw.sendDeposit(await tw.depositCall(1_500_000n));
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
    expect(first).toMatchObject({ fromChainId: '1', toChainId: '8453', crossChainProvider: 'devnet-bridge' });
    expect((await until(old, r2.hash, terminal)).status).toBe('SUCCESS');
  });

  it('NOT_FOUND only for an order found nowhere; BAD_REQUEST for malformed ids', async () => {
    const notFound = (p: Promise<unknown>) => expect(p).rejects.toMatchObject({ code: ErrorCode.ERROR_CODE_NOT_FOUND } satisfies Partial<ServiceError>);
    await notFound(ask(randomUUID(), `0x${randomBytes(32).toString('hex')}`));
    // A mined transaction that is no deposit, with no stored quote: not a cross-chain order.
    const sent = await tw.world.user.on(tw.origin).sendTransaction({ to: Wallet.createRandom().address, value: 1n });
    await tw.origin.provider.waitForTransaction(sent.hash);
    await notFound(ask(randomUUID(), sent.hash));
    await expect(ask('not-a-uuid', sent.hash)).rejects.toMatchObject({ code: ErrorCode.ERROR_CODE_BAD_REQUEST });
    await expect(ask(randomUUID(), '0x1234')).rejects.toMatchObject({ code: ErrorCode.ERROR_CODE_BAD_REQUEST });
  });

  // Last: it moves both chains' clocks 31 minutes ahead.
  it('REFUND_STATUS with the filler offline past the deadline, the refund as destination transaction', async () => {
    tw.filler.setMode('offline');
    const orderId = await tw.storeQuote();
    const receipt = await tw.sendDeposit(await tw.depositCall(3_000_000n));
    const [deposit] = await tw.provider.findDeposit('ethereum', receipt.hash);
    await ask(orderId, receipt.hash);
    await until(orderId, receipt.hash, (r) => r.status === 'ONGOING');
    await tw.passTime(1200 + 600 + 60); // fill window + refund grace + slack
    expect((await ask(orderId, receipt.hash)).status).toBe('ONGOING'); // nothing refunded yet: no premature terminal state
    tw.filler.setMode('normal'); // the filler refunds what it can no longer fill
    const done = await until(orderId, receipt.hash, terminal);
    const refund = await tw.provider.findRefund('ethereum', deposit!.requestId);
    expect(done).toMatchObject({ status: 'REFUND_STATUS', destinationTxHashes: [refund!.txHash], crossChainRequestId: deposit!.requestId });
    expect(done.statusReason).toContain('not filled before the deadline');
    expect(done.statusReason).toContain(`refunded on the origin chain to ${tw.world.user.address}`);
    expect(terminalEvents(orderId)).toEqual(['REFUND_STATUS']);
  });
});
