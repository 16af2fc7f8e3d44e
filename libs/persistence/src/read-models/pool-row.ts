export type { PoolDescription } from '@tokensvc/domain';
import type { PoolDescription } from '@tokensvc/domain';

/**
 * A row of the `pools` read model as pg returns it (numeric(78,0) and bigint as strings), shared by
 * its writer (indexer), its publisher and its reader (quote's liquidity graph).
 */
export interface PoolTableRow extends PoolDescription {
  tick_spacing: number | null;
  reserve0: string;
  reserve1: string;
  sqrt_price_x96: string | null;
  liquidity: string | null;
  tick: number | null;
  block_number: string;
  log_index: number;
}

/** The columns of PoolTableRow, for SELECT lists. */
export const POOL_TABLE_COLUMNS =
  'address, platform, family, token0, token1, fee, tick_spacing, reserve0, reserve1, sqrt_price_x96, liquidity, tick, block_number, log_index';
