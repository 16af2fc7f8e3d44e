/**
 * A row of `index_cursors` (one a network) as pg returns it (bigint as strings), shared by its writer
 * (indexer) and the readers of the indexed head (quote's liquidity graph). A reader types the
 * columns it selects as a Pick of it.
 */
export interface IndexCursorTableRow {
  network: string;
  block_number: string;
  block_hash: string;
  finalized_block: string;
  backfill_target: string | null;
  updated_at: Date;
  published_seq: string;
  published_finalized: string;
  reorg_epoch: number;
  balances_block: string | null;
  ahead_of_chain: boolean;
  finalized_hash: string | null;
  finalized_time: Date | null;
}
