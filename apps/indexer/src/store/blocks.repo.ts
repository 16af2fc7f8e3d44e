import type { Network } from '@tokensvc/domain';
import type { BlockHeader } from '../model/decoded-batch';
import type { SqlTx } from '../model/sql-tx';

/** Stores block headers (hash + parent hash for reorg detection, time for every derived row). */
export async function insertBlocks(tx: SqlTx, network: Network, headers: readonly BlockHeader[]): Promise<void> {
  if (headers.length === 0) return;
  await tx.query(
    `INSERT INTO blocks (network, number, hash, parent_hash, time)
     SELECT $1, n, h, p, to_timestamp(t) FROM unnest($2::bigint[], $3::text[], $4::text[], $5::bigint[]) AS x(n, h, p, t)
     ON CONFLICT (network, number) DO UPDATE SET hash = EXCLUDED.hash, parent_hash = EXCLUDED.parent_hash, time = EXCLUDED.time`,
    [network, headers.map((b) => b.number), headers.map((b) => b.hash), headers.map((b) => b.parentHash), headers.map((b) => b.timestamp)],
  );
}

/** Stored (number, hash) at or below `atOrBelow`, newest first: the candidates for a common ancestor. */
export async function storedBlocksDescending(
  q: SqlTx,
  network: Network,
  atOrBelow: number,
  limit: number,
): Promise<Array<{ number: number; hash: string }>> {
  const rows = await q.query<{ number: string; hash: string }>(
    `SELECT number, hash FROM blocks WHERE network = $1 AND number <= $2 ORDER BY number DESC LIMIT $3`,
    [network, atOrBelow, limit],
  );
  return rows.map((r) => ({ number: Number(r.number), hash: r.hash }));
}

export async function deleteBlocksAbove(tx: SqlTx, network: Network, ancestor: number): Promise<void> {
  await tx.query(`DELETE FROM blocks WHERE network = $1 AND number > $2`, [network, ancestor]);
}
