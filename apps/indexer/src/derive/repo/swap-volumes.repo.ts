/** swap_volumes: the swap volume of basic and native tokens per token and block (engine/swap-volumes.ts). */
import type { SwapVolumeRow } from '../engine/swap-volumes';
import { columns, type SqlTx } from './sql';

/**
 * Inserts a batch's rows. A (token, block) already stored is left as it is: the rows of a block
 * are a function of its events, so a stored one is the same row (a plain SqlTx may re-apply a batch).
 */
export async function writeSwapVolumes(tx: SqlTx, rows: readonly SwapVolumeRow[]): Promise<void> {
  if (rows.length === 0) return;
  const params = columns(rows, [
    (r) => r.tokenKey,
    (r) => r.blockNumber,
    (r) => r.network,
    (r) => r.time,
    (r) => r.swaps,
    (r) => r.volumeCents,
  ]);
  await tx.query(
    `INSERT INTO swap_volumes (token_key, block_number, network, time, swaps, volume_cents)
     SELECT k, b, n, to_timestamp(t), s, c FROM unnest($1::text[], $2::bigint[], $3::text[], $4::float8[], $5::int[], $6::bigint[]) AS u(k, b, n, t, s, c)
     ON CONFLICT (token_key, block_number) DO NOTHING`,
    params,
  );
}

export interface SwapVolumeAt {
  token_key: string;
  time: number;
  /** USD (cents / 100) */
  volume_usd: number;
}

/** Swap volumes of some tokens from `from` on (and below a block), in block order. */
export async function loadSwapVolumesSince(
  tx: SqlTx,
  tokenKeys: readonly string[],
  from: number,
  beforeBlock = Number.MAX_SAFE_INTEGER,
): Promise<SwapVolumeAt[]> {
  if (tokenKeys.length === 0) return [];
  return tx.query(
    `SELECT token_key, extract(epoch from time)::float8 AS time, volume_cents::float8 / 100 AS volume_usd FROM swap_volumes
     WHERE token_key = ANY($1::text[]) AND time >= to_timestamp($2) AND block_number < $3
     ORDER BY block_number, token_key`,
    [tokenKeys, from, beforeBlock],
  );
}

export async function deleteSwapVolumesAbove(tx: SqlTx, network: string, block: number): Promise<void> {
  await tx.query(`DELETE FROM swap_volumes WHERE network = $1 AND block_number > $2`, [network, block]);
}
