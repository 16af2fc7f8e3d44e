import type { Network } from '@tokensvc/domain';
import type { DecodedBatch } from './decoded-batch';
import type { SqlTx } from './sql-tx';
import type { CpuGate } from './time-slice';

/**
 * What the ingest pipeline calls after writing its own rows, inside the same transaction, so raw
 * and derived rows commit (or roll back) together.
 */
export interface DerivationStage {
  /** derive price points, candles, activities and token state from one decoded batch */
  applyBatch(tx: SqlTx, batch: DecodedBatch, opts?: ApplyOptions): Promise<void>;
  /**
   * The CPU phase of `batch` (deriving it, building its payloads) before its transaction, while
   * the previous batch is being written; undefined when it needs the database (a working set to
   * load, tokens or pools it does not know) and applyBatch does it in the transaction. Call it in
   * batch order, once the previous batch's CPU phase is done.
   */
  precompute?(batch: DecodedBatch): Promise<PrecomputedBatch | undefined>;
  /**
   * after a reorg, once the pipeline has deleted its rows above `ancestor`: delete derived rows
   * above it and recompute what spans it (candles of the affected buckets, token state)
   */
  rollback(tx: SqlTx, network: Network, ancestor: number): Promise<void>;
  /** at the head, outside batches: refresh state that only eth_call can give (share prices, rates) */
  refreshHead(network: Network, blockNumber: number): Promise<void>;
}

/** What `precompute` did for a batch ahead of its transaction (opaque to the pipeline). */
export interface PrecomputedBatch {
  readonly batch: DecodedBatch;
}

export interface ApplyOptions {
  /** held during the stage's CPU phases: the pipeline's background work waits meanwhile */
  foreground?: CpuGate;
  /** the batch's CPU phase, done ahead by `precompute` */
  precomputed?: PrecomputedBatch;
  /** called once the batch's CPU phase is done (at once when precomputed): the next batch may be precomputed */
  onComputed?: () => void;
  /**
   * more batches follow right away (a backfill): figures computed "as of the latest block" over
   * all tokens (volumes, paid metrics) may wait for a later batch; the stage still refreshes them
   * at least every `metricsEveryMs`, and always on a batch without this flag
   */
  backfilling?: boolean;
}

export const DERIVATION_STAGE = Symbol('DERIVATION_STAGE');
