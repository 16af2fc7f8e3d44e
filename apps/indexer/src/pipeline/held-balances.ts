import type { Pool } from 'pg';
import type { Network } from '@tokensvc/domain';
import { BalanceDeltas, type BalanceWrite } from '../store/balance-deltas';
import type { Cursor } from '../store/cursor.repo';
import { fenceWriteTx, LeaseLostError } from '../store/lease.repo';
import { inTransaction, poolQuery } from '../store/sql-tx';
import { catchUpBalances, hasBalances } from '../store/transfers.repo';
import type { BuiltBatch } from './batch-builder';

/**
 * Balance changes of written batches not in the balances yet. During a backfill they are held
 * back in memory and written with a later batch (see take).
 */
export class HeldBalances {
  /** the changes held (batches are finished into it) */
  deltas = new BalanceDeltas();
  /** the network has no balance rows yet, nor a batch on its way that writes some: the next balance write is a COPY */
  private fresh = false;
  private readonly q: ReturnType<typeof poolQuery>;

  constructor(
    private readonly pool: Pool,
    private readonly network: Network,
    private readonly maxPairs: number,
  ) {
    this.q = poolQuery(pool);
  }

  /**
   * (Re)loading from Postgres: the held changes start empty, and the stored balances catch up with
   * the cursor. Returns the cursor with balancesBlock cleared when they had to.
   */
  async reload(cursor: Cursor, holder: string, log: (msg: string) => void): Promise<Cursor> {
    this.deltas = new BalanceDeltas();
    if (cursor.balancesBlock !== null) {
      // Balance changes held in memory were lost (a stop or crash during a backfill, or a failed batch).
      await inTransaction(this.pool, async (tx) => {
        if (!(await fenceWriteTx(tx, this.network, holder))) throw new LeaseLostError(`${this.network}: lease lost to another replica`);
        await catchUpBalances(tx, this.network);
      });
      log(`${this.network}: balances caught up from block ${cursor.balancesBlock} to the cursor (${cursor.blockNumber})`);
      cursor = { ...cursor, balancesBlock: null };
    }
    this.fresh = !(await hasBalances(this.q, this.network));
    return cursor;
  }

  /**
   * The balance changes written with a batch (WriteOptions.balances). During a backfill they are
   * held back in memory and written with a later batch: the one that reaches the target, the last
   * one before a stop, or the one that brings them to `heldBalancePairs` (token, holder) pairs.
   * Every holder's row is then upserted once per backfill, not once per batch. Called in batch
   * order, right after the batch was finished into `deltas` (so a batch's changes are never
   * copied from a map of its own). A batch that fails takes them with it: init() folds the stored
   * transfers in instead.
   */
  take(built: BuiltBatch, target: number, stopped: boolean): BalanceWrite | null {
    if (built.transfers.deltas !== this.deltas) throw new Error('batch balance changes were not summed into the held ones');
    if (built.to < target && !stopped && this.deltas.size < this.maxPairs) return null;
    const write = this.deltas.write(this.network, this.fresh);
    // The batches after this one find its rows (if it fails, init() looks again).
    if (write.rows > 0) this.fresh = false;
    this.deltas = new BalanceDeltas();
    return write;
  }
}
