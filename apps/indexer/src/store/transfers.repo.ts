import { ZERO_ADDRESS, type Network } from '@tokensvc/domain';
import type { TransferEvent } from '../pipeline/decoded-batch';
import type { SqlTx } from '../pipeline/derivation.port';
import { SLICE_CHECK_EVERY, type TimeSlice } from '../pipeline/time-slice';
import { BalanceDeltas, type BalanceArrays } from './balance-deltas';
import { CopyWriter } from './copy-in';
import type { PgTx } from './sql-tx';

/** A batch's transfers as a COPY payload and their net balance changes, built before the transaction. */
export interface PreparedTransfers {
  count: number;
  copy: Buffer[];
  deltas: BalanceDeltas;
}

/**
 * Builds the transfers' COPY payload (unless the decoder built it: `built`) and sums their net
 * balance changes per (token, holder). Pure CPU: done while the previous batch is being written,
 * in time slices.
 */
export async function prepareTransfers(network: Network, transfers: readonly TransferEvent[], slice: TimeSlice, built?: { rows: number; payload: Buffer[] }): Promise<PreparedTransfers> {
  if (built && built.rows !== transfers.length) throw new Error(`transfers COPY payload has ${built.rows} rows for ${transfers.length} transfers`);
  const payload = built ? undefined : new CopyWriter();
  const deltas = new BalanceDeltas();
  for (let i = 0; i < transfers.length; i++) {
    const t = transfers[i]!;
    // Hashes repeat for a transaction's transfers, the network always, tokens often.
    payload?.plainRepeating(0, network).plain(t.blockNumber).plain(t.logIndex).plainRepeating(1, t.txHash).plainRepeating(2, t.token).plain(t.from).plain(t.to).plain(t.value).endRow();
    deltas.transfer(t.token, t.from, t.to, t.value, t.blockNumber);
    if (i % SLICE_CHECK_EVERY === 0) await slice.maybeYield();
  }
  await slice.maybeYield();
  return { count: transfers.length, copy: payload ? payload.finish() : built!.payload, deltas };
}

/** Inserts a batch's transfers (COPY; a position already stored is an error, never skipped: it would mean the batch was applied twice). */
export function copyTransfers(tx: PgTx, p: PreparedTransfers): Promise<void> {
  if (p.count === 0) return Promise.resolve();
  return tx.copy(`COPY transfers (network, block_number, log_index, tx_hash, token, from_address, to_address, value) FROM STDIN`, p.copy).then((n) => {
    if (n !== p.count) throw new Error(`COPY stored ${n} of ${p.count} transfers`);
  });
}

/** Adds net balance changes to the balances, in one upsert. */
export function upsertBalances(tx: SqlTx, network: Network, b: BalanceArrays): Promise<unknown> {
  if (b.rows === 0) return Promise.resolve();
  return tx.query(
    `INSERT INTO balances (network, token, holder, balance, block_number)
     SELECT $1, t, h, v, b FROM unnest($2::text[], $3::text[], $4::numeric[], $5::bigint[]) AS x(t, h, v, b)
     ON CONFLICT (network, token, holder) DO UPDATE SET balance = balances.balance + EXCLUDED.balance, block_number = EXCLUDED.block_number`,
    [network, b.tokens, b.holders, b.deltas, b.blocks],
  );
}

/**
 * Folds the stored transfers the balances do not hold yet (above `index_cursors.balances_block`,
 * up to the cursor: batches whose balance changes were still in memory when the process stopped
 * or a batch failed) into the balances, in Postgres, and marks them up to date. Run in a
 * transaction that holds the network's lease.
 */
export async function catchUpBalances(tx: SqlTx, network: Network): Promise<void> {
  await tx.query(
    `WITH c AS (SELECT balances_block AS since, block_number AS upto FROM index_cursors WHERE network = $1 AND balances_block IS NOT NULL),
     d AS (
       SELECT t.token, t.to_address AS holder, t.value AS delta, t.block_number FROM transfers t, c
       WHERE t.network = $1 AND t.block_number > c.since AND t.block_number <= c.upto AND t.to_address <> $2
       UNION ALL
       SELECT t.token, t.from_address, -t.value, t.block_number FROM transfers t, c
       WHERE t.network = $1 AND t.block_number > c.since AND t.block_number <= c.upto AND t.from_address <> $2
     )
     INSERT INTO balances (network, token, holder, balance, block_number)
     SELECT $1, token, holder, sum(delta), max(block_number) FROM d GROUP BY token, holder
     ON CONFLICT (network, token, holder) DO UPDATE SET balance = balances.balance + EXCLUDED.balance, block_number = EXCLUDED.block_number`,
    [network, ZERO_ADDRESS],
  );
  await tx.query(`UPDATE index_cursors SET balances_block = NULL WHERE network = $1 AND balances_block IS NOT NULL`, [network]);
}

/**
 * Rollback: deletes transfers above the ancestor and takes their deltas out of the balances; a
 * balance row keeps the block of its last remaining transfer, and disappears when none is left.
 */
export async function revertTransfersAbove(tx: SqlTx, network: Network, ancestor: number): Promise<void> {
  await tx.query(
    `WITH del AS (
       DELETE FROM transfers WHERE network = $1 AND block_number > $2 RETURNING token, from_address, to_address, value
     ), d AS (
       SELECT token, from_address AS holder, value AS delta FROM del WHERE from_address <> $3
       UNION ALL
       SELECT token, to_address, -value FROM del WHERE to_address <> $3
     ), s AS (SELECT token, holder, sum(delta) AS delta FROM d GROUP BY token, holder)
     UPDATE balances b SET balance = b.balance + s.delta FROM s WHERE b.network = $1 AND b.token = s.token AND b.holder = s.holder`,
    [network, ancestor, ZERO_ADDRESS],
  );
  await tx.query(
    `UPDATE balances b SET block_number = coalesce((
       SELECT t.block_number FROM transfers t
       WHERE t.network = b.network AND t.token = b.token AND (t.from_address = b.holder OR t.to_address = b.holder)
       ORDER BY t.block_number DESC LIMIT 1), -1)
     WHERE b.network = $1 AND b.block_number > $2`,
    [network, ancestor],
  );
  await tx.query(`DELETE FROM balances WHERE network = $1 AND block_number = -1`, [network]);
}
