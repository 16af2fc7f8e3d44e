/** The current state columns of `tokens` (the /v2/tokens read model). */
import type { TokenState } from '../engine/model';
import { paidMetricsOfPoints, type MetricSnapshot } from '@tokensvc/domain';
import { columns, type SqlTx } from './sql';
import { TOKEN_STATE_COLUMN_NAMES, TOKEN_STATE_COLUMNS, stateColumnsFromParams } from '@tokensvc/persistence';
import { POINT_SELECT, STATE_ALIASES, STATE_COLUMNS, STATE_PARAMS } from './points.repo';

/** Writes each token's latest state; never overwrites a state from a later block. */
export async function writeTokenStates(tx: SqlTx, states: readonly TokenState[]): Promise<void> {
  if (states.length === 0) return;
  const params = columns(states, STATE_COLUMNS);
  await tx.query(
    `UPDATE tokens t SET (${TOKEN_STATE_COLUMN_NAMES.join(', ')}) = (${stateColumnsFromParams('u')}), state_block = u.b, updated_at = to_timestamp(u.t)
     FROM unnest(${STATE_PARAMS}) AS u(${STATE_ALIASES})
     WHERE t.key = u.k AND t.state_block <= u.b`,
    params,
  );
}

/** After a rollback: every token whose state came from above `block` gets its last remaining point (or defaults). */
export async function restoreTokenStates(tx: SqlTx, network: string, block: number): Promise<void> {
  await tx.query(
    `UPDATE tokens t SET ${TOKEN_STATE_COLUMN_NAMES.map((c) => `${c} = coalesce(p.${c}${TOKEN_STATE_COLUMNS[c].cast}, ${TOKEN_STATE_COLUMNS[c].zero})`).join(', ')},
       state_block = coalesce(p.block_number, 0)::bigint, updated_at = coalesce(to_timestamp(p.time), t.updated_at)
     FROM tokens t2 LEFT JOIN LATERAL (
       SELECT ${POINT_SELECT} FROM price_points pp WHERE pp.token_key = t2.key AND pp.block_number <= $2 ORDER BY pp.block_number DESC LIMIT 1
     ) p ON true
     WHERE t.key = t2.key AND t2.network = $1 AND t2.state_block > $2`,
    [network, block],
  );
}

interface MetricRow {
  key: string;
  v1: number;
  v7: number;
  price: number;
  liquidity: number;
  apy: number;
  borrow_apy: number;
  d1: MetricSnapshot | null;
  d7: MetricSnapshot | null;
  first: MetricSnapshot | null;
}

const SNAPSHOT = `json_build_object('price', price, 'liquidity', liquidity, 'apy', apy, 'borrowApy', borrow_apy)`;

/** Only the tokens whose metrics can have changed since they were computed at `since`. */
export interface MetricsScope {
  /** the `now` of the previous refresh of every token of the network */
  since: number;
  /** tokens with a new state since then */
  touched: readonly string[];
}

/**
 * Besides the touched tokens (new price, liquidity, APY, first point or activity), a token's
 * figures change between two refreshes only if one of its points or activities crossed a window
 * boundary: time in (since - 1d, now - 1d] or (since - 7d, now - 7d].
 */
const CROSSED = ['price_points', 'activities', 'swap_volumes']
  .flatMap((table) =>
    ["interval '1 day'", "interval '7 days'"].map(
      (span) =>
        `EXISTS (SELECT 1 FROM ${table} x WHERE x.token_key = t.key AND x.time > to_timestamp($4) - ${span} AND x.time <= to_timestamp($2) - ${span})`,
    ),
  )
  .join(' OR ');

/**
 * volume_usd_1d/7d (activity volume, for basic and native tokens swap volume, in the day/week up to `now`) and paid_metrics (figures 1 and
 * 7 days before `now`; a token younger than that compares with its first point) of every token of
 * the network (or of those `scope` says can have changed: the same figures, for far fewer
 * tokens). `now` is the latest indexed block's time, not the wall clock.
 */
export async function refreshTokenMetrics(tx: SqlTx, network: string, now: number, scope?: MetricsScope): Promise<void> {
  const rows = await tx.query<MetricRow>(
    `SELECT t.key, coalesce(v.v1, 0) + coalesce(sv.v1, 0) AS v1, coalesce(v.v7, 0) + coalesce(sv.v7, 0) AS v7, t.price, t.liquidity, t.apy, t.borrow_apy,
       (SELECT ${SNAPSHOT} FROM price_points p WHERE p.token_key = t.key AND p.time <= to_timestamp($2) - interval '1 day' ORDER BY p.time DESC, p.block_number DESC LIMIT 1) AS d1,
       (SELECT ${SNAPSHOT} FROM price_points p WHERE p.token_key = t.key AND p.time <= to_timestamp($2) - interval '7 days' ORDER BY p.time DESC, p.block_number DESC LIMIT 1) AS d7,
       (SELECT ${SNAPSHOT} FROM price_points p WHERE p.token_key = t.key ORDER BY p.time, p.block_number LIMIT 1) AS first
     FROM tokens t LEFT JOIN LATERAL (
       SELECT sum(a.volume_usd ORDER BY a.block_number, a.log_index, a.volume_usd) FILTER (WHERE a.time > to_timestamp($2) - interval '1 day') AS v1, sum(a.volume_usd ORDER BY a.block_number, a.log_index, a.volume_usd) AS v7
       FROM activities a WHERE a.token_key = t.key AND a.time > to_timestamp($2) - interval '7 days' AND a.time <= to_timestamp($2)
     ) v ON true LEFT JOIN LATERAL (
       SELECT (sum(s.volume_cents) FILTER (WHERE s.time > to_timestamp($2) - interval '1 day'))::float8 / 100 AS v1, sum(s.volume_cents)::float8 / 100 AS v7
       FROM swap_volumes s WHERE s.token_key = t.key AND s.time > to_timestamp($2) - interval '7 days' AND s.time <= to_timestamp($2)
     ) sv ON true
     WHERE t.network = $1${scope ? ` AND (t.key = ANY($3::text[]) OR ${CROSSED})` : ''}`,
    scope ? [network, now, [...scope.touched], scope.since] : [network, now],
  );
  if (rows.length === 0) return;
  const metrics = rows.map((r) => {
    const current: MetricSnapshot = { price: r.price, liquidity: r.liquidity, apy: r.apy, borrowApy: r.borrow_apy };
    return JSON.stringify(paidMetricsOfPoints(current, r));
  });
  await tx.query(
    `UPDATE tokens t SET volume_usd_1d = u.v1, volume_usd_7d = u.v7, paid_metrics = u.m::jsonb
     FROM unnest($1::text[], $2::float8[], $3::float8[], $4::text[]) AS u(k, v1, v7, m) WHERE t.key = u.k`,
    [rows.map((r) => r.key), rows.map((r) => r.v1), rows.map((r) => r.v7), metrics],
  );
}
