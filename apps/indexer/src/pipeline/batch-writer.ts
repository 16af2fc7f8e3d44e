import type { Pool } from 'pg';
import { insertBlocks } from '../store/blocks.repo';
import { moveCursor } from '../store/cursor.repo';
import { renewLease } from '../store/lease.repo';
import { insertPoolHistory, insertPools, updatePoolStates } from '../store/pools.repo';
import { inTransaction } from '../store/sql-tx';
import { applyTickDeltas } from '../store/ticks.repo';
import { insertTokens } from '../store/tokens.repo';
import { insertTransfersAndBalances } from '../store/transfers.repo';
import type { BuiltBatch } from './batch-builder';
import type { DerivationStage } from './derivation.port';

/** Another replica holds the network's lease now: this one must stop writing. */
export class LeaseLostError extends Error {}

export interface WriteOptions {
  holder: string;
  leaseTtlMs: number;
  /** highest block older than the finality depth */
  finalizedBlock: number;
  backfillTarget: number | null;
}

/**
 * Writes one batch in one transaction: lease check (fencing), blocks, new tokens and pools,
 * transfers + balances, pool states (+ journal), V3 ticks, the derivation stage, then the cursor.
 * A crash anywhere leaves the previous batch's cursor: the batch is redone, never half-applied.
 */
export async function writeBatch(pool: Pool, derive: DerivationStage, b: BuiltBatch, opts: WriteOptions): Promise<void> {
  const network = b.network;
  await inTransaction(pool, async (tx) => {
    // Durability of the last batches is traded for throughput: after a Postgres crash the cursor
    // is lost together with the rows it covers, and those batches are simply indexed again.
    await tx.query('SET LOCAL synchronous_commit TO OFF');
    if (!(await renewLease(tx, network, opts.holder, opts.leaseTtlMs))) throw new LeaseLostError(`${network}: lease lost to another replica`);
    await insertBlocks(tx, network, b.headers);
    await insertTokens(tx, b.newTokens);
    await insertPools(tx, network, b.newPools);
    await insertTransfersAndBalances(tx, network, b.acc.transfers);
    await updatePoolStates(tx, network, b.changedPools);
    await insertPoolHistory(tx, network, b.acc.historyEntries());
    await applyTickDeltas(tx, network, [...b.acc.tickDeltas.values()]);
    await derive.applyBatch(tx, b.decoded);
    await moveCursor(tx, network, b.to, b.toHash, opts.finalizedBlock, opts.backfillTarget);
  });
}
