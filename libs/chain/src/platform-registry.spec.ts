import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPlatformRegistry, parsePlatforms } from './platform-registry';

describe('platform registry', () => {
  it('gives every enabled network the generic native and basic platforms', () => {
    const defs = loadPlatformRegistry(undefined, ['ethereum', 'base']);
    expect(defs.map((d) => `${d.network}/${d.slug}`)).toEqual(['ethereum/native', 'ethereum/basic', 'base/native', 'base/basic']);
  });

  it('reads platforms per network from a manifest, so a fork is a config entry', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'reg-')), 'm.json');
    writeFileSync(
      path,
      JSON.stringify({
        networks: {
          ethereum: {
            platforms: [
              { slug: 'uniswap-v2', name: 'Uniswap V2', family: 'uniswap-v2', addresses: { factory: '0xAB' } },
              { slug: 'sushiswap', name: 'SushiSwap', family: 'uniswap-v2', addresses: { factory: '0xCD' } },
            ],
          },
          arbitrum: { platforms: [{ slug: 'aave-v3', name: 'Aave V3', family: 'aave-v3', addresses: {} }] },
        },
      }),
    );
    const defs = loadPlatformRegistry(path, ['ethereum']).filter((d) => d.family === 'uniswap-v2');
    expect(defs.map((d) => [d.slug, d.category, d.addresses['factory']])).toEqual([
      ['uniswap-v2', 'dex', '0xab'],
      ['sushiswap', 'dex', '0xcd'],
    ]);
  });

  it('also reads the devnet manifest shape (a list of networks)', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'reg-')), 'm.json');
    writeFileSync(
      path,
      JSON.stringify({
        networks: [{ network: 'base', platforms: [{ slug: 'aave-v3', name: 'Aave V3', family: 'aave-v3', addresses: { pool: '0xEE' } }] }],
      }),
    );
    const defs = loadPlatformRegistry(path, ['base']);
    expect(defs.map((d) => [d.slug, d.category])).toEqual([
      ['native', 'native'],
      ['basic', 'basic'],
      ['aave-v3', 'lending'],
    ]);
  });

  it("keeps a platform's scalar options (the family module checks their meaning) and refuses any other shape", () => {
    const [p] = parsePlatforms('bsc', [
      { slug: 'pancakeswap', name: 'PancakeSwap', family: 'uniswap-v2', addresses: { factory: '0xAB' }, options: { fee: 2500 } },
    ]);
    expect(p).toMatchObject({ slug: 'pancakeswap', family: 'uniswap-v2', addresses: { factory: '0xab' }, options: { fee: 2500 } });
    expect(parsePlatforms('bsc', [{ slug: 'u', name: 'U', family: 'uniswap-v2' }])[0]).not.toHaveProperty('options');
    expect(() => parsePlatforms('bsc', [{ slug: 'p', name: 'P', family: 'uniswap-v2', options: [2500] }])).toThrow(
      'platform p on bsc: options must be an object',
    );
    expect(() => parsePlatforms('bsc', [{ slug: 'p', name: 'P', family: 'uniswap-v2', options: { fee: { bps: 25 } } }])).toThrow(
      'platform p on bsc: option fee must be a string, a number or a boolean',
    );
  });

  it('rejects an entry without a known family, saying which are accepted', () => {
    expect(() => parsePlatforms('base', [{ slug: 'x', name: 'X', family: 'curve' }])).toThrow('one of native, basic, uniswap-v2');
  });
});
