/**
 * Follows the bridge's events on one network: each `tick` reads the logs of the blocks after the
 * persisted cursor (up to the head minus `confirmations`, at most `maxRange` blocks), matches new
 * deposits to stored quotes, and commits events, new tracking rows and cursor in one transaction;
 * then hands the open orders those events concern to `onBatch` (which wakes them).
 *
 * Reorgs: the cursor carries its block hash. Before acting on a range the follower checks that the
 * first new block's parent is the cursor block, and after reading the logs that the range's last
 * block still has the hash it had before (else the range is read again). When the cursor block is
 * no longer on the chain it walks back through the stored batch ends to the newest one the chain
 * still has, deletes the events above it and reads on from there. Acting on a removed event is
 * harmless by construction: events only wake orders, and the tracker confirms a fill or refund on
 * chain before it writes a terminal state; a row created for a removed deposit stays PENDING until
 * its transaction is mined again (or FAILED as not found after the origin timeout).
 */
import type { ChainReader, RpcBlockHeader } from '@tokensvc/chain';
import type { BridgeEvent, BridgeProvider } from '@tokensvc/bridge';
import { NETWORK_INFO, type Network } from '@tokensvc/domain';
import { TRACKER_METRICS } from '../metrics';
import type { BlockRef, BridgeEventStore, OrderKey, StoredBridgeEvent } from './bridge-event-store';
import type { ChainTx, QuoteMatcher } from './quote-matcher';

export interface NetworkFollowerOptions {
  /** logs are read only this many blocks below the head */
  confirmations: number;
  /** a network without a cursor is read from this many blocks below the head (0: from the next block) */
  startBlocks: number;
  /** blocks per read */
  maxRange: number;
}

/** idle: at the head; progress: a range was committed; reorg: the cursor moved back; retry: the chain changed while reading; conflict: another follower moved the cursor */
export type TickResult = 'idle' | 'progress' | 'reorg' | 'retry' | 'conflict';

export interface FollowerBatch {
  network: Network;
  from: number;
  to: number;
  events: StoredBridgeEvent[];
  /** tracking rows this batch created (matched deposits) */
  created: OrderKey[];
  /** open orders its events concern (created ones included) */
  wake: OrderKey[];
}

export interface FollowerStats {
  batches: number;
  events: number;
  reorgs: number;
  removedEvents: number;
  created: number;
  unmatchedDeposits: number;
}

export class NetworkFollower {
  readonly stats: FollowerStats = { batches: 0, events: 0, reorgs: 0, removedEvents: 0, created: 0, unmatchedDeposits: 0 };
  private cursor: BlockRef | undefined;

  constructor(
    readonly network: Network,
    private readonly provider: BridgeProvider,
    private readonly reader: ChainReader,
    private readonly store: BridgeEventStore,
    private readonly matcher: QuoteMatcher,
    private readonly o: NetworkFollowerOptions,
    private readonly onBatch: (b: FollowerBatch) => Promise<void>,
    private readonly log: (level: 'warn' | 'error', msg: string) => void = () => undefined,
  ) {}

  /** Forgets the cached cursor (it is read again from Postgres: after a takeover, or a conflict). */
  reset(): void {
    this.cursor = undefined;
  }

  async tick(): Promise<TickResult> {
    const r = await this.read();
    TRACKER_METRICS.followerTicks.inc({ network: this.network, result: r });
    return r;
  }

  /** The head, the cursor and their distance (status_tracker_follower_*). */
  private observe(head: number, cursor: number): void {
    const labels = { network: this.network };
    TRACKER_METRICS.followerHead.set(labels, head);
    TRACKER_METRICS.followerCursor.set(labels, cursor);
    TRACKER_METRICS.followerLag.set(labels, Math.max(0, head - cursor));
  }

  private async read(): Promise<TickResult> {
    const cursor = this.cursor ?? (await this.loadCursor());
    const head = await this.reader.latestHeader();
    this.observe(head.number, cursor.number);
    const target = head.number - this.o.confirmations;
    if (cursor.number >= target) {
      if (cursor.number > head.number) return this.reorg(cursor);
      const at = cursor.number === head.number ? head : (await this.reader.maybeHeaders([cursor.number]))[0];
      return at?.hash === cursor.hash ? 'idle' : this.reorg(cursor);
    }
    const to = Math.min(target, cursor.number + this.o.maxRange);
    const toHeader = to === head.number ? head : (await this.reader.headers([to]))[0]!;
    const logs = (await this.provider.logs(this.network, cursor.number + 1, to)).filter(
      (e) => e.blockNumber > cursor.number && e.blockNumber <= to,
    );
    const [first, last] = await this.reader.maybeHeaders([cursor.number + 1, to]);
    if (first?.parentHash !== cursor.hash) return this.reorg(cursor);
    if (last?.hash !== toHeader.hash || logs.some((e) => e.blockNumber === to && e.blockHash !== toHeader.hash)) return 'retry';

    const events = logs.flatMap((e) => this.stored(e));
    const newOrders = await this.matchDeposits(events);
    const next = { number: to, hash: toHeader.hash };
    const { ok, created } = await this.store.commit(this.network, cursor, next, events, newOrders);
    if (!ok) {
      this.cursor = undefined;
      return 'conflict';
    }
    this.cursor = next;
    this.observe(head.number, next.number);
    this.stats.batches++;
    this.stats.events += events.length;
    this.stats.created += created.length;
    this.stats.unmatchedDeposits += events.filter((e) => e.kind === 'deposit' && !e.matched).length;
    const wake = events.length > 0 ? await this.store.openOrdersFor(this.network, events) : [];
    await this.onBatch({ network: this.network, from: cursor.number + 1, to, events, created, wake });
    return 'progress';
  }

  private async loadCursor(): Promise<BlockRef> {
    const stored = await this.store.cursor(this.network);
    if (stored) return (this.cursor = stored);
    const head = await this.reader.latestHeader();
    const start = Math.max(0, head.number - this.o.confirmations - this.o.startBlocks);
    const header = start === head.number ? head : (await this.reader.headers([start]))[0]!;
    return (this.cursor = await this.store.initCursor(this.network, { number: start, hash: header.hash }));
  }

  /** The newest kept batch end the chain still has becomes the cursor; what was read above it is forgotten. */
  private async reorg(cursor: BlockRef): Promise<TickResult> {
    const recent = await this.store.recentBlocks(this.network);
    const headers: Array<RpcBlockHeader | undefined> = recent.length > 0 ? await this.reader.maybeHeaders(recent.map((b) => b.number)) : [];
    let ancestor = recent.find((b, i) => headers[i]?.hash === b.hash);
    if (!ancestor) {
      // Deeper than every kept batch end: read again from just below the oldest one.
      const n = Math.max(0, (recent[recent.length - 1]?.number ?? cursor.number) - 1);
      const [h] = await this.reader.headers([n]);
      ancestor = { number: n, hash: h!.hash };
      this.log(
        'error',
        `bridge follower ${this.network}: reorg deeper than the ${recent.length} kept batch ends; reading again from block ${n}`,
      );
    }
    const { ok, removedEvents } = await this.store.rewind(this.network, cursor, ancestor);
    this.cursor = ok ? ancestor : undefined;
    if (!ok) return 'conflict';
    this.stats.reorgs++;
    this.stats.removedEvents += removedEvents;
    this.log(
      'warn',
      `bridge follower ${this.network}: block ${cursor.number} ${cursor.hash} is no longer on the chain; back to ${ancestor.number}, ${removedEvents} events removed`,
    );
    return 'reorg';
  }

  private stored(e: BridgeEvent): StoredBridgeEvent[] {
    const at = {
      network: this.network,
      txHash: e.txHash.toLowerCase(),
      blockNumber: e.blockNumber,
      blockHash: e.blockHash,
      logIndex: e.logIndex,
    };
    switch (e.kind) {
      case 'deposit':
        return [{ ...at, kind: 'deposit', requestId: e.requestId, originChainId: e.originChainId }];
      case 'fill':
        return [{ ...at, kind: 'fill', requestId: e.requestId, originChainId: e.originChainId }];
      case 'refund':
        return [{ ...at, kind: 'refund', requestId: e.requestId, originChainId: NETWORK_INFO[this.network].chainId }];
      case 'settled':
        // The fill on the destination is what the tracker waits for; the repayment adds nothing.
        return [];
    }
  }

  /** Tracking rows for deposits whose transaction no tracked order has, from the stored quotes; marks each deposit matched or not. */
  private async matchDeposits(events: StoredBridgeEvent[]): Promise<Parameters<BridgeEventStore['commit']>[4]> {
    const deposits = events.filter((e) => e.kind === 'deposit');
    if (deposits.length === 0) return [];
    const hashes = [...new Set(deposits.map((e) => e.txHash))];
    const tracked = await this.store.trackedTxHashes(hashes);
    const untracked = hashes.filter((h) => !tracked.has(h));
    const txs =
      untracked.length === 0
        ? []
        : await this.reader.client.batch<ChainTx | null>(untracked.map((h) => ({ method: 'eth_getTransactionByHash', params: [h] })));
    const rows = await this.matcher.match(
      this.network,
      txs.filter((t): t is ChainTx => t !== null),
    );
    const matched = new Set(rows.map((r) => r.txHash));
    for (const d of deposits) d.matched = tracked.has(d.txHash) || matched.has(d.txHash);
    return rows;
  }
}
