import { loadServiceConfig } from '@tokensvc/config';
import { TokenRecordCache, type VersionedTokenRow } from './token-records';
import { toToken } from './token-row';

const at = new Date('2026-01-02T03:04:05.000Z');
const PATH = '/images/tokens/ethereum/0x00000000000000000000000000000000000000aa.svg';
const ROW: VersionedTokenRow = {
  key: 'ethereum:0x00000000000000000000000000000000000000aa',
  network: 'ethereum',
  address: '0x00000000000000000000000000000000000000aa',
  platform: 'basic',
  family: 'basic',
  name: 'A',
  symbol: 'A',
  decimals: 18,
  underlying: [],
  pool_address: null,
  image: PATH,
  images: [],
  tags: [],
  metadata: {},
  is_portable: false,
  is_verified: true,
  created_at: at,
  updated_at: at,
  verified_at: at,
  history_from_block: null,
  price: 1,
  liquidity: 1,
  total_supply: '1',
  total_borrow: '0',
  circulating_supply: '1',
  reserves: [],
  price_per_share: '1',
  apy: 0,
  base_apy: 0,
  reward_apy: 0,
  borrow_apy: 0,
  base_borrow_apy: 0,
  volume_usd_1d: 0,
  volume_usd_7d: 0,
  paid_metrics: {},
  version: '1',
};

const baseOf = (env: Record<string, string>): string => loadServiceConfig('token-data', env).imageBaseUrl ?? '';

describe('token image URLs', () => {
  it('stay relative (served by the gateway) without PUBLIC_BASE_URL or IMAGE_CDN_BASE_URL', () => {
    const t = toToken(ROW, baseOf({}));
    expect([t.image, t.images]).toEqual([PATH, [PATH]]);
  });

  it('are absolute under PUBLIC_BASE_URL, and under IMAGE_CDN_BASE_URL when both are set', () => {
    const pub = toToken(ROW, baseOf({ PUBLIC_BASE_URL: 'https://api.example.com/' }));
    expect([pub.image, pub.images]).toEqual([`https://api.example.com${PATH}`, [`https://api.example.com${PATH}`]]);
    const cdnBase = baseOf({ PUBLIC_BASE_URL: 'https://api.example.com', IMAGE_CDN_BASE_URL: 'https://cdn.example.net/tokensvc' });
    expect(toToken(ROW, cdnBase).image).toBe(`https://cdn.example.net/tokensvc${PATH}`);
    // the cached records of /v2/account use the same base
    expect(new TokenRecordCache(10, 60_000, Date.now, cdnBase).put(ROW).token.images).toEqual([`https://cdn.example.net/tokensvc${PATH}`]);
  });

  it('leaves an image that is already absolute alone', () => {
    expect(toToken({ ...ROW, image: 'https://logos.example.org/a.png' }, 'https://cdn.example.net').image).toBe(
      'https://logos.example.org/a.png',
    );
  });

  it('refuses a base that is not an http(s) URL', () => {
    expect(() => loadServiceConfig('token-data', { IMAGE_CDN_BASE_URL: 'ftp://cdn' })).toThrow(
      /IMAGE_CDN_BASE_URL must use http: or https:/,
    );
  });
});
