import { AdaptiveRange } from '@tokensvc/chain';
import { ADAPTERS } from '../adapters';
import { LogDecoder } from '../decode/log-decoder';
import type { TokenSeed } from '../model/registry.types';
import { CpuGate, TimeSlice } from '../model/time-slice';
import type { ContractRegistry } from '../registry/contract-registry';
import type { IndexerChainReader } from '../rpc/logs-reader';
import type { BalanceWrite } from '../store/balance-deltas';
import type { Cursor } from '../store/cursor.repo';
import { BatchBuilder, platformNames, type BatchDraft, type BuiltBatch } from './batch-builder';
import { writeBatch } from './batch-writer';
import type { HeldBalances } from './held-balances';
import type { NetworkIndexerOptions } from './network-indexer-options';
import type { NetworkLease } from './network-lease';
import { RangePrefetcher, type FetchedRange } from './range-prefetcher';

const noop = (): void => undefined;

/** A reorg was detected at the batch boundary: repair before going on. */
export class ReorgDetected extends Error {}

/** What a sync pass starts from: the indexer's state as loaded from Postgres. */
export interface SyncStart {
  cursor: Cursor;
  registry: ContractRegistry;
  pendingSeeds: TokenSeed[];
}

/** What the write path reads from and reports to its network's indexer. */
export interface BatchSyncHost {
  readonly lease: NetworkLease;
  readonly held: HeldBalances;
  stopped(): boolean;
  /** the node's latest block as last seen */
  head(): number;
  /** a batch was committed (cursor, metrics, progress) */
  committed(built: BuiltBatch, finalizedBlock: number, balances: BalanceWrite | null, started: bigint): void;
}

/**
 * One network's write path: ranges read ahead of the writer and decoded into batches, written in
 * order (one write in flight, at most one more prepared and waiting).
 */
export class BatchSync {
  private readonly range: AdaptiveRange;
  private readonly decoder: LogDecoder;
  private readonly builder: BatchBuilder;
  /** the write path's CPU phases go before decoding and reading ahead */
  private readonly gate = new CpuGate();

  constructor(
    private readonly o: NetworkIndexerOptions,
    private readonly reader: IndexerChainReader,
    private readonly host: BatchSyncHost,
  ) {
    this.range = new AdaptiveRange({ max: o.cfg.maxLogRange, targetLogs: o.targetLogsPerRange, initial: o.initialLogRange ?? 10 });
    this.decoder = new LogDecoder(Object.values(ADAPTERS));
    this.builder = new BatchBuilder(this.reader, this.decoder, this.range, platformNames(o.platforms));
  }

  /**
   * Indexes (cursor, target] range by range; throws ReorgDetected at a broken parent link. The
   * next range is decoded while the previous one is being written (one write in flight).
   */
  async run(start: SyncStart, target: number): Promise<void> {
    const { registry, pendingSeeds } = start;
    const prefetcher = new RangePrefetcher(this.reader, registry, this.decoder.topics, this.range, {
      from: start.cursor.blockNumber + 1,
      to: target,
      depth: this.o.prefetch,
      rangesPerBatch: this.o.rangesPerBatch ?? 1,
      denseFrom: target - this.o.cfg.finalityDepth,
      lookahead: { topics: this.decoder.discoveryTopics, addressesIn: (logs) => this.decoder.discoveredAddresses(logs, registry) },
    });
    let tipHash = start.cursor.blockHash;
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
      // Its balance changes are summed straight into the held ones (HeldBalances.take then decides
      // whether they are written with it).
      const built = await this.gate.hold(() => d.finish(new TimeSlice(), this.host.held.deltas));
      const balances = this.host.held.take(built, target, this.host.stopped());
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
      const w = previous.then(() =>
        this.commit(built, target, balances, since, { foreground: this.gate, precomputed, onComputed: computed }),
      );
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
      while (!this.host.stopped() && !failure) {
        // A lost lease stops reading ahead (the writes in flight fail at their fence).
        this.host.lease.check();
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
          if (
            (await Promise.race([
              next.then(
                () => 'range',
                () => 'range',
              ),
              allWritten.then(() => 'idle'),
            ])) === 'idle'
          )
            continue;
        }
        const fr = await next;
        next = undefined;
        if (!fr) break;
        if (tipHash !== '' && fr.headers.get(fr.from)!.parentHash !== tipHash) throw new ReorgDetected();
        if (!draft) {
          draft = this.builder.begin(registry, pendingSeeds, this.gate);
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

  private async commit(
    built: BuiltBatch,
    target: number,
    balances: BalanceWrite | null,
    started: bigint,
    apply: Parameters<typeof writeBatch>[4],
  ): Promise<void> {
    const finalizedBlock = Math.max(0, Math.min(built.to, this.host.head() - this.o.cfg.finalityDepth));
    const { lease } = this.host;
    await writeBatch(
      this.o.pool,
      this.o.derive,
      built,
      { holder: lease.holder, leaseTtlMs: lease.ttlMs, finalizedBlock, backfillTarget: target, balances },
      apply,
    );
    this.host.committed(built, finalizedBlock, balances, started);
  }
}
