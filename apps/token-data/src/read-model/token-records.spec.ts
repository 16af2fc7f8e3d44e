import { TokenRecordCache, type VersionedTokenRow } from './token-records';
import { toToken } from './token-row';

const at = new Date('2026-01-02T03:04:05.000Z');
function row(key: string, version: string, price = 1.5): VersionedTokenRow {
  const [network, address] = key.split(':') as [string, string];
  return {
    key,
    network,
    address,
    platform: 'basic',
    family: 'basic',
    name: `Token ${key}`,
    symbol: 'TKN',
    decimals: 18,
    underlying: [],
    pool_address: null,
    image: '',
    images: [],
    tags: ['defi'],
    metadata: {},
    is_portable: false,
    is_verified: true,
    created_at: at,
    updated_at: at,
    verified_at: at,
    history_from_block: null,
    price,
    liquidity: 10,
    total_supply: '1000',
    total_borrow: '0',
    circulating_supply: '900',
    reserves: [],
    price_per_share: '1',
    apy: 1,
    base_apy: 0.5,
    reward_apy: 0.5,
    borrow_apy: 0,
    base_borrow_apy: 0,
    volume_usd_1d: 2,
    volume_usd_7d: 14,
    paid_metrics: { price1d: 1.4 },
    version,
  };
}

describe('TokenRecordCache', () => {
  it('answers a record only for the row version it was built from', () => {
    const cache = new TokenRecordCache(10, 60_000);
    const built = cache.put(row('ethereum:0x01', '100'));
    expect(built.token).toEqual(toToken(row('ethereum:0x01', '100')));
    expect(built.family).toBe('basic');
    expect(cache.get('ethereum:0x01', '100')).toBe(built);
    // the row was written again (a new xmin): the old record is never served, and is dropped
    expect(cache.get('ethereum:0x01', '101')).toBeUndefined();
    expect(cache.get('ethereum:0x01', '100')).toBeUndefined();
    expect(cache.get('base:0x01', '100')).toBeUndefined();
  });

  it('rebuilds a record whose row changed', () => {
    const cache = new TokenRecordCache(10, 60_000);
    cache.put(row('ethereum:0x01', '100', 1.5));
    const rebuilt = cache.put(row('ethereum:0x01', '205', 2.5));
    expect(cache.get('ethereum:0x01', '205')).toBe(rebuilt);
    expect(rebuilt.token.price).toBe(2.5);
    expect(cache.size).toBe(1);
  });

  it('drops the least recently used record when full', () => {
    const cache = new TokenRecordCache(2, 60_000);
    cache.put(row('ethereum:0x01', '1'));
    cache.put(row('ethereum:0x02', '1'));
    expect(cache.get('ethereum:0x01', '1')).toBeDefined();
    cache.put(row('ethereum:0x03', '1'));
    expect(cache.size).toBe(2);
    expect(cache.get('ethereum:0x02', '1')).toBeUndefined();
    expect(cache.get('ethereum:0x01', '1')).toBeDefined();
    expect(cache.get('ethereum:0x03', '1')).toBeDefined();
  });

  it('rebuilds records older than maxAgeMs even at the same version', () => {
    let now = 1_000;
    const cache = new TokenRecordCache(10, 500, () => now);
    cache.put(row('ethereum:0x01', '7'));
    now += 500;
    expect(cache.get('ethereum:0x01', '7')).toBeDefined();
    now += 1;
    expect(cache.get('ethereum:0x01', '7')).toBeUndefined();
  });
});
