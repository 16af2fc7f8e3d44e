import type { Network } from '@tokensvc/domain';
import type { DecodedBatch } from './decoded-batch';

/** The open database transaction of one batch (or one reorg rollback). */
export interface SqlTx {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

/**
 * What the ingest pipeline calls after writing its own rows, inside the same transaction, so raw
 * and derived rows commit (or roll back) together.
 */
export interface DerivationStage {
  /** derive price points, candles, activities and token state from one decoded batch */
  applyBatch(tx: SqlTx, batch: DecodedBatch): Promise<void>;
  /**
   * after a reorg, once the pipeline has deleted its rows above `ancestor`: delete derived rows
   * above it and recompute what spans it (candles of the affected buckets, token state)
   */
  rollback(tx: SqlTx, network: Network, ancestor: number): Promise<void>;
  /** at the head, outside batches: refresh state that only eth_call can give (share prices, rates) */
  refreshHead(network: Network, blockNumber: number): Promise<void>;
}

export const DERIVATION_STAGE = Symbol('DERIVATION_STAGE');
