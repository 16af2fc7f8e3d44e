import type { Network } from '@tokensvc/domain';
import type { SqlTx } from '../model/sql-tx';
import type { TickDelta } from '../model/tick-delta';

/**
 * V3 tick liquidity: the batch's net/gross deltas go into a per-block journal and are added to
 * pool_ticks; a tick whose gross liquidity is back to zero is uninitialised (row removed).
 */
export async function applyTickDeltas(tx: SqlTx, network: Network, deltas: readonly TickDelta[]): Promise<void> {
  if (deltas.length === 0) return;
  const params = [
    network,
    deltas.map((d) => d.pool),
    deltas.map((d) => d.tick),
    deltas.map((d) => d.blockNumber),
    deltas.map((d) => d.net.toString()),
    deltas.map((d) => d.gross.toString()),
  ];
  const src = `unnest($2::text[], $3::int[], $4::bigint[], $5::numeric[], $6::numeric[]) AS x(pool, tick, bn, n, g)`;
  // Queued at once: the transaction runs them in order, and none needs another's result.
  const journal = tx.query(
    `INSERT INTO pool_tick_deltas (network, pool, tick, block_number, net_delta, gross_delta) SELECT $1, pool, tick, bn, n, g FROM ${src}
     ON CONFLICT (network, pool, tick, block_number) DO UPDATE SET net_delta = pool_tick_deltas.net_delta + EXCLUDED.net_delta, gross_delta = pool_tick_deltas.gross_delta + EXCLUDED.gross_delta`,
    params,
  );
  const ticks = tx.query(
    `INSERT INTO pool_ticks (network, pool, tick, liquidity_net, liquidity_gross, block_number)
     SELECT $1, pool, tick, sum(n), sum(g), max(bn) FROM ${src} GROUP BY pool, tick
     ON CONFLICT (network, pool, tick) DO UPDATE SET liquidity_net = pool_ticks.liquidity_net + EXCLUDED.liquidity_net,
       liquidity_gross = pool_ticks.liquidity_gross + EXCLUDED.liquidity_gross, block_number = EXCLUDED.block_number`,
    params,
  );
  const cleared = tx.query(`DELETE FROM pool_ticks WHERE network = $1 AND liquidity_gross = 0 AND pool = ANY($2::text[])`, [
    network,
    [...new Set(deltas.map((d) => d.pool))],
  ]);
  await Promise.all([journal, ticks, cleared]);
}

/** Rollback: takes the journalled deltas above the ancestor back out of pool_ticks. */
export async function revertTickDeltasAbove(tx: SqlTx, network: Network, ancestor: number): Promise<void> {
  await tx.query(
    `WITH del AS (DELETE FROM pool_tick_deltas WHERE network = $1 AND block_number > $2 RETURNING pool, tick, net_delta, gross_delta),
          s AS (SELECT pool, tick, sum(net_delta) AS n, sum(gross_delta) AS g FROM del GROUP BY pool, tick)
     INSERT INTO pool_ticks (network, pool, tick, liquidity_net, liquidity_gross, block_number) SELECT $1, pool, tick, -n, -g, $2 FROM s
     ON CONFLICT (network, pool, tick) DO UPDATE SET liquidity_net = pool_ticks.liquidity_net + EXCLUDED.liquidity_net,
       liquidity_gross = pool_ticks.liquidity_gross + EXCLUDED.liquidity_gross, block_number = EXCLUDED.block_number`,
    [network, ancestor],
  );
  await tx.query(`DELETE FROM pool_ticks WHERE network = $1 AND liquidity_gross = 0`, [network]);
  await tx.query(
    `UPDATE pool_ticks t SET block_number = coalesce((SELECT max(d.block_number) FROM pool_tick_deltas d WHERE d.network = t.network AND d.pool = t.pool AND d.tick = t.tick), t.block_number)
     WHERE t.network = $1 AND t.block_number = $2`,
    [network, ancestor],
  );
}

/** Journal rows below `before` are never needed again (a rollback only reverts above the ancestor). */
export async function pruneTickDeltas(q: SqlTx, network: Network, before: number): Promise<void> {
  await q.query(`DELETE FROM pool_tick_deltas WHERE network = $1 AND block_number < $2`, [network, before]);
}
