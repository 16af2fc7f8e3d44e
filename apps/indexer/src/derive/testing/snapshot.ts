/** Test helper: the derived tables of a network as plain rows, and a readable exact comparison. */
import type { SqlTx } from '../repo/sql';

export interface DerivedSnapshot {
  points: Record<string, unknown>[];
  candles: Record<string, unknown>[];
  activities: Record<string, unknown>[];
  swapVolumes: Record<string, unknown>[];
  tokens: Record<string, unknown>[];
}

export async function snapshotDerived(tx: SqlTx, network: string): Promise<DerivedSnapshot> {
  const [lo, hi] = [`${network}:`, `${network};`];
  return {
    points: await tx.query(`SELECT * FROM price_points WHERE token_key >= $1 AND token_key < $2 ORDER BY token_key, block_number`, [
      lo,
      hi,
    ]),
    candles: await tx.query(`SELECT * FROM candles WHERE token_key >= $1 AND token_key < $2 ORDER BY token_key, resolution, bucket`, [
      lo,
      hi,
    ]),
    activities: await tx.query(`SELECT * FROM activities WHERE network = $1 ORDER BY block_number, log_index, token_key`, [network]),
    swapVolumes: await tx.query(`SELECT * FROM swap_volumes WHERE network = $1 ORDER BY block_number, token_key`, [network]),
    tokens: await tx.query(
      `SELECT key, price, liquidity, total_supply, total_borrow, circulating_supply, reserves, price_per_share, apy, base_apy, reward_apy,
         borrow_apy, base_borrow_apy, volume_usd_1d, volume_usd_7d, paid_metrics, state_block, updated_at FROM tokens WHERE network = $1 ORDER BY key`,
      [network],
    ),
  };
}

/** Exact differences between two values, as readable paths (at most 20). */
export function differences(a: unknown, b: unknown, path = '', out: string[] = []): string[] {
  if (out.length > 20) return out;
  if (a instanceof Date && b instanceof Date) {
    if (a.getTime() !== b.getTime()) out.push(`${path}: ${a.toISOString()} != ${b.toISOString()}`);
  } else if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) out.push(`${path}: length ${a.length} != ${b.length}`);
    else a.forEach((x, i) => differences(x, b[i], `${path}[${i}]`, out));
  } else if (a && b && typeof a === 'object' && typeof b === 'object') {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)]))
      differences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`, out);
  } else if (a !== b) out.push(`${path}: ${String(a)} != ${String(b)}`);
  return out;
}
