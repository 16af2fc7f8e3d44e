import { PLATFORM_FAMILIES, type PlatformDefinition } from '@tokensvc/domain';
import { PROTOCOLS, checkPlatformOptions, dexOf, tokenRoleOf } from './registry';
import { UNISWAP_V2_EVENTS } from './uniswap-v2/events';

const platform = (family: PlatformDefinition['family'], options?: PlatformDefinition['options']): PlatformDefinition => ({
  network: 'ethereum',
  slug: 'pancakeswap',
  name: 'PancakeSwap',
  image: '',
  family,
  category: 'dex',
  addresses: { factory: '0x00000000000000000000000000000000000000f0' },
  ...(options ? { options } : {}),
});

describe('protocol modules', () => {
  it('registers one module per platform family, under its own name', () => {
    expect(Object.keys(PROTOCOLS).sort()).toEqual([...PLATFORM_FAMILIES].sort());
    for (const f of PLATFORM_FAMILIES) expect(PROTOCOLS[f].family).toBe(f);
  });

  it('names the DEX families by their pools shape and their token roles from what they issue', () => {
    expect(dexOf('uniswap-v2')?.shape).toBe('constant-product');
    expect(dexOf('uniswap-v3')?.shape).toBe('concentrated');
    expect(dexOf('uniswap-v4')?.shape).toBe('concentrated');
    expect(dexOf('erc4626')).toBeUndefined();
    expect(dexOf('curve')).toBeUndefined();
    expect(PLATFORM_FAMILIES.map((f) => tokenRoleOf(f))).toEqual(['native', 'basic', 'lp', 'other', 'other', 'vault', 'atoken']);
    expect(tokenRoleOf('curve')).toBe('other');
  });

  it("takes a near-fork's fee as a platform option: the pairs it discovers carry it", () => {
    expect(() => checkPlatformOptions([platform('uniswap-v2', { fee: 2500 })])).not.toThrow();
    const log = {
      address: '0x00000000000000000000000000000000000000f0',
      topics: [UNISWAP_V2_EVENTS.v2PairCreated, `0x${'0'.repeat(24)}${'a'.repeat(40)}`, `0x${'0'.repeat(24)}${'b'.repeat(40)}`],
      data: `0x${'0'.repeat(24)}${'c'.repeat(40)}${'0'.repeat(63)}1`,
      blockNumber: 7,
      blockHash: '0x',
      logIndex: 0,
      transactionHash: '0x',
    };
    const discover = PROTOCOLS['uniswap-v2'].indexer.discoveryHandlers[UNISWAP_V2_EVENTS.v2PairCreated]!;
    const pool = (options?: PlatformDefinition['options']) =>
      discover(log, { address: log.address, platform: 'pancakeswap', family: 'uniswap-v2', options }).find((d) => d.kind === 'pool');
    expect(pool({ fee: 2500 })).toMatchObject({ pool: { address: `0x${'c'.repeat(40)}`, fee: 2500 } });
    expect(pool()).toMatchObject({ pool: { fee: 3000 } });
  });

  it('refuses an option the family does not take, or a value its check refuses, naming the platform', () => {
    expect(() => checkPlatformOptions([platform('uniswap-v2', { fee: 0 })])).toThrow(
      /platform pancakeswap on ethereum: option fee .* must be an integer between 1 and 999999; got 0/,
    );
    expect(() => checkPlatformOptions([platform('uniswap-v2', { fee: '2500' })])).toThrow(/got "2500"/);
    expect(() => checkPlatformOptions([platform('uniswap-v2', { feeBps: 25 })])).toThrow(
      /uniswap-v2 has no option feeBps \(its options: fee\)/,
    );
    expect(() => checkPlatformOptions([platform('uniswap-v3', { fee: 2500 })])).toThrow(/uniswap-v3 has no option fee \(it takes none\)/);
  });
});
