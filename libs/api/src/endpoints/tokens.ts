import { Type } from '@sinclair/typebox';
import { endpoint } from '../endpoint';
import { BlockLabel, FINALITIES, PAGE_PROPS } from '../models/common';
import { Activity, DailyDebtFlow, DailyVolume, HistoryEntry, Holder, IntervalVolumeMetrics, METRIC_WINDOWS } from '../models/market';
import { Token } from '../models/token';
import { ordered, query, requiresWith } from '../schema/query';
import { nullable, stringRecord } from '../schema/types';
import { q } from '../schema/values';
import { platformSlug, tokenId } from './params';

const SORT_BY = [
  'key',
  'decimals',
  'name',
  'symbol',
  'updatedAt',
  'price',
  'liquidity',
  'platform',
  'network',
  'apy',
  'volumeUsd1d',
  'volumeUsd7d',
  'createdAt',
  'verifiedAt',
] as const;
const YEAR_S = 365 * 24 * 3600;
const TAG = 'Tokens';

export const listTokens = endpoint({
  method: 'GET',
  path: '/v2/tokens',
  summary: 'List supported tokens',
  description: 'Filter types combine with AND; array-valued filters combine their elements with OR.',
  tag: TAG,
  access: 'data',
  query: query(
    {
      search: q.string({ maxLength: 128 }).describe('matches token name'),
      ids: q.list(q.tokenKey(), 'comma', 250).describe('comma-separated token keys'),
      platforms: q.list(platformSlug(), 'both', 100).describe('platform slugs (see GET /v2/platforms)'),
      networks: q.list(q.network(), 'both', 12).describe('networks; default all'),
      minLiquidity: q.number({ min: 0 }).describe('USD, for pools'),
      maxLiquidity: q.number({ min: 0 }).describe('USD, for pools'),
      sortBy: q.oneOf(SORT_BY).describe('default: internal id order'),
      sortDirection: q.oneOf(['asc', 'desc'] as const).default('asc'),
      limit: q.int({ min: 1, max: 250 }).default(25),
      page: q.int({ min: 0, max: 1_000_000 }).default(0).describe('`limit` must also be given when `page` is given'),
      tags: q.list(q.string({ maxLength: 64 }), 'comma', 20).describe('comma-separated'),
      minApy: q.number().describe('percent, for pools'),
      maxApy: q.number().default(1e6).describe('percent'),
      isPortable: q.boolean(),
      isVerified: q.boolean(),
      finality: q
        .oneOf(FINALITIES)
        .describe(
          '`finalized`: figures as of the last finalized block of each network (no reorg shallower than the finality depth changes them); `latest`: as of the latest indexed block',
        ),
    },
    requiresWith('page', 'limit'),
    ordered('minLiquidity', 'maxLiquidity'),
    ordered('minApy', 'maxApy'),
  ),
  response: Type.Object({ ...PAGE_PROPS, tokens: Type.Array(Token) }),
  tokenLists: ['tokens'],
});

export const tokenHistory = endpoint({
  method: 'GET',
  path: '/v2/tokens/history',
  summary: 'Price, liquidity and yield candles of a token (paid)',
  tag: TAG,
  access: 'data-paid',
  extraErrors: [404], // token-data: the token is not known
  query: query({
    id: tokenId(),
    from: q
      .int({ min: 0 })
      .refine((from) => {
        const now = Math.floor(Date.now() / 1000);
        if (from < now - YEAR_S) return 'the timestamp is not valid, must be newer than one year ago';
        if (from > now) return 'the timestamp is not valid, must not be in the future';
        return undefined;
      })
      .describe(
        'unix timestamp in seconds within the last year, not in the future; default 24 hours ago; truncated to the start of its resolution bucket',
      ),
    page: q.int({ min: 0, max: 1_000_000 }).default(0),
    resolution: q
      .oneOf(['15m', '30m', '1h', '4h', '1d'] as const)
      .default('1d')
      .describe('candle size (30m from a published variant)'),
    finality: q
      .oneOf(FINALITIES)
      .describe(
        '`finalized`: figures as of the last finalized block of each network (no reorg shallower than the finality depth changes them); `latest`: as of the latest indexed block',
      ),
  }),
  response: Type.Object({ ...PAGE_PROPS, history: Type.Array(HistoryEntry), block: BlockLabel }),
});

export const tokenTransactions = endpoint({
  method: 'GET',
  path: '/v3/tokens/transactions',
  summary: 'Deposits, withdrawals, swaps, borrows and repays of a token over 24 hours (paid)',
  description: 'Cursor-paginated. Only platform tokens are supported.',
  tag: TAG,
  access: 'data-paid',
  extraErrors: [404], // token-data: the token is not known
  query: query({
    id: tokenId(),
    cursor: q.string({ maxLength: 512, pattern: /^[A-Za-z0-9_\-=.:+/]+$/, hint: 'the opaque pageInfo.endCursor of the previous response' }),
    limit: q.int({ min: 1, max: 50 }).default(25),
  }),
  response: Type.Object({
    pageInfo: Type.Object({
      hasNextPage: Type.Boolean(),
      endCursor: nullable(Type.String({ description: 'null when hasNextPage is false' })),
    }),
    activities: Type.Array(Activity),
    dailyVolumes: Type.Optional(stringRecord(DailyVolume, { description: 'keyed by UTC date YYYY-MM-DD' })),
    dailyDebtFlow: Type.Optional(stringRecord(DailyDebtFlow, { description: 'keyed by UTC date YYYY-MM-DD; lending markets' })),
  }),
});

export const tokenMetrics = endpoint({
  method: 'GET',
  path: '/v3/tokens/metrics',
  summary: 'Volume metrics of a token over eight windows from 15m to 2d (paid)',
  description: 'Only platform tokens are supported. The change fields compare with the prior matching window.',
  tag: TAG,
  access: 'data-paid',
  extraErrors: [404], // token-data: the token is not known
  query: query({ id: tokenId() }),
  response: Type.Object(
    Object.fromEntries(METRIC_WINDOWS.map((w) => [w, IntervalVolumeMetrics])) as Record<
      (typeof METRIC_WINDOWS)[number],
      typeof IntervalVolumeMetrics
    >,
  ),
});

export const tokenHolders = endpoint({
  method: 'GET',
  path: '/v2/tokens/holders',
  summary: 'Holders of a token, by balance descending (paid, beta)',
  tag: TAG,
  access: 'data-paid',
  extraErrors: [404], // token-data: the token is not known
  beta: true,
  query: query(
    {
      id: tokenId(),
      limit: q.int({ min: 100, max: 1000 }).default(100),
      page: q.int({ min: 0, max: 1_000_000 }).default(0).describe('`limit` must also be given when `page` is given'),
      finality: q
        .oneOf(FINALITIES)
        .describe(
          '`finalized`: figures as of the last finalized block of each network (no reorg shallower than the finality depth changes them); `latest`: as of the latest indexed block',
        ),
    },
    requiresWith('page', 'limit'),
  ),
  response: Type.Object({
    ...PAGE_PROPS,
    totalSupply: Type.Number(),
    holders: Type.Array(Holder),
    block: BlockLabel,
    historyFromBlock: nullable(
      Type.Integer({
        description:
          "the token's historyFromBlock: when set, each balance is the holder's net transfers since that block (a holder that only sent since then is absent), not its balance",
      }),
    ),
  }),
});
