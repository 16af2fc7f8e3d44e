import { ZERO_ADDRESS, type Network } from '@tokensvc/domain';
import type { TransferEvent } from '../model/decoded-batch';
import type { SqlTx } from '../model/sql-tx';
import { SLICE_CHECK_EVERY, type TimeSlice } from '../model/time-slice';
import { BalanceDeltas, PRIOR_BLOCKS, type BalanceArrays, type BalanceWrite } from './balance-deltas';
import { CopyWriter } from './copy-writer';
import type { PgTx } from './sql-tx';

/** A batch's transfers as a COPY payload and their net balance changes, built before the transaction. */
export interface PreparedTransfers {
  count: number;
  copy: Buffer[];
  /** where their balance changes were summed (with earlier batches' when the caller passed its own) */
  deltas: BalanceDeltas;
}

/**
 * Builds the transfers' COPY payload (unless the decoder built it: `built`) and sums their net
 * balance changes per (token, holder) into `deltas` (by default a new BalanceDeltas; the indexer
 * passes the changes it holds from earlier batches, so they are summed in place). Pure CPU: done
 * while the previous batch is being written, in time slices.
 */
export async function prepareTransfers(
  network: Network,
  transfers: readonly TransferEvent[],
  slice: TimeSlice,
  built?: { rows: number; payload: Buffer[] },
  deltas: BalanceDeltas = new BalanceDeltas(),
): Promise<PreparedTransfers> {
  if (built && built.rows !== transfers.length)
    throw new Error(`transfers COPY payload has ${built.rows} rows for ${transfers.length} transfers`);
  const payload = built ? undefined : new CopyWriter();
  for (let i = 0; i < transfers.length; i++) {
    const t = transfers[i]!;
    // Hashes repeat for a transaction's transfers, the network always, tokens often.
    payload
      ?.plainRepeating(0, network)
      .plain(t.blockNumber)
      .plain(t.logIndex)
      .plainRepeating(1, t.txHash)
      .plainRepeating(2, t.token)
      .plain(t.from)
      .plain(t.to)
      .plain(t.value)
      .endRow();
    deltas.transfer(t.token, t.from, t.to, t.value, t.blockNumber);
    if (i % SLICE_CHECK_EVERY === 0) await slice.maybeYield();
  }
  await slice.maybeYield();
  return { count: transfers.length, copy: payload ? payload.finish() : built!.payload, deltas };
}

/** Inserts a batch's transfers (COPY; a position already stored is an error, never skipped: it would mean the batch was applied twice). */
export function copyTransfers(tx: PgTx, p: PreparedTransfers): Promise<void> {
  if (p.count === 0) return Promise.resolve();
  return tx
    .copy(`COPY transfers (network, block_number, log_index, tx_hash, token, from_address, to_address, value) FROM STDIN`, p.copy)
    .then((n) => {
      if (n !== p.count) throw new Error(`COPY stored ${n} of ${p.count} transfers`);
    });
}

/**
 * A row's new change blocks on top of the stored ones (`EXCLUDED`: the later changes, with their
 * own earlier blocks): `prior_blocks` keeps the latest PRIOR_BLOCKS blocks before `block_number`,
 * `prior_all` whether that is every one of them (so a rollback knows when a holder had none left).
 */
const MERGE_BALANCE = `balance = balances.balance + EXCLUDED.balance, block_number = EXCLUDED.block_number,
  prior_blocks = (EXCLUDED.prior_blocks || balances.block_number || balances.prior_blocks)[1:${PRIOR_BLOCKS}],
  prior_all = EXCLUDED.prior_all AND balances.prior_all AND cardinality(EXCLUDED.prior_blocks) + 1 + cardinality(balances.prior_blocks) <= ${PRIOR_BLOCKS}`;

/**
 * Writes net balance changes: one upsert, or, for a network without balance rows, one COPY of
 * new rows (a row that exists after all is an error: the batch fails and is redone with the upsert).
 */
export function writeBalances(tx: PgTx, network: Network, w: BalanceWrite): Promise<unknown> {
  if (w.rows === 0) return Promise.resolve();
  if (w.kind === 'upsert') return upsertBalances(tx, network, w.arrays);
  return tx.copy(`COPY balances (network, token, holder, balance, block_number, prior_blocks, prior_all) FROM STDIN`, w.copy).then((n) => {
    if (n !== w.rows) throw new Error(`COPY stored ${n} of ${w.rows} balances`);
  });
}

/** Whether the network has any balance row (else its first balance write can be a COPY). */
export async function hasBalances(q: SqlTx, network: Network): Promise<boolean> {
  return (await q.query(`SELECT 1 FROM balances WHERE network = $1 LIMIT 1`, [network])).length > 0;
}

/** Adds net balance changes to the balances, in one upsert. */
export function upsertBalances(tx: SqlTx, network: Network, b: BalanceArrays): Promise<unknown> {
  if (b.rows === 0) return Promise.resolve();
  return tx.query(
    `INSERT INTO balances (network, token, holder, balance, block_number, prior_blocks, prior_all)
     SELECT $1, t, h, v, b, p.a[1:${PRIOR_BLOCKS}], cardinality(p.a) <= ${PRIOR_BLOCKS}
     FROM unnest($2::text[], $3::text[], $4::numeric[], $5::bigint[], $6::text[]) AS x(t, h, v, b, pt), LATERAL (SELECT pt::bigint[] AS a) p
     ON CONFLICT (network, token, holder) DO UPDATE SET ${MERGE_BALANCE}`,
    [network, b.tokens, b.holders, b.deltas, b.blocks, b.priors],
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
     INSERT INTO balances (network, token, holder, balance, block_number, prior_blocks, prior_all)
     SELECT $1, token, holder, sum(delta), max(block_number),
       (array_agg(DISTINCT block_number ORDER BY block_number DESC))[2:${PRIOR_BLOCKS + 1}], count(DISTINCT block_number) <= ${PRIOR_BLOCKS + 1}
     FROM d GROUP BY token, holder
     ON CONFLICT (network, token, holder) DO UPDATE SET ${MERGE_BALANCE}`,
    [network, ZERO_ADDRESS],
  );
  await tx.query(`UPDATE index_cursors SET balances_block = NULL WHERE network = $1 AND balances_block IS NOT NULL`, [network]);
}

/**
 * Rollback: deletes transfers above the ancestor and takes their deltas out of the balances; a
 * balance row keeps the block of its last remaining transfer, and disappears when none is left.
 * That block comes from the row's `prior_blocks`; only a holder whose balance changed in more
 * than PRIOR_BLOCKS blocks above the ancestor (a reorg that deep) needs its transfers read back.
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
  // The latest earlier change at or below the ancestor; -1: none (the row goes), -2: not known.
  await tx.query(
    `WITH r AS (
       SELECT token, holder, prior_all, (SELECT max(x) FROM unnest(prior_blocks) x WHERE x <= $2) AS nb, prior_blocks
       FROM balances WHERE network = $1 AND block_number > $2
     )
     UPDATE balances b SET
       block_number = CASE WHEN r.nb IS NOT NULL THEN r.nb WHEN r.prior_all THEN -1 ELSE -2 END,
       prior_blocks = ARRAY(SELECT x FROM unnest(r.prior_blocks) x WHERE x < r.nb ORDER BY x DESC)
     FROM r WHERE b.network = $1 AND b.token = r.token AND b.holder = r.holder`,
    [network, ancestor],
  );
  // Not known: read the holder's change blocks back from the remaining transfers.
  await tx.query(
    `WITH p AS (SELECT token, holder FROM balances WHERE network = $1 AND block_number = -2),
     t AS (
       SELECT t.token, t.from_address AS holder, t.block_number FROM transfers t JOIN p ON p.token = t.token AND p.holder = t.from_address WHERE t.network = $1
       UNION
       SELECT t.token, t.to_address, t.block_number FROM transfers t JOIN p ON p.token = t.token AND p.holder = t.to_address WHERE t.network = $1
     ), g AS (SELECT token, holder, array_agg(block_number ORDER BY block_number DESC) AS blocks FROM t GROUP BY token, holder)
     UPDATE balances b SET block_number = g.blocks[1], prior_blocks = g.blocks[2:${PRIOR_BLOCKS + 1}], prior_all = cardinality(g.blocks) <= ${PRIOR_BLOCKS + 1}
     FROM g WHERE b.network = $1 AND b.block_number = -2 AND b.token = g.token AND b.holder = g.holder`,
    [network],
  );
  await tx.query(`DELETE FROM balances WHERE network = $1 AND block_number < 0`, [network]);
}
