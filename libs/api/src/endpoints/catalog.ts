import { Type } from '@sinclair/typebox';
import { endpoint } from '../endpoint';
import { Balance, Platform } from '../models/token';
import { FINALITIES, Health } from '../models/common';
import { ignoringUnknown, query } from '../schema/query';
import { q } from '../schema/values';

export const listNetworks = endpoint({
  method: 'GET',
  path: '/v1/networks',
  summary: 'Supported networks',
  tag: 'Catalog',
  access: 'data',
  query: query({}),
  response: Type.Array(Type.String({ description: 'network identifier' })),
});

export const listPlatforms = endpoint({
  method: 'GET',
  path: '/v2/platforms',
  summary: 'Enabled platforms',
  tag: 'Catalog',
  access: 'data',
  query: query({
    type: q
      .string({
        maxLength: 64,
        pattern: /^[a-z0-9][a-z0-9._-]*$/,
        hint: 'a platform type (family such as uniswap-v2, or category such as dex)',
      })
      .describe('filter by platform type'),
  }),
  response: Type.Array(Platform),
});

export const account = endpoint({
  method: 'GET',
  path: '/v2/account',
  summary: 'Non-zero ERC-20 and native balances of an address',
  tag: 'Account',
  access: 'data',
  query: query({
    owner: q.address().required().describe('wallet or contract address'),
    networks: q.list(q.network(), 'both', 12).required().describe('repeat the parameter for several networks'),
    limit: q.string().ignore(),
    page: q.string().ignore(),
    finality: q
      .oneOf(FINALITIES)
      .describe(
        '`finalized`: figures as of the last finalized block of each network (no reorg shallower than the finality depth changes them); `latest`: as of the latest indexed block',
      ),
  }),
  response: Type.Object({ totalQueried: Type.Optional(Type.Number()), balances: Type.Array(Balance) }),
  tokenLists: ['balances'],
});

export const health = endpoint({
  method: 'GET',
  path: '/health',
  summary: 'Liveness',
  tag: 'Health',
  access: 'public',
  // Any query (a monitor's cache-buster) is ignored: a liveness probe must not fail on one.
  query: ignoringUnknown(query({})),
  response: Health,
});
