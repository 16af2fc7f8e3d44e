/**
 * The `tokens` read model as of each network's finalized block F (issue 23), as a derived table
 * with the columns of `tokens` that Token records, filters and sorts read. Nothing is stored for
 * it: the indexer already keeps every block's state of every token (`price_points`, one row per
 * token and block where its state changed) and every activity with its block, so
 * - the state fields (price, liquidity, supplies, reserves, pricePerShare, APYs, updatedAt) are
 *   those of the token's last state point at or below F (a token with none: its row when the row's
 *   state is from F or before, else zeros, as before its first state);
 * - volumeUsd1d/7d are the activity volume (basic and native tokens: the swap volume, `swap_volumes`)
 *   of blocks up to F in the day/week before F's time;
 * - the paid metrics compare with the last state point at or before F's time minus 1 / 7 days
 *   (a younger token: its first point), with the indexer's formulas (`paidMetricsOfPoints`);
 * - tokens first seen above F are left out.
 * The indexer's head refresh (eth_call corrections at the head) is not part of it: it is not final.
 */
import { TOKEN_STATE_COLUMN_NAMES, TOKEN_STATE_COLUMNS } from '@tokensvc/persistence';

/** Zero value of each state column, as `tokens` has before a token's first state. */
const STATE_COLUMNS: ReadonlyArray<[string, string]> = TOKEN_STATE_COLUMN_NAMES.map((c) => [c, TOKEN_STATE_COLUMNS[c].zero]);

const state = (column: string, zero: string): string =>
  `CASE WHEN p.token_key IS NOT NULL THEN p.${column} WHEN t.state_block <= c.finalized_block THEN t.${column} ELSE ${zero} END AS ${column}`;

/** price/liquidity/apy/borrowApy of a state point as a json object (NULL without one) */
const SNAPSHOT = `json_build_object('price', x.price, 'liquidity', x.liquidity, 'apy', x.apy, 'borrowApy', x.borrow_apy)`;
const pointBefore = (span: string): string =>
  `(SELECT ${SNAPSHOT} FROM price_points x WHERE x.token_key = t.key AND x.time <= c.finalized_time - interval '${span}' AND x.block_number <= c.finalized_block
     ORDER BY x.time DESC, x.block_number DESC LIMIT 1)`;

/**
 * The as-of row's `paid_metrics`: not the metrics but what they are computed from (the as-of
 * figures and the points 1 and 7 days before F), under `asOf`; `toMetrics` computes them with the
 * indexer's own formulas (`paidMetricsOfPoints`, @tokensvc/domain), so the two modes share one rule.
 */
const PAID_METRIC_POINTS = `jsonb_build_object('asOf', json_build_object(
    'now', json_build_object('price', s.price, 'liquidity', s.liquidity, 'apy', s.apy, 'borrowApy', s.borrow_apy), 'd1', m.d1, 'd7', m.d7, 'first', m.first))`;

/**
 * `FROM <this> t`: tokens as of their network's finalized block, with `as_of_block`. `where` (over
 * the `tokens` row `t`, on columns that are not state: keys, networks, platforms) narrows the set
 * before the per-token reads.
 */
export function tokensAsOfFinalizedSql(where = 'true'): string {
  return `(SELECT s.*, v.volume_usd_1d, v.volume_usd_7d, ${PAID_METRIC_POINTS} AS paid_metrics FROM (
    SELECT t.key, t.network, t.address, t.platform, t.family, t.name, t.symbol, t.decimals, t.underlying, t.pool_address, t.image, t.images,
           t.tags, t.metadata, t.is_portable, t.is_verified, t.created_at, t.created_block, t.verified_at, t.history_from_block,
           CASE WHEN p.token_key IS NOT NULL THEN p.time WHEN t.state_block <= c.finalized_block THEN t.updated_at ELSE t.created_at END AS updated_at,
           ${STATE_COLUMNS.map(([col, zero]) => state(col, zero)).join(', ')},
           c.finalized_block AS as_of_block, c.finalized_time AS as_of_time
      FROM tokens t JOIN index_cursors c ON c.network = t.network
      LEFT JOIN LATERAL (SELECT * FROM price_points pp WHERE pp.token_key = t.key AND pp.block_number <= c.finalized_block ORDER BY pp.block_number DESC LIMIT 1) p ON true
     WHERE t.created_block <= c.finalized_block AND (${where})
  ) s
  JOIN index_cursors c ON c.network = s.network
  CROSS JOIN LATERAL (
    SELECT coalesce(sum(a.volume_usd ORDER BY a.block_number, a.log_index, a.volume_usd)
             FILTER (WHERE a.time > c.finalized_time - interval '1 day'), 0)::float8 AS v1,
           coalesce(sum(a.volume_usd ORDER BY a.block_number, a.log_index, a.volume_usd), 0)::float8 AS v7
      FROM activities a WHERE a.token_key = s.key AND a.block_number <= c.finalized_block AND a.time > c.finalized_time - interval '7 days' AND a.time <= c.finalized_time
  ) va
  CROSS JOIN LATERAL (
    SELECT coalesce((sum(w.volume_cents) FILTER (WHERE w.time > c.finalized_time - interval '1 day'))::float8 / 100, 0) AS v1,
           coalesce(sum(w.volume_cents)::float8 / 100, 0) AS v7
      FROM swap_volumes w
     WHERE w.token_key = s.key AND w.block_number <= c.finalized_block AND w.time > c.finalized_time - interval '7 days' AND w.time <= c.finalized_time
  ) vs
  CROSS JOIN LATERAL (SELECT va.v1 + vs.v1 AS volume_usd_1d, va.v7 + vs.v7 AS volume_usd_7d) v
  CROSS JOIN LATERAL (
    SELECT ${pointBefore('1 day').replaceAll('t.key', 's.key')} AS d1, ${pointBefore('7 days').replaceAll('t.key', 's.key')} AS d7,
           (SELECT ${SNAPSHOT} FROM price_points x WHERE x.token_key = s.key ORDER BY x.time, x.block_number LIMIT 1) AS first
  ) m)`;
}
