import type { Discovery } from '../model/registry.types';
import { discoveriesInScope, type PoolScope } from './scope';

const A = '0x' + 'a'.repeat(40);
const B = '0x' + 'b'.repeat(40);
const X = '0x' + 'c'.repeat(40);
const underlying = (address: string): Discovery => ({
  kind: 'token',
  token: { address, platform: 'basic', family: 'basic', underlying: [], poolAddress: null, listed: false, metadata: {} },
});
const pair = (t0: string, t1: string): Discovery[] => [
  underlying(t0),
  underlying(t1),
  {
    kind: 'pool',
    pool: {
      address: '0x' + '1'.repeat(40),
      platform: 'uniswap-v2',
      family: 'uniswap-v2',
      token0: t0,
      token1: t1,
      fee: 3000,
      tickSpacing: null,
      createdBlock: 5,
    },
  },
  {
    kind: 'token',
    token: {
      address: '0x' + '1'.repeat(40),
      platform: 'uniswap-v2',
      family: 'uniswap-v2',
      underlying: [t0, t1],
      poolAddress: '0x' + '1'.repeat(40),
      listed: false,
      metadata: {},
    },
  },
];
const aToken = (asset: string): Discovery[] => [
  underlying(asset),
  {
    kind: 'token',
    token: {
      address: '0x' + '2'.repeat(40),
      platform: 'aave-v3',
      family: 'aave-v3',
      underlying: [asset],
      poolAddress: null,
      listed: false,
      metadata: {},
    },
  },
];

describe('pool scope (INDEXER_POOLS)', () => {
  const listed: PoolScope = { mode: 'listed', listed: new Set([A, B]) };

  it('listed: keeps a pool of two listed tokens with its LP token, drops one with an unlisted token whole', () => {
    expect(discoveriesInScope(listed, pair(A, B))).toHaveLength(4);
    expect(discoveriesInScope(listed, pair(A, X))).toEqual([]);
    expect(discoveriesInScope(listed, pair(X, B))).toEqual([]);
  });

  it('listed: an aToken only for a listed asset', () => {
    expect(discoveriesInScope(listed, aToken(A))).toHaveLength(2);
    expect(discoveriesInScope(listed, aToken(X))).toEqual([]);
  });

  it('all: everything', () => {
    const all: PoolScope = { mode: 'all', listed: new Set() };
    expect(discoveriesInScope(all, pair(A, X))).toHaveLength(4);
    expect(discoveriesInScope(all, aToken(X))).toHaveLength(2);
  });
});
