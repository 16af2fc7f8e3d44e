import type { Network } from '@tokensvc/domain';
import { METRICS } from '../metrics';
import type { IndexerLogger } from '../model/indexer-logger';
import type { BalanceWrite } from '../store/balance-deltas';
import type { Cursor } from '../store/cursor.repo';
import type { BuiltBatch } from './batch-builder';
import { BackfillProgress, type ProgressReport } from './progress';

/** One network's indexing status (the health port's /status, `npm start`'s progress lines). */
export interface NetworkStatus extends Omit<ProgressReport, 'cursor' | 'head'> {
  network: Network;
  /** the node's latest block as last seen; null before the first poll (or on a replica waiting for the lease) */
  head: number | null;
  /** last block fully indexed; null before the cursor was loaded */
  cursor: number | null;
  /** head - cursor; null while either is unknown */
  lag: number | null;
  /** within the readiness lag of the head (INDEXER_READY_LAG_BLOCKS) and not ahead of the chain */
  caughtUp: boolean;
  /** leader: holds the network's lease and writes; standby: warm, watching the lease (cursor = the leader's, as stored) */
  role: 'leader' | 'standby';
}

/**
 * Where one network's indexing stands: the node's head and the cursor, kept in step with their
 * metrics, the 'caught up' and progress log lines, and the /status report.
 */
export class NetworkPosition {
  head = -1;
  cursor: Cursor | undefined;
  private caughtUp = false;
  /** rate and ETA over the recent committed batches (fed per batch, not per event) */
  private readonly progress: BackfillProgress;
  private lastProgressLog = 0;

  constructor(
    private readonly network: Network,
    startBlock: number,
    private readonly readyLagBlocks: number,
    private readonly progressLogMs: number,
    private readonly logger: IndexerLogger,
  ) {
    this.progress = new BackfillProgress(startBlock);
  }

  get cursorBlock(): number {
    return this.cursor?.blockNumber ?? -1;
  }

  /** the cursor is known and within the readiness lag of the head */
  get withinLag(): boolean {
    return this.cursor !== undefined && this.head >= 0 && this.head - this.cursor.blockNumber <= this.readyLagBlocks;
  }

  setHead(head: number): void {
    this.head = head;
    METRICS.head.set({ network: this.network }, head);
  }

  /** The cursor was (re)loaded from Postgres: the progress rate starts over from it. */
  reloaded(): void {
    METRICS.cursor.set({ network: this.network }, this.cursor!.blockNumber);
    this.progress.reset(Date.now(), this.cursor!.blockNumber);
  }

  /** A batch was committed: the cursor moves to its last block. */
  committed(built: BuiltBatch, finalizedBlock: number, balances: BalanceWrite | null, started: bigint): void {
    const before = this.cursor!;
    this.cursor = {
      ...before,
      blockNumber: built.to,
      blockHash: built.toHash,
      finalizedBlock,
      balancesBlock: balances ? null : (before.balancesBlock ?? before.blockNumber),
    };
    const labels = { network: this.network };
    METRICS.batchSeconds.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    METRICS.blocks.inc(labels, built.to - built.from + 1);
    METRICS.logs.inc(labels, built.logCount);
    if (built.malformed > 0) METRICS.malformedLogs.inc(labels, built.malformed);
    METRICS.cursor.set(labels, built.to);
    METRICS.headLag.set(labels, Math.max(0, this.head - built.to));
  }

  /** After a commit: caught up, or no longer within the readiness lag. */
  afterCommit(built: BuiltBatch): void {
    this.logProgressIfDue(built.logCount);
    if (built.to >= this.head) this.markCaughtUp();
    else if (this.head - built.to > this.readyLagBlocks) this.caughtUp = false;
  }

  /** rolled back: no longer caught up */
  rolledBack(): void {
    this.caughtUp = false;
  }

  markCaughtUp(): void {
    const labels = { network: this.network };
    METRICS.headLag.set(labels, Math.max(0, this.head - this.cursorBlock));
    if (this.caughtUp || this.cursorBlock < this.head) return;
    this.caughtUp = true;
    this.logger.log({ msg: 'caught up', network: this.network, block: this.cursorBlock, head: this.head });
  }

  /** Once per committed batch: a progress line per network every progressLogMs while behind by more than the readiness lag. */
  private logProgressIfDue(events: number): void {
    const now = Date.now();
    this.progress.record(now, this.cursorBlock, events);
    if (this.head - this.cursorBlock <= this.readyLagBlocks || now - this.lastProgressLog < this.progressLogMs) return;
    this.lastProgressLog = now;
    const { cursor, head, blocksLeft, blocksPerSecond, eventsPerSecond, etaSeconds, percent } = this.progress.report(
      now,
      this.cursorBlock,
      this.head,
    );
    this.logger.log({
      msg: 'backfill progress',
      network: this.network,
      cursor,
      head,
      blocksLeft,
      blocksPerSecond,
      eventsPerSecond,
      etaSeconds,
      percent,
    });
  }

  status(now: number, ready: boolean, role: NetworkStatus['role']): NetworkStatus {
    const known = this.cursor !== undefined && this.head >= 0;
    const p = this.progress.report(now, this.cursorBlock, known ? this.head : -1);
    return {
      network: this.network,
      head: this.head >= 0 ? this.head : null,
      cursor: this.cursor ? this.cursor.blockNumber : null,
      lag: known ? p.blocksLeft : null,
      caughtUp: ready,
      blocksLeft: p.blocksLeft,
      blocksPerSecond: p.blocksPerSecond,
      eventsPerSecond: p.eventsPerSecond,
      etaSeconds: p.etaSeconds,
      percent: p.percent,
      role,
    };
  }
}
