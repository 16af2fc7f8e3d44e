/** price_points: the per-block state history of every token (see the derive migration). */
import {
  TOKEN_STATE_COLUMN_NAMES,
  stateColumnsFromParams,
  stateColumnsParams,
  stateColumnsSelect,
  type TokenStateColumn,
  type TokenStateColumns,
} from '@tokensvc/persistence';
import { ledgerFromAux, ledgerToAux, type TokenState } from '../engine/model';
import { columns, networkKeyRange, numericArrayLiteral, type SqlTx } from './sql';

export const POINT_SELECT = `token_key, block_number::float8 AS block_number, extract(epoch from time)::float8 AS time, ${stateColumnsSelect()}, aux`;

/** A `price_points` row: a token's state columns (as `tokens` has them) at a block. */
export interface PointRow extends TokenStateColumns {
  token_key: string;
  block_number: number;
  time: number;
  aux: Record<string, unknown>;
}

export function pointFromRow(r: PointRow): TokenState {
  const totalSupply = BigInt(r.total_supply);
  return {
    tokenKey: r.token_key,
    blockNumber: r.block_number,
    time: r.time,
    price: r.price,
    liquidity: r.liquidity,
    totalSupply,
    circulatingSupply: BigInt(r.circulating_supply),
    totalBorrow: BigInt(r.total_borrow),
    reserves: r.reserves.map((x) => BigInt(x)),
    pricePerShare: r.price_per_share,
    apy: r.apy,
    baseApy: r.base_apy,
    rewardApy: r.reward_apy,
    borrowApy: r.borrow_apy,
    baseBorrowApy: r.base_borrow_apy,
    ledger: ledgerFromAux(r.aux, totalSupply),
  };
}

/** A token state's value of each state column. */
const STATE_VALUES: Readonly<Record<TokenStateColumn, (s: TokenState) => unknown>> = {
  price: (s) => s.price,
  liquidity: (s) => s.liquidity,
  total_supply: (s) => s.totalSupply.toString(),
  circulating_supply: (s) => s.circulatingSupply.toString(),
  total_borrow: (s) => s.totalBorrow.toString(),
  reserves: (s) => numericArrayLiteral(s.reserves),
  price_per_share: (s) => s.pricePerShare,
  apy: (s) => s.apy,
  base_apy: (s) => s.baseApy,
  reward_apy: (s) => s.rewardApy,
  borrow_apy: (s) => s.borrowApy,
  base_borrow_apy: (s) => s.baseBorrowApy,
};

/** The parameters of a token state for the writers of `price_points` and `tokens`: `$1` key, `$2` block, `$3` time, then STATE_PARAMS. */
export const STATE_COLUMNS: ReadonlyArray<(s: TokenState) => unknown> = [
  (s) => s.tokenKey,
  (s) => s.blockNumber,
  (s) => s.time,
  ...TOKEN_STATE_COLUMN_NAMES.map((c) => STATE_VALUES[c]),
];
/** unnest's types of STATE_COLUMNS, and its column aliases (`u(k, b, t, <state columns>)`) */
export const STATE_PARAMS = `$1::text[], $2::bigint[], $3::float8[], ${stateColumnsParams(4)}`;
export const STATE_ALIASES = `k, b, t, ${TOKEN_STATE_COLUMN_NAMES.join(', ')}`;
const AUX_PARAM = 4 + TOKEN_STATE_COLUMN_NAMES.length;

/** Upserts state points (a re-derived block replaces its row). */
export async function writePoints(tx: SqlTx, points: readonly TokenState[]): Promise<void> {
  if (points.length === 0) return;
  const params = columns(points, [...STATE_COLUMNS, (p) => JSON.stringify(ledgerToAux(p.ledger))]);
  await tx.query(
    `INSERT INTO price_points (token_key, block_number, time, ${TOKEN_STATE_COLUMN_NAMES.join(', ')}, aux)
     SELECT u.k, u.b, to_timestamp(u.t), ${stateColumnsFromParams('u')}, u.x::jsonb
     FROM unnest(${STATE_PARAMS}, $${AUX_PARAM}::text[]) AS u(${STATE_ALIASES}, x)
     ON CONFLICT (token_key, block_number) DO UPDATE SET time = EXCLUDED.time,
       ${TOKEN_STATE_COLUMN_NAMES.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}, aux = EXCLUDED.aux`,
    params,
  );
}

/** The last state of every token of the network before `block`. */
export async function loadStatesBefore(tx: SqlTx, network: string, block: number): Promise<TokenState[]> {
  const rows = await tx.query<PointRow>(
    `SELECT p.* FROM tokens t CROSS JOIN LATERAL (
       SELECT ${POINT_SELECT} FROM price_points pp WHERE pp.token_key = t.key AND pp.block_number < $2 ORDER BY pp.block_number DESC LIMIT 1
     ) p WHERE t.network = $1`,
    [network, block],
  );
  return rows.map(pointFromRow);
}

/** Points of some tokens from a time on (candle rebuilds), in chain order. */
export async function loadPointsSince(tx: SqlTx, tokenKeys: readonly string[], fromTime: number): Promise<TokenState[]> {
  if (tokenKeys.length === 0) return [];
  const rows = await tx.query<PointRow>(
    `SELECT ${POINT_SELECT} FROM price_points WHERE token_key = ANY($1::text[]) AND time >= to_timestamp($2) ORDER BY token_key, block_number`,
    [tokenKeys, fromTime],
  );
  return rows.map(pointFromRow);
}

/** Share prices (assets per share) of vaults from the last one at or before `from` on. */
export async function loadSharePricesSince(
  tx: SqlTx,
  tokenKeys: readonly string[],
  from: number,
  beforeBlock: number,
): Promise<Array<{ token_key: string; time: number; pps: number }>> {
  if (tokenKeys.length === 0) return [];
  return tx.query(
    `SELECT p.token_key, extract(epoch from p.time)::float8 AS time, p.price_per_share::float8 AS pps
     FROM unnest($1::text[]) AS k(key)
     CROSS JOIN LATERAL (
       SELECT coalesce(max(q.time), '-infinity') AS since FROM price_points q WHERE q.token_key = k.key AND q.time <= to_timestamp($2) AND q.block_number < $3
     ) c
     JOIN price_points p ON p.token_key = k.key AND p.block_number < $3 AND p.time >= c.since
     ORDER BY p.token_key, p.block_number`,
    [tokenKeys, from, beforeBlock],
  );
}

export async function deletePointsAbove(tx: SqlTx, network: string, block: number): Promise<void> {
  const [lo, hi] = networkKeyRange(network);
  await tx.query(`DELETE FROM price_points WHERE block_number > $1 AND token_key >= $2 AND token_key < $3`, [block, lo, hi]);
}
