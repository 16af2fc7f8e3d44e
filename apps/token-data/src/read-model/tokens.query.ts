import type { ListTokensRequest } from '@tokensvc/messages';

/** sortBy values of the spec mapped to columns; ties are broken by key so pages never overlap. */
export const SORT_COLUMNS: Readonly<Record<string, string>> = {
  key: 't.key',
  decimals: 't.decimals',
  name: 't.name',
  symbol: 't.symbol',
  updatedAt: 't.updated_at',
  price: 't.price',
  liquidity: 't.liquidity',
  platform: 't.platform',
  network: 't.network',
  apy: 't.apy',
  volumeUsd1d: 't.volume_usd_1d',
  volumeUsd7d: 't.volume_usd_7d',
  createdAt: 't.created_at',
  // the record shows created_at when the registry never verified the token (token-row.ts): sort by what is shown
  verifiedAt: 'coalesce(t.verified_at, t.created_at)',
};

export interface SqlQuery {
  where: string;
  orderBy: string;
  params: unknown[];
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Builds the WHERE / ORDER BY of GET /v2/tokens: filter types combine with AND, the elements of an
 * array filter with OR. Every value is a bind parameter.
 */
export function buildTokensQuery(req: ListTokensRequest): SqlQuery {
  const params: unknown[] = [];
  const conds: string[] = [];
  const bind = (v: unknown): string => {
    params.push(v);
    return `$${params.length}`;
  };
  if (req.search !== undefined && req.search !== '') conds.push(`lower(t.name) LIKE ${bind(`%${escapeLike(req.search.toLowerCase())}%`)}`);
  if (req.ids.length > 0) conds.push(`t.key = ANY(${bind(req.ids)}::text[])`);
  if (req.platforms.length > 0) conds.push(`t.platform = ANY(${bind(req.platforms)}::text[])`);
  if (req.networks.length > 0) conds.push(`t.network = ANY(${bind(req.networks)}::text[])`);
  if (req.minLiquidity !== undefined) conds.push(`t.liquidity >= ${bind(req.minLiquidity)}`);
  if (req.maxLiquidity !== undefined) conds.push(`t.liquidity <= ${bind(req.maxLiquidity)}`);
  if (req.minApy !== undefined) conds.push(`t.apy >= ${bind(req.minApy)}`);
  conds.push(`t.apy <= ${bind(req.maxApy ?? 1e6)}`);
  if (req.tags.length > 0) conds.push(`t.tags && ${bind(req.tags)}::text[]`);
  if (req.isPortable !== undefined) conds.push(`t.is_portable = ${bind(req.isPortable)}`);
  if (req.isVerified !== undefined) conds.push(`t.is_verified = ${bind(req.isVerified)}`);
  const dir = req.sortDirection === 'desc' ? 'DESC' : 'ASC';
  const column = req.sortBy !== undefined ? SORT_COLUMNS[req.sortBy] : undefined;
  if (req.sortBy !== undefined && column === undefined) throw new Error(`unknown sortBy ${req.sortBy}`);
  // Every sort column is NOT NULL (verifiedAt coalesces to created_at), so the default null order is
  // kept: it matches a plain btree scanned either way, which lets deep pages walk an index.
  const orderBy = column === undefined || column === 't.key' ? `t.key ${dir}` : `${column} ${dir}, t.key ${dir}`;
  return { where: conds.join(' AND '), orderBy, params };
}
