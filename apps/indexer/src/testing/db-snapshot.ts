import type { Pool } from 'pg';
import type { Network } from '@tokensvc/domain';

/**
 * The ingest pipeline's tables of one network as sorted rows, without bookkeeping columns that
 * legitimately differ between two indexing runs (publish sequence, restore flag, timestamps of the
 * write), so a repaired database can be compared with a fresh re-index.
 */
export const RAW_TABLES: Record<string, string> = {
  // Which other blocks are stored depends on batch boundaries (range ends, the dense tail).
  blocks: `SELECT number, hash, parent_hash, time FROM blocks WHERE network = $1 AND number IN (SELECT block_number FROM transfers WHERE network = $1) ORDER BY number`,
  transfers: `SELECT block_number, log_index, tx_hash, token, from_address, to_address, value FROM transfers WHERE network = $1 ORDER BY block_number, log_index`,
  balances: `SELECT token, holder, balance, block_number FROM balances WHERE network = $1 ORDER BY token, holder`,
  pools: `SELECT address, platform, family, token0, token1, fee, tick_spacing, reserve0, reserve1, sqrt_price_x96, liquidity, tick, block_number, log_index, created_block FROM pools WHERE network = $1 ORDER BY address`,
  pool_ticks: `SELECT pool, tick, liquidity_net, liquidity_gross, block_number FROM pool_ticks WHERE network = $1 ORDER BY pool, tick`,
  tokens: `SELECT key, address, platform, family, name, symbol, decimals, underlying, pool_address, image, images, metadata, is_portable, is_verified, created_at, created_block, verified_at
           FROM tokens WHERE network = $1 ORDER BY key`,
};

/** The derivation stage's tables of one network, without write timestamps. */
export const DERIVED_TABLES: Record<string, string> = {
  price_points: `SELECT * FROM price_points WHERE token_key LIKE $1 || ':%' ORDER BY token_key, block_number`,
  activities: `SELECT * FROM activities WHERE network = $1 ORDER BY block_number, log_index, token_key`,
  swap_volumes: `SELECT * FROM swap_volumes WHERE network = $1 ORDER BY token_key, block_number`,
  candles: `SELECT * FROM candles WHERE token_key LIKE $1 || ':%' ORDER BY token_key, resolution, bucket`,
  token_state: `SELECT key, price, liquidity, total_supply, total_borrow, circulating_supply, reserves, price_per_share, apy, base_apy, reward_apy, borrow_apy,
                  base_borrow_apy, volume_usd_1d, volume_usd_7d, paid_metrics, state_block FROM tokens WHERE network = $1 ORDER BY key`,
};

export async function snapshotTables(
  pool: Pool,
  network: Network,
  tables: Record<string, string> = RAW_TABLES,
): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const [name, sql] of Object.entries(tables)) out[name] = (await pool.query(sql, [network])).rows;
  return out;
}

/**
 * Rows with floating-point figures (numbers, and decimal strings such as the paid metrics) rounded
 * to 10 significant digits: USD sums of the derivation stage may differ in the last bits
 * depending on how blocks were split into batches. Integer amounts (base units) stay exact.
 */
export function normaliseFloats(rows: unknown[]): unknown[] {
  const round = (x: number): number => Number(x.toPrecision(10));
  return JSON.parse(
    JSON.stringify(rows, (_k, v: unknown) => {
      if (typeof v === 'bigint') return v.toString();
      if (typeof v === 'number' && !Number.isInteger(v)) return round(v);
      if (typeof v === 'string' && DECIMAL.test(v)) return String(round(Number(v)));
      return v;
    }),
  ) as unknown[];
}

const DECIMAL = /^-?[0-9]+\.[0-9]+(e[-+]?[0-9]+)?$/i;

/** Tables whose rows differ between two snapshots (empty when they hold the same data). */
export function differingTables(a: Record<string, unknown[]>, b: Record<string, unknown[]>): string[] {
  return Object.keys(a).filter((t) => JSON.stringify(normaliseFloats(a[t] ?? [])) !== JSON.stringify(normaliseFloats(b[t] ?? [])));
}
