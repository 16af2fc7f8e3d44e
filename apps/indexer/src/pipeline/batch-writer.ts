import type { Pool } from 'pg';
import type { ApplyOptions, DerivationStage } from '../model/derivation.port';
import { insertBlocks } from '../store/blocks.repo';
import { moveCursor } from '../store/cursor.repo';
import { cursorStillAt, fenceWriteTx, LeaseLostError } from '../store/lease.repo';
import { insertPoolHistory, insertPools, updatePoolStates } from '../store/pools.repo';
import { inTransaction } from '../store/sql-tx';
import { applyTickDeltas } from '../store/ticks.repo';
import { insertTokens } from '../store/tokens.repo';
import type { BalanceWrite } from '../store/balance-deltas';
import { copyTransfers, writeBalances } from '../store/transfers.repo';
import type { BuiltBatch } from './batch-builder';

export interface WriteOptions {
  holder: string;
  leaseTtlMs: number;
  /** highest block older than the finality depth */
  finalizedBlock: number;
  backfillTarget: number | null;
  /**
   * The balance changes written with this batch: by default its own; during a backfill, its own
   * and those held back from the batches before it (the balances are then up to date at its end),
   * or null to hold this batch's back as well (the balances stay behind the cursor; see
   * catchUpBalances).
   */
  balances?: BalanceWrite | null;
}

/**
 * Writes one batch in one transaction: lease check (fencing), blocks, new tokens and pools,
 * transfers (+ balances), pool states (+ journal), V3 ticks, the derivation stage, then the cursor.
 * A crash anywhere leaves the previous batch's cursor: the batch is redone, never half-applied.
 *
 * The ingest statements are queued at once (they run in this order on the transaction's
 * connection) and the derivation computes while Postgres works through them (unless it did so
 * ahead, see DerivationStage.precompute); its own statements queue behind them. Nothing commits
 * unless every statement succeeded and the lease was still ours.
 */
export async function writeBatch(
  pool: Pool,
  derive: DerivationStage,
  b: BuiltBatch,
  opts: WriteOptions,
  apply: Pick<ApplyOptions, 'foreground' | 'precomputed' | 'onComputed'> = {},
): Promise<void> {
  const network = b.network;
  await inTransaction(pool, async (tx) => {
    const queued: Array<Promise<unknown>> = [];
    const queue = (p: Promise<unknown>): void => {
      // Observed here, reported by inTransaction (the first failure, in statement order).
      p.catch(() => undefined);
      queued.push(p);
    };
    // Durability of the last batches is traded for throughput: after a Postgres crash the cursor
    // is lost together with the rows it covers, and those batches are simply indexed again.
    queue(tx.query('SET LOCAL synchronous_commit TO OFF'));
    // Fencing: the lease is ours and stays so until commit; a replica that lost it writes nothing.
    queue(
      fenceWriteTx(tx, network, opts.holder).then((held) => {
        if (!held) tx.abort(new LeaseLostError(`${network}: lease lost to another replica`));
      }),
    );
    // And a compare-and-set on the cursor: the batch applies only on top of the block it follows.
    queue(
      cursorStillAt(tx, network, b.from - 1).then((at) => {
        if (!at) tx.abort(new LeaseLostError(`${network}: the cursor is no longer at block ${b.from - 1}: another writer moved it`));
      }),
    );
    queue(insertBlocks(tx, network, b.headers));
    queue(insertTokens(tx, b.newTokens));
    queue(insertPools(tx, network, b.newPools));
    queue(copyTransfers(tx, b.transfers));
    const balances = opts.balances === undefined ? b.transfers.deltas.write(network, false) : opts.balances;
    if (balances) queue(writeBalances(tx, network, balances));
    queue(updatePoolStates(tx, network, b.changedPools));
    queue(insertPoolHistory(tx, network, b.acc.historyEntries()));
    queue(applyTickDeltas(tx, network, [...b.acc.tickDeltas.values()]));
    await derive.applyBatch(tx, b.decoded, { ...apply, backfilling: opts.backfillTarget !== null && b.to < opts.backfillTarget });
    queue(moveCursor(tx, network, b.to, b.toHash, opts.finalizedBlock, opts.backfillTarget, balances !== null));
    await Promise.all(queued);
  });
}
