import type { Pool } from 'pg';
import type { Network } from '@tokensvc/domain';
import type { DerivationStage } from '../model/derivation.port';
import { deleteBlocksAbove } from '../store/blocks.repo';
import { rewindCursor } from '../store/cursor.repo';
import { fenceWriteTx, LeaseLostError } from '../store/lease.repo';
import { rollbackPools } from '../store/pools.repo';
import { inTransaction } from '../store/sql-tx';
import { revertTickDeltasAbove } from '../store/ticks.repo';
import { deleteTokensAbove } from '../store/tokens.repo';
import { catchUpBalances, revertTransfersAbove } from '../store/transfers.repo';

/**
 * Rolls a network back to `ancestor` in one transaction: balances (brought up to the cursor first)
 * lose the deltas of the deleted
 * transfers; blocks, pools created above it, their journals and tokens first seen above it go;
 * the other pools and ticks get their state at the ancestor back; then the derivation stage
 * rolls back its rows, and the cursor moves to the ancestor. Re-applying starts from there.
 */
export async function rollbackTo(
  pool: Pool,
  derive: DerivationStage,
  network: Network,
  ancestor: number,
  ancestorHash: string,
  lease: { holder: string; ttlMs: number },
): Promise<void> {
  await inTransaction(pool, async (tx) => {
    if (!(await fenceWriteTx(tx, network, lease.holder))) throw new LeaseLostError(`${network}: lease lost to another replica`);
    // Balance changes a backfill still held in memory are in the balances first.
    await catchUpBalances(tx, network);
    await revertTransfersAbove(tx, network, ancestor);
    await deleteBlocksAbove(tx, network, ancestor);
    await rollbackPools(tx, network, ancestor);
    await revertTickDeltasAbove(tx, network, ancestor);
    await deleteTokensAbove(tx, network, ancestor);
    await derive.rollback(tx, network, ancestor);
    await rewindCursor(tx, network, ancestor, ancestorHash);
  });
}
