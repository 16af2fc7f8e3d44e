import type { Network } from '@tokensvc/domain';
import type { IndexCursorTableRow } from '@tokensvc/persistence';
import type { SqlTx } from '../model/sql-tx';

/** Where a network's indexing stands: the last block fully written, and what is published. */
export interface Cursor {
  blockNumber: number;
  /** '' before the first batch */
  blockHash: string;
  finalizedBlock: number;
  publishedSeq: bigint;
  publishedFinalized: number;
  /** rollbacks so far (part of published message ids) */
  reorgEpoch: number;
  /** null: the balances hold every stored transfer; else only those up to this block (see catchUpBalances) */
  balancesBlock: number | null;
  /** index_cursors.ahead_of_chain: the data holds blocks the node's chain does not have (until the rollback commits) */
  aheadOfChain: boolean;
}

type CursorRow = Pick<
  IndexCursorTableRow,
  | 'block_number'
  | 'block_hash'
  | 'finalized_block'
  | 'published_seq'
  | 'published_finalized'
  | 'reorg_epoch'
  | 'balances_block'
  | 'ahead_of_chain'
>;

export async function readCursor(q: SqlTx, network: Network): Promise<Cursor | undefined> {
  const [r] = await q.query<CursorRow>(
    `SELECT block_number, block_hash, finalized_block, published_seq, published_finalized, reorg_epoch, balances_block, ahead_of_chain FROM index_cursors WHERE network = $1`,
    [network],
  );
  if (!r) return undefined;
  return {
    blockNumber: Number(r.block_number),
    blockHash: r.block_hash,
    finalizedBlock: Number(r.finalized_block),
    publishedSeq: BigInt(r.published_seq),
    publishedFinalized: Number(r.published_finalized),
    reorgEpoch: r.reorg_epoch,
    balancesBlock: r.balances_block === null ? null : Number(r.balances_block),
    aheadOfChain: r.ahead_of_chain,
  };
}

/** Creates the cursor just before `startBlock` unless the network already has one; returns it. */
export async function ensureCursor(q: SqlTx, network: Network, startBlock: number): Promise<Cursor> {
  await q.query(`INSERT INTO index_cursors (network, block_number, block_hash) VALUES ($1, $2, '') ON CONFLICT (network) DO NOTHING`, [
    network,
    startBlock - 1,
  ]);
  return (await readCursor(q, network))!;
}

/**
 * `balancesUpToDate`: the batch brought the balances up to its end (else they stay where they were: balances_block).
 * The finalized block's hash and time come from `blocks` (the batch stored its headers first, in the same transaction).
 */
export async function moveCursor(
  tx: SqlTx,
  network: Network,
  blockNumber: number,
  blockHash: string,
  finalizedBlock: number,
  backfillTarget: number | null,
  balancesUpToDate = true,
): Promise<void> {
  await tx.query(
    `UPDATE index_cursors SET block_number = $2, block_hash = $3, finalized_block = LEAST($4::bigint, $2::bigint), backfill_target = $5,
       finalized_hash = (SELECT hash FROM blocks WHERE network = $1 AND number = LEAST($4::bigint, $2::bigint)),
       finalized_time = (SELECT time FROM blocks WHERE network = $1 AND number = LEAST($4::bigint, $2::bigint)),
       balances_block = CASE WHEN $6::boolean THEN NULL ELSE coalesce(balances_block, block_number) END, ahead_of_chain = false, updated_at = now() WHERE network = $1`,
    [network, blockNumber, blockHash, finalizedBlock, backfillTarget, balancesUpToDate],
  );
}

/** After a rollback: the cursor goes back to the ancestor and nothing above it counts as final; the data is the chain's again. */
export async function rewindCursor(tx: SqlTx, network: Network, ancestor: number, hash: string): Promise<void> {
  await tx.query(
    `UPDATE index_cursors SET block_number = $2, block_hash = $3, finalized_block = LEAST(finalized_block, $2), published_finalized = LEAST(published_finalized, $2),
       finalized_hash = CASE WHEN finalized_block > $2 THEN $3 ELSE finalized_hash END,
       finalized_time = CASE WHEN finalized_block > $2 THEN (SELECT time FROM blocks WHERE network = $1 AND number = $2) ELSE finalized_time END,
       reorg_epoch = reorg_epoch + 1, ahead_of_chain = false, updated_at = now() WHERE network = $1`,
    [network, ancestor, hash],
  );
}

/**
 * Says (in index_cursors, which the gateway's readiness reads) that the network's data is ahead of
 * the chain its node serves, or no longer is. A rollback (rewindCursor) and a batch (moveCursor)
 * clear it in their own transaction.
 */
export async function markAheadOfChain(q: SqlTx, network: Network, ahead: boolean): Promise<void> {
  await q.query(`UPDATE index_cursors SET ahead_of_chain = $2 WHERE network = $1`, [network, ahead]);
}

export async function markPublished(q: SqlTx, network: Network, seq: bigint, finalized: number): Promise<void> {
  await q.query(
    `UPDATE index_cursors SET published_seq = GREATEST(published_seq, $2::bigint), published_finalized = GREATEST(published_finalized, $3::bigint) WHERE network = $1`,
    [network, seq.toString(), finalized],
  );
}
