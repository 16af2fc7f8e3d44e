import { s, type Static } from '../schema/shape';
import { BlockLabel } from './common';

/** Token metrics visible to every tier. */
export const PUBLIC_METRIC_FIELDS = ['apy', 'baseApy', 'rewardApy', 'borrowApy', 'baseBorrowApy', 'volumeUsd1d', 'volumeUsd7d'] as const;

/** Token metrics visible to the paid tier only (removed from token records for free keys). */
export const PAID_METRIC_FIELDS = [
  'price1d', 'price7d', 'liquidity1d', 'liquidity7d', 'apy1d', 'apy7d', 'borrowApy1d', 'borrowApy7d',
  'liquidityDelta1d', 'liquidityDelta7d', 'priceDelta1d', 'priceDelta7d', 'apyDelta1d', 'apyDelta7d', 'borrowApyDelta1d', 'borrowApyDelta7d',
] as const;

export type PublicMetricField = (typeof PUBLIC_METRIC_FIELDS)[number];
export type PaidMetricField = (typeof PAID_METRIC_FIELDS)[number];

export const TokenMetrics = s.named(
  'TokenMetrics',
  s.object(
    {
      ...(Object.fromEntries(PUBLIC_METRIC_FIELDS.map((f) => [f, s.string()])) as Record<PublicMetricField, ReturnType<typeof s.string>>),
      ...(Object.fromEntries(PAID_METRIC_FIELDS.map((f) => [f, s.optional(s.string({ description: 'paid tier only' }))])) as Record<PaidMetricField, ReturnType<typeof s.optional<string>>>),
    },
    { description: 'All values are strings. The paid-tier fields are absent for free keys.' },
  ),
);

/** The fields of a token record (shared with the balance record, which adds three). */
export const TOKEN_PROPS = {
  key: s.string({ description: '<network>:<address>, lowercase', example: 'ethereum:0x0000000000000000000000000000000000000000' }),
  name: s.string(),
  decimals: s.number(),
  symbol: s.string(),
  address: s.string(),
  addresses: s.anyObject(),
  platform: s.string({ description: 'platform slug; `native` and `basic` for those token types' }),
  network: s.string({ description: 'network enum' }),
  price: s.number({ description: 'USD' }),
  images: s.array(s.string()),
  updatedAt: s.dateTime(),
  createdAt: s.dateTime(),
  verifiedAt: s.dateTime(),
  tokens: s.array(s.string(), { description: 'underlying token addresses of a composed token' }),
  poolAddress: s.string(),
  liquidity: s.number({ description: 'USD TVL' }),
  metrics: TokenMetrics,
  metadata: s.anyObject(),
  image: s.string(),
  banner: s.string(),
  customCmsImageUrl: s.string(),
  totalSupply: s.string(),
  totalBorrow: s.string(),
  circulatingSupply: s.string(),
  reserves: s.array(s.string()),
  pricePerShare: s.string(),
  isClaimed: s.boolean(),
  isPortable: s.boolean(),
  block: BlockLabel,
  historyFromBlock: s.nullable(
    s.integer({
      description:
        "the first block whose events this token's balances, holders, activity and history include, when that is not the token's creation (its network was indexed from a later start block, or it was found or listed mid-history): balances and holders are then net transfers since this block, activity and history start there. null: indexed since its creation",
    }),
  ),
};

export const Token = s.named('Token', s.object(TOKEN_PROPS));
export type Token = Static<typeof Token>;

export const Balance = s.named(
  'Balance',
  s.object({ ...TOKEN_PROPS, balance: s.number(), balanceUSD: s.number(), rawBalance: s.string({ description: 'base units' }) }),
);
export type Balance = Static<typeof Balance>;

export const Platform = s.named('Platform', s.object({ platform: s.string(), name: s.string(), image: s.string(), network: s.string() }));
export type Platform = Static<typeof Platform>;
