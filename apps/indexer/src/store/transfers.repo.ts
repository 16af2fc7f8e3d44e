import { ZERO_ADDRESS, type Network } from '@tokensvc/domain';
import type { TransferEvent } from '../pipeline/decoded-batch';
import type { SqlTx } from '../pipeline/derivation.port';
import { SLICE_CHECK_EVERY, type TimeSlice } from '../pipeline/time-slice';
import { CopyWriter } from './copy-in';
import { pgArray } from './pg-array';
import type { PgTx } from './sql-tx';

/** A local copy: the library's re-exported binding is a getter call on every use in the hot loop below. */
const ZERO = ZERO_ADDRESS;

/** A batch's transfers as a COPY payload and its net balance deltas, built before the transaction. */
export interface PreparedTransfers {
  count: number;
  copy: Buffer[];
  /** one entry per (token, holder): column arrays as Postgres array literals */
  balances: { tokens: string; holders: string; deltas: string; blocks: string };
}

/**
 * Builds the transfers' COPY payload and their net balance deltas, summed per (token, holder).
 * The zero address is not a holder (mints and burns), so a token's balances sum to its supply
 * outside the zero address. Pure CPU: done while the previous batch is being written, in time
 * slices.
 */
export async function prepareTransfers(network: Network, transfers: readonly TransferEvent[], slice: TimeSlice): Promise<PreparedTransfers> {
  const payload = new CopyWriter();
  // token -> holder -> net delta (nested maps: no key strings to build per transfer)
  const deltas = new Map<string, Map<string, { delta: bigint; block: number }>>();
  const add = (token: string, holder: string, value: bigint, incoming: boolean, block: number): void => {
    if (holder === ZERO) return;
    let byHolder = deltas.get(token);
    if (!byHolder) deltas.set(token, (byHolder = new Map()));
    const d = byHolder.get(holder);
    if (d) {
      d.delta = incoming ? d.delta + value : d.delta - value;
      d.block = block;
    } else byHolder.set(holder, { delta: incoming ? value : -value, block });
  };
  for (let i = 0; i < transfers.length; i++) {
    const t = transfers[i]!;
    payload.plain(network).plain(t.blockNumber).plain(t.logIndex).plain(t.txHash).plain(t.token).plain(t.from).plain(t.to).plain(t.value).endRow();
    add(t.token, t.from, t.value, false, t.blockNumber);
    add(t.token, t.to, t.value, true, t.blockNumber);
    if (i % SLICE_CHECK_EVERY === 0) await slice.maybeYield();
  }
  const tokens: string[] = [];
  const holders: string[] = [];
  const values: bigint[] = [];
  const blocks: number[] = [];
  // In key order: Postgres then walks the balances index in order (a quarter less upsert time
  // than in arrival order, measured on 27k rows).
  for (const token of [...deltas.keys()].sort()) {
    const byHolder = deltas.get(token)!;
    for (const holder of [...byHolder.keys()].sort()) {
      const x = byHolder.get(holder)!;
      tokens.push(token);
      holders.push(holder);
      values.push(x.delta);
      blocks.push(x.block);
    }
  }
  await slice.maybeYield();
  return {
    count: transfers.length,
    copy: payload.finish(),
    balances: { tokens: pgArray(tokens), holders: pgArray(holders), deltas: pgArray(values), blocks: pgArray(blocks) },
  };
}

/**
 * Inserts a batch's transfers (COPY; a position already stored is an error, never skipped: it
 * would mean the batch was applied twice) and adds their net balance deltas in one upsert.
 */
export function writeTransfersAndBalances(tx: PgTx, network: Network, p: PreparedTransfers): Array<Promise<unknown>> {
  if (p.count === 0) return [];
  const copied = tx.copy(`COPY transfers (network, block_number, log_index, tx_hash, token, from_address, to_address, value) FROM STDIN`, p.copy).then((n) => {
    if (n !== p.count) throw new Error(`COPY stored ${n} of ${p.count} transfers`);
  });
  const upserted = tx.query(
    `INSERT INTO balances (network, token, holder, balance, block_number)
     SELECT $1, t, h, v, b FROM unnest($2::text[], $3::text[], $4::numeric[], $5::bigint[]) AS x(t, h, v, b)
     ON CONFLICT (network, token, holder) DO UPDATE SET balance = balances.balance + EXCLUDED.balance, block_number = EXCLUDED.block_number`,
    [network, p.balances.tokens, p.balances.holders, p.balances.deltas, p.balances.blocks],
  );
  return [copied, upserted];
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
