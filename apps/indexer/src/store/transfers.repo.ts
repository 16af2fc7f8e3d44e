import { ZERO_ADDRESS, type Network } from '@tokensvc/domain';
import type { TransferEvent } from '../pipeline/decoded-batch';
import type { SqlTx } from '../pipeline/derivation.port';
import { checkedCopyLine } from './copy-in';
import { pgArray } from './pg-array';
import type { PgTx } from './sql-tx';

/**
 * Inserts a batch's transfers (COPY; a position already stored is an error, never skipped: it
 * would mean the batch was applied twice) and adds their net balance deltas, summed
 * per (token, holder) first, in one upsert. The zero address is not a holder (mints and burns),
 * so a token's balances sum to its supply outside the zero address.
 */
export async function insertTransfersAndBalances(tx: PgTx, network: Network, transfers: readonly TransferEvent[]): Promise<void> {
  if (transfers.length === 0) return;
  const n = transfers.length;
  const lines = new Array<string>(n);
  // token -> holder -> net delta (nested maps: no key strings to build per transfer)
  const deltas = new Map<string, Map<string, { delta: bigint; block: number }>>();
  const add = (token: string, holder: string, delta: bigint, block: number): void => {
    if (holder === ZERO_ADDRESS) return;
    let byHolder = deltas.get(token);
    if (!byHolder) deltas.set(token, (byHolder = new Map()));
    const d = byHolder.get(holder);
    if (d) {
      d.delta += delta;
      d.block = block;
    } else byHolder.set(holder, { delta, block });
  };
  for (let i = 0; i < n; i++) {
    const t = transfers[i]!;
    lines[i] = checkedCopyLine(`${network}\t${t.blockNumber}\t${t.logIndex}\t${t.txHash}\t${t.token}\t${t.from}\t${t.to}\t${t.value}`);
    add(t.token, t.from, -t.value, t.blockNumber);
    add(t.token, t.to, t.value, t.blockNumber);
  }
  const copied = await tx.copy(`COPY transfers (network, block_number, log_index, tx_hash, token, from_address, to_address, value) FROM STDIN`, `${lines.join('\n')}\n`);
  if (copied !== n) throw new Error(`COPY stored ${copied} of ${n} transfers`);
  const d: Array<{ token: string; holder: string; delta: bigint; block: number }> = [];
  for (const [token, byHolder] of deltas) for (const [holder, x] of byHolder) d.push({ token, holder, delta: x.delta, block: x.block });
  await tx.query(
    `INSERT INTO balances (network, token, holder, balance, block_number)
     SELECT $1, t, h, v, b FROM unnest($2::text[], $3::text[], $4::numeric[], $5::bigint[]) AS x(t, h, v, b)
     ON CONFLICT (network, token, holder) DO UPDATE SET balance = balances.balance + EXCLUDED.balance, block_number = EXCLUDED.block_number`,
    [network, pgArray(d.map((x) => x.token)), pgArray(d.map((x) => x.holder)), pgArray(d.map((x) => x.delta)), pgArray(d.map((x) => x.block))],
  );
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
