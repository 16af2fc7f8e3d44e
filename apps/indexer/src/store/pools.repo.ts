import type { Network } from '@tokensvc/domain';
import type { PoolTableRow } from '@tokensvc/persistence';
import type { PoolInfo, PoolState } from '../model/registry.types';
import type { SqlTx } from '../model/sql-tx';

export interface PoolWithState {
  info: PoolInfo;
  state: PoolState;
}

const num = (v: bigint | null): string | null => (v === null ? null : v.toString());

function stateArrays(entries: ReadonlyArray<{ pool: string; state: PoolState }>): unknown[] {
  return [
    entries.map((e) => e.pool),
    entries.map((e) => e.state.reserve0.toString()),
    entries.map((e) => e.state.reserve1.toString()),
    entries.map((e) => num(e.state.sqrtPriceX96)),
    entries.map((e) => num(e.state.liquidity)),
    entries.map((e) => e.state.tick),
    entries.map((e) => e.state.blockNumber),
    entries.map((e) => e.state.logIndex),
  ];
}

const STATE_UNNEST = `unnest($2::text[], $3::numeric[], $4::numeric[], $5::numeric[], $6::numeric[], $7::int[], $8::bigint[], $9::int[]) AS v(pool, r0, r1, sp, liq, tick, bn, li)`;

/** New pools with their state at creation (also the first row of their history). */
export async function insertPools(tx: SqlTx, network: Network, pools: readonly PoolWithState[]): Promise<void> {
  if (pools.length === 0) return;
  // Both statements are queued at once (the transaction runs them in order).
  const inserted = tx.query(
    `INSERT INTO pools (network, address, platform, family, token0, token1, fee, tick_spacing, reserve0, reserve1, sqrt_price_x96, liquidity, tick, block_number, log_index, created_block, change_seq)
     SELECT $1, v.pool, i.platform, i.family, i.token0, i.token1, i.fee, i.tick_spacing, v.r0, v.r1, v.sp, v.liq, v.tick, v.bn, v.li, v.bn, nextval('pool_change_seq')
     FROM ${STATE_UNNEST}
     JOIN jsonb_to_recordset($10::jsonb) AS i(address text, platform text, family text, token0 text, token1 text, fee int, tick_spacing int) ON i.address = v.pool
     ON CONFLICT (network, address) DO NOTHING`,
    [
      network,
      ...stateArrays(pools.map((p) => ({ pool: p.info.address, state: p.state }))),
      JSON.stringify(
        pools.map((p) => ({
          address: p.info.address,
          platform: p.info.platform,
          family: p.info.family,
          token0: p.info.token0,
          token1: p.info.token1,
          fee: p.info.fee,
          tick_spacing: p.info.tickSpacing,
        })),
      ),
    ],
  );
  await Promise.all([
    inserted,
    insertPoolHistory(
      tx,
      network,
      pools.map((p) => ({ pool: p.info.address, state: p.state })),
    ),
  ]);
}

/** The last state of each changed pool; bumps change_seq so the publisher sends it. */
export async function updatePoolStates(
  tx: SqlTx,
  network: Network,
  entries: ReadonlyArray<{ pool: string; state: PoolState }>,
): Promise<void> {
  if (entries.length === 0) return;
  await tx.query(
    `UPDATE pools p SET reserve0 = v.r0, reserve1 = v.r1, sqrt_price_x96 = v.sp, liquidity = v.liq, tick = v.tick, block_number = v.bn, log_index = v.li,
       change_seq = nextval('pool_change_seq'), restored = false
     FROM ${STATE_UNNEST} WHERE p.network = $1 AND p.address = v.pool`,
    [network, ...stateArrays(entries)],
  );
}

/** A pool's state at the end of each block it changed in: what a rollback restores from. */
export async function insertPoolHistory(
  tx: SqlTx,
  network: Network,
  entries: ReadonlyArray<{ pool: string; state: PoolState }>,
): Promise<void> {
  if (entries.length === 0) return;
  await tx.query(
    `INSERT INTO pool_state_history (network, pool, block_number, log_index, reserve0, reserve1, sqrt_price_x96, liquidity, tick)
     SELECT $1, v.pool, v.bn, v.li, v.r0, v.r1, v.sp, v.liq, v.tick FROM ${STATE_UNNEST}
     ON CONFLICT (network, pool, block_number) DO UPDATE SET log_index = EXCLUDED.log_index, reserve0 = EXCLUDED.reserve0, reserve1 = EXCLUDED.reserve1,
       sqrt_price_x96 = EXCLUDED.sqrt_price_x96, liquidity = EXCLUDED.liquidity, tick = EXCLUDED.tick`,
    [network, ...stateArrays(entries)],
  );
}

interface PoolRow extends PoolTableRow {
  created_block: string;
}

export async function loadPools(q: SqlTx, network: Network): Promise<PoolWithState[]> {
  const rows = await q.query<PoolRow>(
    `SELECT address, platform, family, token0, token1, fee, tick_spacing, reserve0, reserve1, sqrt_price_x96, liquidity, tick, block_number, log_index, created_block FROM pools WHERE network = $1`,
    [network],
  );
  return rows.map((r) => ({
    info: {
      address: r.address,
      platform: r.platform,
      family: r.family as PoolInfo['family'],
      token0: r.token0,
      token1: r.token1,
      fee: r.fee,
      tickSpacing: r.tick_spacing,
      createdBlock: Number(r.created_block),
    },
    state: {
      reserve0: BigInt(r.reserve0),
      reserve1: BigInt(r.reserve1),
      sqrtPriceX96: r.sqrt_price_x96 === null ? null : BigInt(r.sqrt_price_x96),
      liquidity: r.liquidity === null ? null : BigInt(r.liquidity),
      tick: r.tick,
      blockNumber: Number(r.block_number),
      logIndex: r.log_index,
    },
  }));
}

/**
 * Rollback: pools created above the ancestor go; the others get back their last state at or
 * below it (from the history journal) and are flagged `restored` so the publisher re-sends them.
 */
export async function rollbackPools(tx: SqlTx, network: Network, ancestor: number): Promise<void> {
  await tx.query(`DELETE FROM pool_state_history WHERE network = $1 AND block_number > $2`, [network, ancestor]);
  await tx.query(`DELETE FROM pools WHERE network = $1 AND created_block > $2`, [network, ancestor]);
  await tx.query(
    `UPDATE pools p SET reserve0 = h.reserve0, reserve1 = h.reserve1, sqrt_price_x96 = h.sqrt_price_x96, liquidity = h.liquidity, tick = h.tick,
       block_number = h.block_number, log_index = h.log_index, change_seq = nextval('pool_change_seq'), restored = true
     FROM (SELECT DISTINCT ON (pool) * FROM pool_state_history
           WHERE network = $1 AND pool IN (SELECT address FROM pools WHERE network = $1 AND block_number > $2)
           ORDER BY pool, block_number DESC) h
     WHERE p.network = $1 AND p.address = h.pool AND p.block_number > $2`,
    [network, ancestor],
  );
}

/** Keeps the journal short: below `before`, only each pool's latest row is needed. */
export async function prunePoolHistory(q: SqlTx, network: Network, before: number): Promise<void> {
  await q.query(
    `DELETE FROM pool_state_history h WHERE h.network = $1 AND h.block_number < $2
       AND EXISTS (SELECT 1 FROM pool_state_history n WHERE n.network = h.network AND n.pool = h.pool AND n.block_number > h.block_number AND n.block_number <= $2)`,
    [network, before],
  );
}
