import type { Pool } from 'pg';
import { AdaptiveRange, JsonRpcClient, sleep, type PlatformDefinition } from '@tokensvc/chain';
import type { Network } from '@tokensvc/domain';
import { ADAPTERS } from '../adapters';
import type { NetworkIndexingConfig } from '../config/indexer-config';
import { LogDecoder } from '../decode/log-decoder';
import { METRICS } from '../metrics';
import type { DerivationStage } from '../model/derivation.port';
import type { IndexerLogger } from '../model/indexer-logger';
import type { TokenSeed } from '../model/registry.types';
import { CpuGate, TimeSlice } from '../model/time-slice';
import { FallbackNodes } from '../reorg/chain-behind';
import { findCommonAncestor } from '../reorg/common-ancestor';
import { rollbackTo } from '../reorg/rollback';
import type { ContractRegistry } from '../registry/contract-registry';
import { BalanceDeltas, type BalanceWrite } from '../store/balance-deltas';
import { ensureCursor, markAheadOfChain, readCursor, type Cursor } from '../store/cursor.repo';
import { fenceWriteTx, LeaseLostError } from '../store/lease.repo';
import { prunePoolHistory } from '../store/pools.repo';
import { inTransaction, poolQuery } from '../store/sql-tx';
import { pruneTickDeltas } from '../store/ticks.repo';
import { catchUpBalances, hasBalances } from '../store/transfers.repo';
import { BatchBuilder, type BatchDraft, type BuiltBatch } from './batch-builder';
import { writeBatch } from './batch-writer';
import { bootstrapScope, needsBootstrap, nothingStored } from './bootstrap-scope';
import { NetworkLease } from './network-lease';
import { IndexerChainReader } from '../rpc/logs-reader';
import { ChainMovedError, RangePrefetcher, type FetchedRange } from './range-prefetcher';
import { BackfillProgress, type ProgressReport } from './progress';
import { loadRegistry } from './registry-loader';

export interface NetworkIndexerOptions {
  cfg: NetworkIndexingConfig;
  pool: Pool;
  derive: DerivationStage;
  platforms: readonly PlatformDefinition[];
  instanceId: string;
  leaseTtlMs: number;
  prefetch: number;
  targetLogsPerRange: number;
  /** first eth_getLogs range tried (blocks); grows from there. Default 10 */
  initialLogRange?: number;
  /** eth_getLogs ranges per fetched batch. Default 1 */
  rangesPerBatch?: number;
  /** while Postgres is busy, fetched batches gather in the next written batch up to this many logs. Default 250000 */
  maxBatchLogs?: number;
  readyLagBlocks: number;
  rpcTimeoutMs: number;
  /** eth_getLogs replies are read in a worker thread (default true) */
  logsWorker?: boolean;
  /** during a backfill, balance changes of at most this many (token, holder) pairs are held back in memory (default HELD_BALANCE_PAIRS) */
  heldBalancePairs?: number;
  /** how often (at most) the derivation stage's refreshHead runs once caught up; 0 = never */
  refreshHeadMs: number;
  logger: IndexerLogger;
  /** while more than readyLagBlocks behind, a progress line at most this often (ms; checked per committed batch). Default 5000 */
  progressLogMs?: number;
  /** called after each commit (and rollback): the publisher's cue */
  onCommitted?: (network: Network) => void;
}

const noop = (): void => undefined;
/** default NetworkIndexerOptions.heldBalancePairs */
export const HELD_BALANCE_PAIRS = 500_000;
/** A reorg was detected at the batch boundary: repair before going on. */
class ReorgDetected extends Error {}

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
 * One network's writer: holds the lease, backfills from the cursor to the head with ranges read
 * ahead of the writer, then follows the head; detects reorgs by parent hash (and by the head's
 * hash when the height did not move), rolls back to the common ancestor and re-applies.
 * Any failure reloads state from Postgres and resumes from the cursor.
 */
export class NetworkIndexer {
  readonly network: Network;
  head = -1;
  private cursor: Cursor | undefined;
  private registry: ContractRegistry | undefined;
  private pendingSeeds: TokenSeed[] = [];
  private stopped = false;
  private running: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private caughtUp = false;
  /** see dataAheadOfChainNow */
  private aheadOfChain = false;
  /** the main node was found behind the cursor while a fallback URL had the cursor's block (logged once) */
  private nodeBehind = false;
  private readonly fallbacks: FallbackNodes;
  private lastPrune = 0;
  private lastRefresh = 0;
  /** rate and ETA over the recent committed batches (fed per batch, not per event) */
  private readonly progress: BackfillProgress;
  private lastProgressLog = 0;
  /** balance changes of written batches not in the balances yet (see balancesFor) */
  private heldBalances = new BalanceDeltas();
  /** the network has no balance rows yet, nor a batch on its way that writes some: the next balance write is a COPY */
  private balancesFresh = false;
  private readonly reader: IndexerChainReader;
  private readonly range: AdaptiveRange;
  private readonly decoder: LogDecoder;
  private readonly builder: BatchBuilder;
  private readonly q: ReturnType<typeof poolQuery>;
  private readonly lease: NetworkLease;
  /** the write path's CPU phases go before decoding and reading ahead */
  private readonly gate = new CpuGate();
  /** standby: when the head and the stored cursor were last read, and whether that worked */
  private lastStandbyCheck = 0;
  private standbyOk = false;

  constructor(private readonly o: NetworkIndexerOptions) {
    this.network = o.cfg.network;
    this.progress = new BackfillProgress(o.cfg.startBlock);
    const onRetry = (method: string, e: unknown): void => {
      METRICS.rpcRetries.inc({ network: this.network, method });
      o.logger.warn(`${this.network}: retrying ${method}: ${(e as Error).message}`);
    };
    const urls = o.cfg.rpcUrls?.length ? o.cfg.rpcUrls : [o.cfg.rpcUrl];
    const client = new JsonRpcClient(urls, { timeoutMs: o.rpcTimeoutMs, onRetry, maxRps: o.cfg.maxRps });
    // Every URL may vouch for the cursor: with several, the safe head can drop below it when one falls behind.
    this.fallbacks = new FallbackNodes(urls.length > 1 ? [...urls, ...(o.cfg.fallbackRpcUrls ?? [])] : (o.cfg.fallbackRpcUrls ?? []), o.rpcTimeoutMs);
    this.reader = new IndexerChainReader(client, { network: this.network, worker: o.logsWorker ?? true, timeoutMs: o.rpcTimeoutMs, onRetry });
    this.range = new AdaptiveRange({ max: o.cfg.maxLogRange, targetLogs: o.targetLogsPerRange, initial: o.initialLogRange ?? 10 });
    this.decoder = new LogDecoder(Object.values(ADAPTERS));
    this.builder = new BatchBuilder(this.reader, this.decoder, this.range);
    this.q = poolQuery(o.pool);
    this.lease = new NetworkLease(o.pool, this.network, o.instanceId, o.leaseTtlMs, o.logger, () => this.wake?.());
  }

  get cursorBlock(): number {
    return this.cursor?.blockNumber ?? -1;
  }

  /** caught up within the readiness lag, and not ahead of the chain the node serves */
  get ready(): boolean {
    if (!this.lease.held && !this.standbyOk) return false;
    return this.cursor !== undefined && this.head >= 0 && !this.aheadOfChain && this.head - this.cursor.blockNumber <= this.o.readyLagBlocks;
  }

  /**
   * The indexed data holds blocks the node's chain does not have (found below the cursor, not
   * rolled back yet): what the API serves for this network is not the chain's current state.
   */
  get dataAheadOfChainNow(): boolean {
    return this.aheadOfChain;
  }

  status(now = Date.now()): NetworkStatus {
    const known = this.cursor !== undefined && this.head >= 0;
    const p = this.progress.report(now, this.cursorBlock, known ? this.head : -1);
    return {
      network: this.network,
      head: this.head >= 0 ? this.head : null,
      cursor: this.cursor ? this.cursor.blockNumber : null,
      lag: known ? p.blocksLeft : null,
      caughtUp: this.ready,
      blocksLeft: p.blocksLeft,
      blocksPerSecond: p.blocksPerSecond,
      eventsPerSecond: p.eventsPerSecond,
      etaSeconds: p.etaSeconds,
      percent: p.percent,
      role: this.lease.held ? 'leader' : 'standby',
    };
  }

  start(): void {
    this.running ??= this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.running;
    this.reader.close();
    await this.lease.release();
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      try {
        if (!(await this.lease.acquire(() => this.stopped, (ms) => this.pause(ms), () => this.standby()))) break;
        try {
          await this.init();
          await this.follow();
        } finally {
          this.lease.pauseRenewal();
        }
        failures = 0;
      } catch (e) {
        if (this.stopped) break;
        if (e instanceof ChainMovedError) {
          this.o.logger.warn(`${this.network}: ${e.message}; reading again`);
          continue;
        }
        failures++;
        const level = e instanceof LeaseLostError ? 'warn' : 'error';
        this.o.logger[level]({ msg: `${this.network}: indexing stopped, resuming from the cursor`, network: this.network, error: (e as Error).message });
        await this.pause(Math.min(30_000, 250 * 2 ** Math.min(failures, 7)));
      }
    }
  }

  /**
   * Between lease checks while another replica holds the lease: keeps this one ready to take over
   * (the registry loaded once, the RPC node's head and the stored cursor read every second or
   * poll interval), so /status shows the leader's progress and readiness says whether the data is
   * caught up. Taking over reloads everything (init) from what the leader committed.
   */
  private async standby(): Promise<void> {
    const now = Date.now();
    if (now - this.lastStandbyCheck < Math.max(this.o.cfg.pollMs, 1_000)) return;
    this.lastStandbyCheck = now;
    try {
      if (!this.registry) {
        const loaded = await loadRegistry(this.q, this.reader.client, this.network, this.o.platforms, this.o.cfg.listedTokens, this.o.cfg.pools ?? 'listed');
        this.registry = loaded.registry;
        this.pendingSeeds = loaded.pendingSeeds;
        this.o.logger.log({ msg: 'standby warm: registry loaded, watching the lease', network: this.network, ms: Date.now() - now });
      }
      this.setHead((await this.reader.latestHeader()).number);
      const cursor = await readCursor(this.q, this.network);
      if (cursor) {
        this.cursor = cursor;
        this.showAheadOfChain(cursor.aheadOfChain);
      }
      this.standbyOk = true;
    } catch (e) {
      if (this.standbyOk) this.o.logger.warn({ msg: 'standby check failed (will retry)', network: this.network, error: (e as Error).message });
      this.standbyOk = false;
    }
  }

  /** (Re)loads the cursor and the registry from Postgres; the balances catch up with the cursor. */
  private async init(): Promise<void> {
    this.cursor = await ensureCursor(this.q, this.network, this.o.cfg.startBlock);
    // Left set by a stop before the rollback: the data is still taken as ahead until the chain is checked.
    this.showAheadOfChain(this.cursor.aheadOfChain);
    this.heldBalances = new BalanceDeltas();
    if (this.cursor.balancesBlock !== null) {
      // Balance changes held in memory were lost (a stop or crash during a backfill, or a failed batch).
      await inTransaction(this.o.pool, async (tx) => {
        if (!(await fenceWriteTx(tx, this.network, this.lease.holder))) throw new LeaseLostError(`${this.network}: lease lost to another replica`);
        await catchUpBalances(tx, this.network);
      });
      this.o.logger.log(`${this.network}: balances caught up from block ${this.cursor.balancesBlock} to the cursor (${this.cursor.blockNumber})`);
      this.cursor = { ...this.cursor, balancesBlock: null };
    }
    this.balancesFresh = !(await hasBalances(this.q, this.network));
    let loaded = await loadRegistry(this.q, this.reader.client, this.network, this.o.platforms, this.o.cfg.listedTokens, this.o.cfg.pools ?? 'listed');
    if (needsBootstrap(this.o.cfg, this.cursor) && (await nothingStored(this.q, this.network))) {
      // A start block with history before it: the scope's state at the block before, then logs from it.
      this.setHead((await this.reader.latestHeader()).number);
      const done = await bootstrapScope({ pool: this.o.pool, reader: this.reader, derive: this.o.derive, cfg: this.o.cfg, platforms: this.o.platforms, holder: this.lease.holder, head: this.head, pendingSeeds: loaded.pendingSeeds, log: (m) => this.o.logger.log(m) });
      if (done) {
        this.o.logger.log({ msg: 'start-block bootstrap written', network: this.network, ...done });
        this.cursor = (await readCursor(this.q, this.network))!;
        loaded = await loadRegistry(this.q, this.reader.client, this.network, this.o.platforms, this.o.cfg.listedTokens, this.o.cfg.pools ?? 'listed');
      }
    }
    this.registry = loaded.registry;
    this.pendingSeeds = loaded.pendingSeeds;
    METRICS.cursor.set({ network: this.network }, this.cursor.blockNumber);
    this.progress.reset(Date.now(), this.cursor.blockNumber);
    this.o.onCommitted?.(this.network);
  }

  private async follow(): Promise<void> {
    while (!this.stopped) {
      this.lease.check();
      const latest = await this.reader.latestHeader();
      this.setHead(latest.number);
      const cursor = this.cursor!;
      if (latest.number >= cursor.blockNumber) this.nodeBehind = false;
      if (cursor.blockNumber < latest.number) {
        try {
          await this.sync(latest.number);
          // Batches linked to the cursor by parent hash: the data is on the chain (moveCursor cleared the row's flag).
          this.showAheadOfChain(false);
        } catch (e) {
          if (!(e instanceof ReorgDetected)) throw e;
          await this.repairReorg();
        }
        continue;
      }
      // Nothing new: the tip itself may have been replaced (same height, other hash).
      if (cursor.blockHash !== '' && latest.number === cursor.blockNumber && latest.hash !== cursor.blockHash) {
        await this.repairReorg();
        continue;
      }
      if (latest.number < cursor.blockNumber) {
        // The node serves a chain below the cursor: a reloaded or resynced node, a reorg onto a
        // shorter chain, or a node merely behind. Rolled back at once unless another URL still has
        // the cursor's block; waiting for the chain to pass the old height would serve blocks that
        // no longer exist until then.
        if (await this.dataAheadOfChain(latest.number)) await this.repairReorg();
        else await this.pause(this.o.cfg.pollMs);
        continue;
      }
      // The node has the cursor's block: a flag left from a stop before the rollback no longer holds.
      if (this.aheadOfChain) await this.setAheadOfChain(false);
      this.markCaughtUp();
      this.lease.check();
      await this.refreshHeadIfDue();
      await this.pruneIfDue();
      await this.pause(this.o.cfg.pollMs);
    }
  }

  /**
   * The main node's head is below the cursor. True when the indexed data is ahead of the chain
   * (no fallback URL has the cursor's block): `aheadOfChain` is then set until the rollback.
   * False when a fallback URL vouches for the cursor (the main node is only behind) or nothing
   * is indexed yet.
   */
  private async dataAheadOfChain(head: number): Promise<boolean> {
    const cursor = this.cursor!;
    if (cursor.blockHash === '') return false;
    const vouching = this.fallbacks.size > 0 ? await this.fallbacks.vouchFor(cursor) : undefined;
    if (vouching !== undefined) {
      if (!this.nodeBehind) this.o.logger.warn({ msg: 'RPC node behind the cursor; another URL has the cursor block, waiting', network: this.network, head, cursor: cursor.blockNumber, fallback: vouching });
      this.nodeBehind = true;
      await this.setAheadOfChain(false);
      return false;
    }
    await this.setAheadOfChain(true);
    this.o.logger.warn({ msg: 'chain below the indexed data; rolling back now', network: this.network, head, cursor: cursor.blockNumber });
    return true;
  }

  /** In index_cursors too (the gateway's readiness reads it there), before the rollback starts. */
  private async setAheadOfChain(ahead: boolean): Promise<void> {
    if (ahead !== this.aheadOfChain) await markAheadOfChain(this.q, this.network, ahead);
    this.showAheadOfChain(ahead);
  }

  /** The flag in memory (indexer readiness) and the metric; the row was written with the cursor. */
  private showAheadOfChain(ahead: boolean): void {
    this.aheadOfChain = ahead;
    METRICS.aheadOfChain.set({ network: this.network }, ahead ? 1 : 0);
  }

  /**
   * Indexes (cursor, target] range by range; throws ReorgDetected at a broken parent link. The
   * next range is decoded while the previous one is being written (one write in flight).
   */
  private async sync(target: number): Promise<void> {
    const prefetcher = new RangePrefetcher(this.reader, this.registry!, this.decoder.topics, this.range, {
      from: this.cursor!.blockNumber + 1,
      to: target,
      depth: this.o.prefetch,
      rangesPerBatch: this.o.rangesPerBatch ?? 1,
      denseFrom: target - this.o.cfg.finalityDepth,
      lookahead: { topics: this.decoder.discoveryTopics, addressesIn: (logs) => this.decoder.discoveredAddresses(logs, this.registry!) },
    });
    let tipHash = this.cursor!.blockHash;
    const maxLogs = this.o.maxBatchLogs ?? 250_000;
    // Written batches: the one Postgres is writing, then at most one more, prepared and waiting.
    const writes: Array<Promise<void>> = [];
    let failure: { error: unknown } | undefined;
    // Settles once the last batch handed to the writer has been derived (its working set is where
    // the next batch starts), or its write ended.
    let derived: Promise<void> = Promise.resolve();
    let draft: BatchDraft | undefined;
    let started = process.hrtime.bigint();

    const write = async (d: BatchDraft, since: bigint): Promise<void> => {
      // Ahead of reading ahead and decoding further ranges: the writer may be waiting for it.
      // Its balance changes are summed straight into the held ones (balancesFor then decides
      // whether they are written with it).
      const built = await this.gate.hold(() => d.finish(new TimeSlice(), this.heldBalances));
      const balances = this.balancesFor(built, target);
      // Derived before its transaction when the stage can (no database needed), while the
      // previous batch is still being written.
      await derived;
      const precompute = this.o.derive.precompute?.bind(this.o.derive);
      const precomputed = precompute ? await this.gate.hold(() => precompute(built.decoded)) : undefined;
      while (writes.length >= 2) await writes[0];
      if (failure) throw failure.error;
      let computed!: () => void;
      const onComputed = new Promise<void>((resolve) => (computed = resolve));
      // In order: each write starts when the one before it has committed (and never after a failed one).
      const previous = writes[writes.length - 1] ?? Promise.resolve();
      const w = previous.then(() => this.commit(built, target, balances, since, { foreground: this.gate, precomputed, onComputed: computed }));
      writes.push(w);
      const done = (): void => {
        void writes.splice(writes.indexOf(w), 1);
      };
      void w.then(done, (error: unknown) => {
        failure ??= { error };
        done();
      });
      // Precomputed: the working set is already past this batch.
      derived = precomputed ? Promise.resolve() : Promise.race([onComputed, w.then(noop, noop)]);
    };

    let next: Promise<FetchedRange | undefined> | undefined;
    try {
      while (!this.stopped && !failure) {
        // A lost lease stops reading ahead (the writes in flight fail at their fence).
        this.lease.check();
        if (!next) {
          next = prefetcher.next();
          // Awaited below; this only keeps an abandoned read from crashing the process.
          next.catch(() => undefined);
        }
        if (draft) {
          // A decoded batch goes to the writer once it is large enough, or at once when Postgres
          // would otherwise be idle. While Postgres is busy, decoded ranges gather in it: the
          // per-batch costs (the balance upsert above all) are then paid once for more events.
          if (writes.length === 0 || draft.logCount >= maxLogs) {
            await write(draft, started);
            draft = undefined;
            continue;
          }
          const allWritten = writes[writes.length - 1]!.then(noop, noop);
          if ((await Promise.race([next.then(() => 'range', () => 'range'), allWritten.then(() => 'idle')])) === 'idle') continue;
        }
        const fr = await next;
        next = undefined;
        if (!fr) break;
        if (tipHash !== '' && fr.headers.get(fr.from)!.parentHash !== tipHash) throw new ReorgDetected();
        if (!draft) {
          draft = this.builder.begin(this.registry!, this.pendingSeeds, this.gate);
          started = process.hrtime.bigint();
        }
        await draft.add(fr);
        tipHash = fr.headers.get(fr.to)!.hash;
      }
      // Stopping (or done): what was decoded is written.
      if (draft && !failure) await write(draft, started);
    } finally {
      await Promise.allSettled(writes);
    }
    if (failure) throw failure.error;
  }

  /**
   * The balance changes written with a batch (WriteOptions.balances). During a backfill they are
   * held back in memory and written with a later batch: the one that reaches the target, the last
   * one before a stop, or the one that brings them to `heldBalancePairs` (token, holder) pairs.
   * Every holder's row is then upserted once per backfill, not once per batch. Called in batch
   * order, right after the batch was finished into `heldBalances` (so a batch's changes are never
   * copied from a map of its own). A batch that fails takes them with it: init() folds the stored
   * transfers in instead.
   */
  private balancesFor(built: BuiltBatch, target: number): BalanceWrite | null {
    if (built.transfers.deltas !== this.heldBalances) throw new Error('batch balance changes were not summed into the held ones');
    if (built.to < target && !this.stopped && this.heldBalances.size < (this.o.heldBalancePairs ?? HELD_BALANCE_PAIRS)) return null;
    const write = this.heldBalances.write(this.network, this.balancesFresh);
    // The batches after this one find its rows (if it fails, init() looks again).
    if (write.rows > 0) this.balancesFresh = false;
    this.heldBalances = new BalanceDeltas();
    return write;
  }

  private async commit(built: BuiltBatch, target: number, balances: BalanceWrite | null, started: bigint, apply: Parameters<typeof writeBatch>[4]): Promise<void> {
    const finalizedBlock = Math.max(0, Math.min(built.to, this.head - this.o.cfg.finalityDepth));
    await writeBatch(this.o.pool, this.o.derive, built, { holder: this.lease.holder, leaseTtlMs: this.lease.ttlMs, finalizedBlock, backfillTarget: target, balances }, apply);
    const before = this.cursor!;
    this.cursor = { ...before, blockNumber: built.to, blockHash: built.toHash, finalizedBlock, balancesBlock: balances ? null : (before.balancesBlock ?? before.blockNumber) };
    const labels = { network: this.network };
    METRICS.batchSeconds.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    METRICS.blocks.inc(labels, built.to - built.from + 1);
    METRICS.logs.inc(labels, built.logCount);
    if (built.malformed > 0) METRICS.malformedLogs.inc(labels, built.malformed);
    METRICS.cursor.set(labels, built.to);
    METRICS.headLag.set(labels, Math.max(0, this.head - built.to));
    this.o.onCommitted?.(this.network);
    this.logProgressIfDue(built.logCount);
    if (built.to >= this.head) this.markCaughtUp();
    else if (this.head - built.to > this.o.readyLagBlocks) this.caughtUp = false;
  }

  private async repairReorg(): Promise<void> {
    const cursor = this.cursor!;
    // Blocks above the node's head cannot be the ancestor (some nodes refuse to be asked for them).
    const found = await findCommonAncestor(this.q, this.reader, this.network, this.head >= 0 ? Math.min(cursor.blockNumber, this.head) : cursor.blockNumber);
    const ancestor = found ?? { number: this.o.cfg.startBlock - 1, hash: '' };
    const depth = cursor.blockNumber - ancestor.number;
    const detail = { network: this.network, from: cursor.blockNumber, ancestor: ancestor.number, depth, finalityDepth: this.o.cfg.finalityDepth };
    if (depth > this.o.cfg.finalityDepth) {
      METRICS.deepReorgs.inc({ network: this.network });
      this.o.logger.error({ msg: 'ALERT: reorg deeper than the finality depth; repairing', alert: 'deep_reorg', ...detail });
    } else this.o.logger.warn({ msg: 'reorg detected; rolling back to the common ancestor', ...detail });
    await rollbackTo(this.o.pool, this.o.derive, this.network, ancestor.number, ancestor.hash, { holder: this.lease.holder, ttlMs: this.lease.ttlMs });
    METRICS.reorgs.inc({ network: this.network });
    this.caughtUp = false;
    // rewindCursor cleared the row's flag in the rollback's transaction.
    this.showAheadOfChain(false);
    await this.init();
  }

  private markCaughtUp(): void {
    const labels = { network: this.network };
    METRICS.headLag.set(labels, Math.max(0, this.head - this.cursorBlock));
    if (this.caughtUp || this.cursorBlock < this.head) return;
    this.caughtUp = true;
    this.o.logger.log({ msg: 'caught up', network: this.network, block: this.cursorBlock, head: this.head });
  }

  /** Once per committed batch: a progress line per network every progressLogMs while behind by more than the readiness lag. */
  private logProgressIfDue(events: number): void {
    const now = Date.now();
    this.progress.record(now, this.cursorBlock, events);
    if (this.head - this.cursorBlock <= this.o.readyLagBlocks || now - this.lastProgressLog < (this.o.progressLogMs ?? 5_000)) return;
    this.lastProgressLog = now;
    const { cursor, head, blocksLeft, blocksPerSecond, eventsPerSecond, etaSeconds, percent } = this.progress.report(now, this.cursorBlock, this.head);
    this.o.logger.log({ msg: 'backfill progress', network: this.network, cursor, head, blocksLeft, blocksPerSecond, eventsPerSecond, etaSeconds, percent });
  }

  private setHead(head: number): void {
    this.head = head;
    METRICS.head.set({ network: this.network }, head);
  }

  /** State only eth_call gives (share prices, rates) is refreshed at the head, outside batches. */
  private async refreshHeadIfDue(): Promise<void> {
    if (this.o.refreshHeadMs <= 0 || Date.now() - this.lastRefresh < this.o.refreshHeadMs) return;
    this.lastRefresh = Date.now();
    try {
      await this.o.derive.refreshHead(this.network, this.cursorBlock);
    } catch (e) {
      this.o.logger.warn(`${this.network}: head refresh failed: ${(e as Error).message}`);
    }
  }

  /** Shortens the rollback journals once a minute: below two finality depths only the latest pool state matters. */
  private async pruneIfDue(): Promise<void> {
    if (Date.now() - this.lastPrune < 60_000 || !this.lease.held) return;
    this.lastPrune = Date.now();
    const before = this.cursorBlock - 2 * this.o.cfg.finalityDepth;
    if (before <= 0) return;
    await prunePoolHistory(this.q, this.network, before);
    await pruneTickDeltas(this.q, this.network, before);
  }

  private async pause(ms: number): Promise<void> {
    if (this.stopped) return;
    await Promise.race([sleep(ms), new Promise<void>((r) => (this.wake = r))]);
    this.wake = undefined;
  }
}
