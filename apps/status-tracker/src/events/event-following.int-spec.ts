/**
 * The bridge event followers on Across (a devnet of this file's own with the devnet's Across
 * relayer: testing/tracker-world.ts), through the tracker's real Nest wiring: an order is tracked
 * from its deposit on chain before any status request (and the first request answers the row the
 * follower made); a fill event (FilledRelay) finishes an order with the safety-net poll far away;
 * the cursor resumes where it stopped after a restart; a reorg of a followed block removes its
 * events and the follower reads the new chain; an event that is not on chain finishes nothing; the
 * safety-net poll finishes an order whose events the follower never saw. (A refund event, the data
 * worker's refund leaf, finishes orders in load.int-spec.ts.)
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Transaction } from 'ethers';
import type { BridgeDepositCall } from '@tokensvc/bridge';
import { JsonRpcClient } from '@tokensvc/chain';
import * as testing from '@tokensvc/testing';
import { TRACKER_METRICS } from '../metrics';
import { BridgeEventStore } from './bridge-event-store';
import { BridgeEventFollowing } from './event-following';
import { CrossChainTracker } from '../tracking/tracker';
import { TrackingQueue } from '../tracking/tracking-queue';
import { minedReceipt } from '../testing/mined-receipt';
import { startTrackerWorld, type TrackerApp, type TrackerWorld } from '../testing/tracker-world';

jest.setTimeout(300_000);

/** Events wake orders; the poll is ten minutes away, so only an event can move an order in these tests. */
const EVENTS_ONLY = { TRACKER_FOLLOW_MS: '100', TRACKER_POLL_MS: '600000', TRACKER_PENDING_POLL_MS: '600000', TRACKER_SWEEP_MS: '600000' };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(100);
  }
}

interface Row {
  order_id: string;
  tx_hash: string;
  status: string;
  request_id: string | null;
  destination_tx_hashes: string[];
  created_at: Date;
}

describe('bridge event followers (devnet Across: SpokePools, relayer)', () => {
  let tw: TrackerWorld;
  let tracker: TrackerApp | undefined;

  beforeAll(async () => {
    tw = await startTrackerWorld(testing, 'status_tracker_events');
    await tw.startRelayer({ mode: 'offline' });
  });

  afterAll(async () => {
    await tw?.stop();
  });

  // Each test lets the relayer fill only when it means to.
  afterEach(() => tw.relayer.setMode('offline'));

  async function restart(env: Record<string, string>): Promise<TrackerApp> {
    await tracker?.close();
    tracker = await tw.startTracker(env);
    return tracker;
  }

  /** The `orders` row the quote service stores for a cross-chain order whose transaction is `call` (to the SpokePool here: a direct deposit, no Router). */
  async function storeQuoteOf(call: BridgeDepositCall): Promise<string> {
    const orderId = randomUUID();
    const user = tw.user.address.toLowerCase();
    const context = {
      orderId,
      inputToken: `ethereum:${tw.origin.usdc.toLowerCase()}`,
      inputAmount: '1000000',
      outputToken: `base:${tw.destination.usdc.toLowerCase()}`,
      outputAmount: '999500',
      sender: user,
    };
    const tx = { to: call.to.toLowerCase(), from: user, data: call.data, value: call.value.toString() };
    await tw.db.query(
      `INSERT INTO orders (order_id, network, chain_id, sender, created_at, expires_at, keep_until, context, tx, signed_order, calls)
       VALUES ($1, 'ethereum', 1, $2, now(), now() + interval '20 minutes', now() + interval '7 days', $3, $4, NULL, '[]')`,
      [orderId, user, context, tx],
    );
    return orderId;
  }

  const rows = async (orderId: string): Promise<Row[]> =>
    (await tw.db.query<Row>(`SELECT * FROM cross_chain_orders WHERE order_id = $1`, [orderId])).rows;
  const rowIn = (orderId: string, statuses: string[]) => async (): Promise<Row | undefined> =>
    (await rows(orderId)).find((r) => statuses.includes(r.status));
  const following = (): BridgeEventFollowing => tracker!.app.get(BridgeEventFollowing);
  const eventStore = (): BridgeEventStore => tracker!.app.get(BridgeEventStore);
  const terminalEvents = (orderId: string): string[] =>
    tw.events.filter((e) => e.orderId === orderId && e.status !== 'ONGOING').map((e) => e.status);
  /** The terminal transitions the trackers reported (listeners run right after the row is written). */
  const terminal = (orderId: string): Promise<string[]> =>
    until(`a terminal transition of ${orderId}`, async () => terminalEvents(orderId).length > 0 && terminalEvents(orderId));

  it('tracks a deposit matching a stored quote before any status request; the first request answers that row; the fill event finishes it', async () => {
    await restart(EVENTS_ONLY);
    await until('the followers to lead', async () => following().leads('ethereum') && following().leads('base'));
    const call = await tw.depositCall(1_000_000n);
    const orderId = await storeQuoteOf(call);
    const receipt = await tw.sendDeposit(call);
    const [deposit] = await tw.provider.findDeposit('ethereum', receipt.hash);

    // No status request: the follower saw the deposit, matched the quote, created the row and moved it on.
    const ongoing = await until('the row ONGOING', rowIn(orderId, ['ONGOING']));
    expect(ongoing).toMatchObject({ tx_hash: receipt.hash, request_id: deposit!.requestId });
    const seen = (await eventStore().events('ethereum')).find((e) => e.txHash === receipt.hash);
    expect(seen).toMatchObject({
      kind: 'deposit',
      requestId: deposit!.requestId,
      blockNumber: receipt.blockNumber,
      blockHash: receipt.blockHash,
      matched: true,
    });

    // The first status request finds that row (it creates nothing) and answers it with the stored quote.
    const first = await tracker!.status.execute({ orderId, txHash: receipt.hash });
    expect(first).toMatchObject({
      status: 'ONGOING',
      crossChainRequestId: deposit!.requestId,
      fromChainId: '1',
      toChainId: '8453',
      originTxHashes: [receipt.hash],
    });
    expect(first.context?.orderId).toBe(orderId);
    expect(first.tx?.data).toBe(call.data);
    const after = await rows(orderId);
    expect(after).toHaveLength(1);
    expect(after[0]!.created_at).toEqual(ongoing.created_at);

    // The relayer's FilledRelay finishes it (the poll is 10 minutes away).
    tw.relayer.setMode('normal');
    const done = await until('SUCCESS', rowIn(orderId, ['SUCCESS']));
    const fill = await tw.provider.findFill('base', 1, deposit!.requestId);
    expect(done.destination_tx_hashes).toEqual([fill!.txHash]);
    expect(await terminal(orderId)).toEqual(['SUCCESS']);
    expect((await tracker!.status.execute({ orderId, txHash: receipt.hash })).status).toBe('SUCCESS');
  });

  it('records a deposit that matches no stored quote without tracking it', async () => {
    const receipt = await tw.sendDeposit(await tw.depositCall(1_100_000n));
    const seen = await until('the deposit stored', async () =>
      (await eventStore().events('ethereum')).find((e) => e.txHash === receipt.hash),
    );
    expect(seen).toMatchObject({ kind: 'deposit', matched: false });
    expect((await tw.db.query(`SELECT 1 FROM cross_chain_orders WHERE tx_hash = $1`, [receipt.hash])).rowCount).toBe(0);
  });

  it('resumes from its cursor after a restart: a deposit made while it was down is tracked', async () => {
    const cursorBefore = await until('a cursor', () => eventStore().cursor('ethereum'));
    await tracker!.close();
    tracker = undefined;
    const call = await tw.depositCall(1_200_000n);
    const orderId = await storeQuoteOf(call);
    const receipt = await tw.sendDeposit(call);
    // Nobody follows now.
    await sleep(300);
    expect(await rows(orderId)).toEqual([]);
    const stopped = (
      await tw.db.query<{ block_number: string }>(`SELECT block_number FROM tracker_follow_cursors WHERE network = 'ethereum'`)
    ).rows[0]!;
    expect(Number(stopped.block_number)).toBeLessThan(receipt.blockNumber);
    expect(Number(stopped.block_number)).toBeGreaterThanOrEqual(cursorBefore.number);

    // A fresh cursor would start at the head (TRACKER_FOLLOW_START_BLOCKS 0) and miss the deposit: the stored one does not.
    await restart({ ...EVENTS_ONLY, TRACKER_FOLLOW_START_BLOCKS: '0' });
    const ongoing = await until('the row ONGOING', rowIn(orderId, ['ONGOING']));
    expect(ongoing.tx_hash).toBe(receipt.hash);
    const f = following().follower('ethereum')!;
    expect(f.stats.batches).toBeGreaterThan(0);
    expect((await eventStore().cursor('ethereum'))!.number).toBeGreaterThanOrEqual(receipt.blockNumber);
  });

  it('a reorg of a followed block removes its events and the follower reads the new chain; orders follow their deposit', async () => {
    await restart(EVENTS_ONLY);
    await until('the followers to lead', async () => following().leads('ethereum'));
    const snapshot = await tw.origin.snapshot();
    const forkedAt = await tw.origin.provider.getBlockNumber();
    const call1 = await tw.depositCall(1_300_000n);
    const order1 = await storeQuoteOf(call1);
    const r1 = await tw.sendDeposit(call1);
    await until('the first deposit followed', async () => (await eventStore().events('ethereum')).some((e) => e.txHash === r1.hash));
    await until('the cursor at its block', async () => ((await eventStore().cursor('ethereum'))?.number ?? 0) >= r1.blockNumber);
    // Its order is ONGOING, and no step of it is running (the next poll is minutes away).
    const first = await until('the first order ONGOING', rowIn(order1, ['ONGOING']));
    await until('no tracking step running', async () => ((await tracker!.app.get(TrackingQueue).counts())['active'] ?? 0) === 0);
    // The user's approval and deposit, signed, to send again after the reorg (as a node would re-mine them).
    const approvalHash = (await tw.origin.provider.getBlock(r1.blockNumber - 1))!.transactions[0]!;
    const resend = await Promise.all(
      [approvalHash, r1.hash].map(async (h) => Transaction.from((await tw.origin.provider.getTransaction(h))!).serialized),
    );
    const reorgsBefore = following().follower('ethereum')!.stats.reorgs;

    // Both blocks leave the chain; another wallet's deposit takes their place (a later timestamp: new hashes).
    await tw.origin.revert(snapshot);
    await tw.passTime(5);
    const call2 = await tw.depositCall(1_400_000n);
    const order2 = await storeQuoteOf(call2);
    const r2 = await tw.sendDeposit(call2, { from: tw.stranger });
    expect(r2.blockNumber).toBeGreaterThanOrEqual(r1.blockNumber);

    await until('the second deposit followed', async () => (await eventStore().events('ethereum')).some((e) => e.txHash === r2.hash));
    const events = await eventStore().events('ethereum');
    expect(events.some((e) => e.txHash === r1.hash)).toBe(false);
    // Every stored event from the reorged height on is on today's chain.
    for (const e of events.filter((x) => x.blockNumber >= r1.blockNumber - 1))
      expect(e.blockHash).toBe((await tw.origin.provider.getBlock(e.blockNumber))!.hash);
    expect(following().follower('ethereum')!.stats.reorgs).toBeGreaterThan(reorgsBefore);
    const cursor = (await eventStore().cursor('ethereum'))!;
    expect(cursor.hash).toBe((await tw.origin.provider.getBlock(cursor.number))!.hash);
    // The SpokePool's deposit counter went back with the chain: the new deposit carries the removed one's request id (depositId).
    const second = await until('the second order ONGOING', rowIn(order2, ['ONGOING']));
    expect(second.request_id).toBe(first.request_id);

    // The first transaction is mined again, after it: another request id.
    for (const raw of resend) await minedReceipt(tw.origin.provider, await tw.origin.provider.send('eth_sendRawTransaction', [raw]));
    const [again] = await tw.provider.findDeposit('ethereum', r1.hash);
    expect(again!.requestId).not.toBe(first.request_id);
    await until('the first deposit followed again', async () => (await eventStore().events('ethereum')).some((e) => e.txHash === r1.hash));

    // Both get filled. The first request id's fill wakes both orders; only the second is finished by it.
    // The first follows its deposit's new request id and is finished by that one's fill. The devnet
    // relayer keeps the deposits it saw (the removed one too, which it would fill as it was): a
    // relayer started after the reorg reads the chain as it is now, from the forked height.
    await tw.startRelayer({ fromBlocks: { ethereum: forkedAt + 1 } });
    const done2 = await until('the second order SUCCESS', rowIn(order2, ['SUCCESS']));
    const done1 = await until('the first order SUCCESS', rowIn(order1, ['SUCCESS']));
    expect(await terminal(order2)).toEqual(['SUCCESS']);
    expect(await terminal(order1)).toEqual(['SUCCESS']);
    expect(done2.destination_tx_hashes).toEqual([(await tw.provider.findFill('base', 1, second.request_id!))!.txHash]);
    expect(done1.request_id).toBe(again!.requestId);
    expect(done1.destination_tx_hashes).toEqual([(await tw.provider.findFill('base', 1, again!.requestId))!.txHash]);
  });

  it('an event that is not on chain (as one a reorg removed) finishes nothing; the real fill does', async () => {
    const call = await tw.depositCall(1_500_000n);
    const orderId = await storeQuoteOf(call);
    const receipt = await tw.sendDeposit(call);
    const ongoing = await until('the row ONGOING', rowIn(orderId, ['ONGOING']));
    // A fill of this request the follower "read" in a block that is not what the chain has.
    const head = await tw.destination.provider.getBlockNumber();
    await tw.db.query(
      `INSERT INTO tracker_bridge_events (network, block_number, log_index, block_hash, tx_hash, kind, request_id, origin_chain_id) VALUES ('base', $1, 999, $2, $3, 'fill', $4, 1)`,
      [head, `0x${randomBytes(32).toString('hex')}`, `0x${randomBytes(32).toString('hex')}`, ongoing.request_id],
    );
    const t = tracker!.app.get(CrossChainTracker);
    expect(await t.advance(orderId, receipt.hash, 'event')).toBe(false);
    expect(await t.advance(orderId, receipt.hash, 'poll')).toBe(false);
    expect((await rows(orderId))[0]!.status).toBe('ONGOING');

    tw.relayer.setMode('normal');
    const done = await until('SUCCESS', rowIn(orderId, ['SUCCESS']));
    const fill = await tw.provider.findFill('base', 1, ongoing.request_id!);
    expect(done.destination_tx_hashes).toEqual([fill!.txHash]);
    expect(await terminal(orderId)).toEqual(['SUCCESS']);
  });

  it("reports each followed network's head, cursor and lag (the tracker lag gauges), and forgets them when it stops following", async () => {
    await restart(EVENTS_ONLY);
    await until('the followers to lead', async () => following().leads('ethereum') && following().leads('base'));
    const gauge = async (g: typeof TRACKER_METRICS.followerLag, network: string): Promise<number | undefined> =>
      (await g.get()).values.find((v) => v.labels['network'] === network)?.value;
    const ticks = async (network: string): Promise<number> =>
      (await TRACKER_METRICS.followerTicks.get()).values.filter((v) => v.labels['network'] === network).reduce((n, v) => n + v.value, 0);
    const chains = { ethereum: new JsonRpcClient(tw.origin.rpcUrl), base: new JsonRpcClient(tw.destination.rpcUrl) };
    for (const network of ['ethereum', 'base'] as const) {
      const before = await ticks(network);
      await until(`${network} read again`, async () => (await ticks(network)) > before);
      // caught up (no confirmations in these tests): the lag is 0, the cursor at the chain's head
      await until(`${network} lag 0`, async () => (await gauge(TRACKER_METRICS.followerLag, network)) === 0);
      const [head, cursor] = [await gauge(TRACKER_METRICS.followerHead, network), await gauge(TRACKER_METRICS.followerCursor, network)];
      expect(head).toBe(cursor);
      expect(head).toBeLessThanOrEqual(Number(await chains[network].call<string>('eth_blockNumber')));
      expect((await eventStore().cursor(network))!.number).toBeGreaterThanOrEqual(cursor!);
    }
    await following().stop();
    expect(await gauge(TRACKER_METRICS.followerLag, 'ethereum')).toBeUndefined();
    expect(await gauge(TRACKER_METRICS.followerHead, 'base')).toBeUndefined();
  });

  it('the safety-net poll finishes an order whose events the follower never sees', async () => {
    // Logs 10,000 blocks deep only: the cursors are near the head and this file mines far fewer blocks, so the followers read nothing.
    await restart({
      TRACKER_FOLLOW_MS: '100',
      TRACKER_FOLLOW_CONFIRMATIONS: '10000',
      TRACKER_POLL_MS: '1500',
      TRACKER_PENDING_POLL_MS: '1500',
      TRACKER_SWEEP_MS: '600000',
    });
    const call = await tw.depositCall(1_600_000n);
    const orderId = await storeQuoteOf(call);
    const receipt = await tw.sendDeposit(call);
    const eventsBefore = (await eventStore().events('ethereum')).length + (await eventStore().events('base')).length;
    // Not followed: only a status request starts its tracking.
    await sleep(500);
    expect(await rows(orderId)).toEqual([]);
    expect((await tracker!.status.execute({ orderId, txHash: receipt.hash })).status).toBe('PENDING');
    const ongoing = await until('the row ONGOING', rowIn(orderId, ['ONGOING']));
    tw.relayer.setMode('normal');
    const fill = await until('the fill on chain', () => tw.provider.findFill('base', 1, ongoing.request_id!));
    const done = await until('SUCCESS by the poll', rowIn(orderId, ['SUCCESS']));
    expect(done.destination_tx_hashes).toEqual([fill.txHash]);
    expect(await terminal(orderId)).toEqual(['SUCCESS']);
    // The followers stored nothing meanwhile: the poll did it.
    expect((await eventStore().events('ethereum')).length + (await eventStore().events('base')).length).toBe(eventsBefore);
  });
});
