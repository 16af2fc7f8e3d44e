import type { Pool } from 'pg';
import { AdaptiveRange, ChainReader, JsonRpcClient, sleep, type PlatformDefinition } from '@tokensvc/chain';
import type { Network } from '@tokensvc/domain';
import { ADAPTERS } from '../adapters';
import type { NetworkIndexingConfig } from '../config/indexer-config';
import { LogDecoder } from '../decode/log-decoder';
import { METRICS } from '../metrics';
import { findCommonAncestor } from '../reorg/common-ancestor';
import { rollbackTo } from '../reorg/rollback';
import type { ContractRegistry } from '../registry/contract-registry';
import { loadRegistry } from '../registry/registry-loader';
import type { TokenSeed } from '../registry/registry.types';
import { ensureCursor, type Cursor } from '../store/cursor.repo';
import { prunePoolHistory } from '../store/pools.repo';
import { poolQuery } from '../store/sql-tx';
import { pruneTickDeltas } from '../store/ticks.repo';
import { BatchBuilder, type BuiltBatch } from './batch-builder';
import { LeaseLostError, writeBatch } from './batch-writer';
import { NetworkLease } from './network-lease';
import type { DerivationStage } from './derivation.port';
import { ChainMovedError, RangePrefetcher } from './range-prefetcher';

export interface IndexerLogger {
  log(message: unknown): void;
  warn(message: unknown): void;
  error(message: unknown): void;
}

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
  /** eth_getLogs ranges per written batch. Default 1 */
  rangesPerBatch?: number;
  readyLagBlocks: number;
  rpcTimeoutMs: number;
  /** how often (at most) the derivation stage's refreshHead runs once caught up; 0 = never */
  refreshHeadMs: number;
  logger: IndexerLogger;
  /** called after each commit (and rollback): the publisher's cue */
  onCommitted?: (network: Network) => void;
}

/** A reorg was detected at the batch boundary: repair before going on. */
class ReorgDetected extends Error {}

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
  private lastPrune = 0;
  private lastRefresh = 0;
  private readonly reader: ChainReader;
  private readonly range: AdaptiveRange;
  private readonly decoder: LogDecoder;
  private readonly builder: BatchBuilder;
  private readonly q: ReturnType<typeof poolQuery>;
  private readonly lease: NetworkLease;

  constructor(private readonly o: NetworkIndexerOptions) {
    this.network = o.cfg.network;
    const client = new JsonRpcClient(o.cfg.rpcUrl, {
      timeoutMs: o.rpcTimeoutMs,
      onRetry: (method, e) => {
        METRICS.rpcRetries.inc({ network: this.network, method });
        o.logger.warn(`${this.network}: retrying ${method}: ${(e as Error).message}`);
      },
    });
    this.reader = new ChainReader(client);
    this.range = new AdaptiveRange({ max: o.cfg.maxLogRange, targetLogs: o.targetLogsPerRange, initial: o.initialLogRange ?? 10 });
    this.decoder = new LogDecoder(Object.values(ADAPTERS));
    this.builder = new BatchBuilder(this.reader, this.decoder, this.range);
    this.q = poolQuery(o.pool);
    this.lease = new NetworkLease(this.q, this.network, o.instanceId, o.leaseTtlMs, o.logger, () => this.wake?.());
  }

  get cursorBlock(): number {
    return this.cursor?.blockNumber ?? -1;
  }

  /** caught up within the readiness lag */
  get ready(): boolean {
    return this.cursor !== undefined && this.head >= 0 && this.head - this.cursor.blockNumber <= this.o.readyLagBlocks;
  }

  start(): void {
    this.running ??= this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.running;
    await this.lease.release();
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      try {
        if (!(await this.lease.acquire(() => this.stopped, (ms) => this.pause(ms)))) break;
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

  /** (Re)loads the cursor and the registry from Postgres. */
  private async init(): Promise<void> {
    this.cursor = await ensureCursor(this.q, this.network, this.o.cfg.startBlock);
    const loaded = await loadRegistry(this.q, this.reader.client, this.network, this.o.platforms, this.o.cfg.listedTokens);
    this.registry = loaded.registry;
    this.pendingSeeds = loaded.pendingSeeds;
    METRICS.cursor.set({ network: this.network }, this.cursor.blockNumber);
    this.o.onCommitted?.(this.network);
  }

  private async follow(): Promise<void> {
    while (!this.stopped) {
      this.lease.check();
      const latest = await this.reader.latestHeader();
      this.setHead(latest.number);
      const cursor = this.cursor!;
      if (cursor.blockNumber < latest.number) {
        try {
          await this.sync(latest.number);
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
      if (latest.number < cursor.blockNumber && (await this.tipReplaced(latest.number, latest.hash))) {
        await this.repairReorg();
        continue;
      }
      this.markCaughtUp();
      this.lease.check();
      await this.refreshHeadIfDue();
      await this.pruneIfDue();
      await this.pause(this.o.cfg.pollMs);
    }
  }

  /** The node is behind our cursor: a shorter reorged chain, or just a lagging node? */
  private async tipReplaced(height: number, hash: string): Promise<boolean> {
    const [row] = await this.q.query<{ hash: string }>(`SELECT hash FROM blocks WHERE network = $1 AND number = $2`, [this.network, height]);
    return row !== undefined && row.hash !== hash;
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
    });
    let tipHash = this.cursor!.blockHash;
    let writing: Promise<void> | undefined;
    try {
      while (!this.stopped) {
        const fr = await prefetcher.next();
        if (!fr) break;
        if (tipHash !== '' && fr.headers.get(fr.from)!.parentHash !== tipHash) throw new ReorgDetected();
        const started = process.hrtime.bigint();
        const built = await this.builder.build(fr, this.registry!, this.pendingSeeds);
        await writing;
        tipHash = built.toHash;
        writing = this.commit(built, target, started);
        // Awaited on the next round (or below); this only marks it handled meanwhile.
        writing.catch(() => undefined);
      }
    } finally {
      await writing;
    }
  }

  private async commit(built: BuiltBatch, target: number, started: bigint): Promise<void> {
    const finalizedBlock = Math.max(0, Math.min(built.to, this.head - this.o.cfg.finalityDepth));
    await writeBatch(this.o.pool, this.o.derive, built, { holder: this.lease.holder, leaseTtlMs: this.lease.ttlMs, finalizedBlock, backfillTarget: target });
    this.cursor = { ...this.cursor!, blockNumber: built.to, blockHash: built.toHash, finalizedBlock };
    const labels = { network: this.network };
    METRICS.batchSeconds.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    METRICS.blocks.inc(labels, built.to - built.from + 1);
    METRICS.logs.inc(labels, built.logCount);
    if (built.malformed > 0) METRICS.malformedLogs.inc(labels, built.malformed);
    METRICS.cursor.set(labels, built.to);
    METRICS.headLag.set(labels, Math.max(0, this.head - built.to));
    this.o.onCommitted?.(this.network);
    if (built.to >= this.head) this.markCaughtUp();
    else if (this.head - built.to > this.o.readyLagBlocks) this.caughtUp = false;
  }

  private async repairReorg(): Promise<void> {
    const cursor = this.cursor!;
    const found = await findCommonAncestor(this.q, this.reader, this.network, cursor.blockNumber);
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
    await this.init();
  }

  private markCaughtUp(): void {
    const labels = { network: this.network };
    METRICS.headLag.set(labels, Math.max(0, this.head - this.cursorBlock));
    if (this.caughtUp || this.cursorBlock < this.head) return;
    this.caughtUp = true;
    this.o.logger.log({ msg: 'caught up', network: this.network, block: this.cursorBlock, head: this.head });
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
    if (Date.now() - this.lastPrune < 60_000) return;
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
