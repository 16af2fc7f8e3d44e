import { readFileSync } from 'node:fs';
import { SHIPPED_REGISTRY_FILE, type ShippedRegistry } from '@tokensvc/chain';
import { NETWORK_INFO } from '@tokensvc/domain';
import { CURATED_VAULTS } from './choices';
import { deriveRegistry } from './derive';
import { registryDiff, registryText } from './registry-text';
import { loadSources, packageVersion, PACKAGES, type Sources } from './sources';

const sources: Sources = loadSources();
const committedText = readFileSync(SHIPPED_REGISTRY_FILE, 'utf8');

describe('registry drift against its source packages', () => {
  it('re-derives the committed registry from the installed packages, byte for byte (else npm run registry:gen)', () => {
    const derived = deriveRegistry(sources);
    // the differing entries first, so a failure names them
    expect(registryDiff(JSON.parse(committedText), derived)).toEqual([]);
    expect(registryText(derived)).toBe(committedText);
  });

  it('is deterministic: a second derivation gives the same text', () => {
    expect(registryText(deriveRegistry(loadSources()))).toBe(registryText(deriveRegistry(sources)));
  });

  it('records the installed version of every package it read', () => {
    const committed = JSON.parse(committedText) as ShippedRegistry;
    for (const name of Object.values(PACKAGES)) expect(committed.packages[name]).toBe(packageVersion(name));
  });

  it('names the entry that drifted when a package moves an address', () => {
    const moved: Sources = {
      ...sources,
      uniswap: {
        ...sources.uniswap,
        V2_FACTORY_ADDRESSES: {
          ...sources.uniswap.V2_FACTORY_ADDRESSES,
          [NETWORK_INFO.base.chainId]: '0x000000000000000000000000000000000000dEaD',
        },
      },
    };
    const diff = registryDiff(JSON.parse(committedText), deriveRegistry(moved));
    expect(diff).toHaveLength(1);
    expect(diff[0]).toMatch(
      /^networks\.base\.platforms\[\d+\]\.addresses\.factory\.address: "0x8909Dc15e40173Ff4699343b6eB8132c65e18eC6" -> "0x000000000000000000000000000000000000dEaD"$/,
    );
  });

  it('names a version bump of a package on every entry read from it', () => {
    const bumped: Sources = { ...sources, versions: { ...sources.versions, sushi: '99.0.0' } };
    const diff = registryDiff(JSON.parse(committedText), deriveRegistry(bumped));
    expect(diff).toContain('packages.sushi: "7.3.15" -> "99.0.0"');
    expect(
      diff.some((d) => /^networks\.ethereum\.platforms\[\d+\]\.addresses\.router\.source\.version: "7\.3\.15" -> "99\.0\.0"$/.test(d)),
    ).toBe(true);
  });

  it('fails generation when two packages disagree on a wrapped native token', () => {
    const weth9 = sources.uniswap.WETH9 as Record<number, unknown>;
    const wrong: Sources = {
      ...sources,
      uniswap: {
        ...sources.uniswap,
        WETH9: {
          ...weth9,
          [1]: { address: '0x000000000000000000000000000000000000dEaD', symbol: 'WETH', name: 'Wrapped Ether', decimals: 18 },
        } as unknown as Sources['uniswap']['WETH9'],
      },
    };
    expect(() => deriveRegistry(wrong)).toThrow("the packages disagree on ethereum's wrapped native token");
  });

  it('keeps every curated vault traceable: a curation note and a package path', () => {
    const committed = JSON.parse(committedText) as ShippedRegistry;
    for (const v of CURATED_VAULTS) {
      const platform = committed.networks[v.network]?.platforms.find((p) => p.slug === 'erc4626-vaults');
      const entry = (
        platform?.addresses['vaults'] as ReadonlyArray<{ label?: string; source: { path: string; curation?: string } }> | undefined
      )?.find((a) => a.label === v.asset);
      expect(entry?.source.curation).toBe(v.curation);
      expect(entry?.source.path).toMatch(new RegExp(`\\.ASSETS\\.${v.asset}\\.UNDERLYING$`));
    }
  });
});
