import { PAID_METRIC_FIELDS } from '@tokensvc/api';
import { decimalString, paidMetricsOfPoints, type MetricPoints, type MetricSnapshot } from '@tokensvc/domain';
import type { Token, TokenMetrics } from '@tokensvc/messages';
import { stateColumnsSelect, type TokenTableRow } from '@tokensvc/persistence';

/** Columns of `tokens` that make a Token record (the /v2/tokens read model). */
export const TOKEN_COLUMNS = `t.key, t.network, t.address, t.platform, t.family, t.name, t.symbol, t.decimals, t.underlying,
  t.pool_address, t.image, t.images, t.tags, t.metadata, t.is_portable, t.is_verified, t.created_at, t.updated_at,
  t.verified_at, ${stateColumnsSelect('t')}, t.volume_usd_1d, t.volume_usd_7d, t.paid_metrics, t.history_from_block::text AS history_from_block`;

/** A row of TOKEN_COLUMNS: the `tokens` row but for the indexer's bookkeeping blocks. */
export type TokenRow = Omit<TokenTableRow, 'created_block' | 'state_block'>;

/** A stored or computed figure (a number, or a numeric column read as text) as the interface's metric string. */
export function metricString(value: unknown): string {
  return decimalString(typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN);
}

function stringMap(value: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) out[k] = typeof v === 'string' ? v : JSON.stringify(v);
  return out;
}

/** `underlying` holds token keys or bare addresses; the spec's `tokens` field lists addresses. */
function underlyingAddress(entry: string): string {
  const sep = entry.indexOf(':');
  return (sep < 0 ? entry : entry.slice(sep + 1)).toLowerCase();
}

export function toMetrics(row: TokenRow): TokenMetrics {
  const metrics: TokenMetrics = {
    apy: metricString(row.apy),
    baseApy: metricString(row.base_apy),
    rewardApy: metricString(row.reward_apy),
    borrowApy: metricString(row.borrow_apy),
    baseBorrowApy: metricString(row.base_borrow_apy),
    volumeUsd1d: metricString(row.volume_usd_1d),
    volumeUsd7d: metricString(row.volume_usd_7d),
  };
  const asOf = row.paid_metrics['asOf'] as (MetricPoints & { now: MetricSnapshot }) | undefined;
  // a row as of the finalized block carries the points its metrics compare with (finality/tokens-as-of.ts)
  const paid: Record<string, unknown> = asOf ? paidMetricsOfPoints(asOf.now, asOf) : row.paid_metrics;
  for (const name of PAID_METRIC_FIELDS) metrics[name] = metricString(paid[name]);
  return metrics;
}

/** A stored image path (`/images/tokens/...svg`) under the configured base (CDN or public URL); absolute URLs stay. */
export function imageUrl(path: string, imageBase: string): string {
  return imageBase && path.startsWith('/') ? `${imageBase}${path}` : path;
}

/** The spec's Token record of a row; `imageBase` prefixes the stored image paths (config.imageBaseUrl). */
export function toToken(row: TokenRow, imageBase = ''): Token {
  const images = (row.images.length > 0 ? row.images : row.image ? [row.image] : []).map((p) => imageUrl(p, imageBase));
  return {
    key: row.key,
    name: row.name,
    decimals: row.decimals,
    symbol: row.symbol,
    address: row.address,
    addresses: { [row.network]: row.address },
    platform: row.platform,
    network: row.network,
    price: row.price,
    images,
    updatedAt: row.updated_at.toISOString(),
    createdAt: row.created_at.toISOString(),
    // the spec wants a date in every record: a token not verified by the registry (isVerified false)
    // carries the time the indexer first read and checked its contract
    verifiedAt: (row.verified_at ?? row.created_at).toISOString(),
    tokens: row.underlying.map(underlyingAddress),
    poolAddress: row.pool_address ?? '',
    liquidity: row.liquidity,
    metrics: toMetrics(row),
    metadata: stringMap({ family: row.family, tags: row.tags.join(','), verified: row.is_verified, ...row.metadata }),
    image: row.image ? imageUrl(row.image, imageBase) : (images[0] ?? ''),
    banner: '',
    customCmsImageUrl: '',
    totalSupply: row.total_supply,
    totalBorrow: row.total_borrow,
    circulatingSupply: row.circulating_supply,
    reserves: row.reserves,
    pricePerShare: row.price_per_share,
    isClaimed: false,
    isPortable: row.is_portable,
    historyFromBlock: row.history_from_block ?? undefined,
  };
}
