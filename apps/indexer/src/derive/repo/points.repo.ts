/** price_points: the per-block state history of every token (see the derive migration). */
import type { TokenStateColumns } from '@tokensvc/persistence';
import { ledgerFromAux, ledgerToAux, type TokenState } from '../engine/model';
import { columns, networkKeyRange, numericArrayLiteral, type SqlTx } from './sql';

export const POINT_SELECT = `token_key, block_number::float8 AS block_number, extract(epoch from time)::float8 AS time, price, liquidity,
  total_supply::text AS total_supply, circulating_supply::text AS circulating_supply, total_borrow::text AS total_borrow,
  reserves::text[] AS reserves, price_per_share, apy, base_apy, reward_apy, borrow_apy, base_borrow_apy, aux`;

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

/** A token state's values in the order of the state columns the writers of `price_points` and `tokens` list (k, b, t, p, l, ts, cs, tb, r, pps, a, ba, ra, bo, bbo). */
export const STATE_COLUMNS: ReadonlyArray<(s: TokenState) => unknown> = [
  (s) => s.tokenKey,
  (s) => s.blockNumber,
  (s) => s.time,
  (s) => s.price,
  (s) => s.liquidity,
  (s) => s.totalSupply.toString(),
  (s) => s.circulatingSupply.toString(),
  (s) => s.totalBorrow.toString(),
  (s) => numericArrayLiteral(s.reserves),
  (s) => s.pricePerShare,
  (s) => s.apy,
  (s) => s.baseApy,
  (s) => s.rewardApy,
  (s) => s.borrowApy,
  (s) => s.baseBorrowApy,
];

/** Upserts state points (a re-derived block replaces its row). */
export async function writePoints(tx: SqlTx, points: readonly TokenState[]): Promise<void> {
  if (points.length === 0) return;
  const params = columns(points, [
    ...STATE_COLUMNS,
    (p) => JSON.stringify(ledgerToAux(p.ledger)),
  ]);
  await tx.query(
    `INSERT INTO price_points (token_key, block_number, time, price, liquidity, total_supply, circulating_supply, total_borrow, reserves,
       price_per_share, apy, base_apy, reward_apy, borrow_apy, base_borrow_apy, aux)
     SELECT k, b, to_timestamp(t), p, l, ts::numeric, cs::numeric, tb::numeric, r::numeric[], pps, a, ba, ra, bo, bbo, x::jsonb
     FROM unnest($1::text[], $2::bigint[], $3::float8[], $4::float8[], $5::float8[], $6::text[], $7::text[], $8::text[], $9::text[],
       $10::text[], $11::float8[], $12::float8[], $13::float8[], $14::float8[], $15::float8[], $16::text[])
       AS u(k, b, t, p, l, ts, cs, tb, r, pps, a, ba, ra, bo, bbo, x)
     ON CONFLICT (token_key, block_number) DO UPDATE SET time = EXCLUDED.time, price = EXCLUDED.price, liquidity = EXCLUDED.liquidity,
       total_supply = EXCLUDED.total_supply, circulating_supply = EXCLUDED.circulating_supply, total_borrow = EXCLUDED.total_borrow,
       reserves = EXCLUDED.reserves, price_per_share = EXCLUDED.price_per_share, apy = EXCLUDED.apy, base_apy = EXCLUDED.base_apy,
       reward_apy = EXCLUDED.reward_apy, borrow_apy = EXCLUDED.borrow_apy, base_borrow_apy = EXCLUDED.base_borrow_apy, aux = EXCLUDED.aux`,
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
export async function loadSharePricesSince(tx: SqlTx, tokenKeys: readonly string[], from: number, beforeBlock: number): Promise<Array<{ token_key: string; time: number; pps: number }>> {
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
