import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getAddress } from 'ethers';
import { NETWORK_INFO, NETWORKS, type Network } from '@tokensvc/domain';
import { loadManifestNetworks } from '../network-manifest';
import { loadPlatformRegistry } from '../platform-registry';
import { loadNetworkFacts, loadPlatforms } from './address-book';
import {
  loadRegistry,
  registryNetworks,
  registryPlatforms,
  SHIPPED_REGISTRY_FILE,
  type RegistrySource,
  type ShippedRegistry,
  type SourcedAddress,
} from './shipped-registry';

const registry = loadRegistry('shipped');
const REQUIRED: readonly Network[] = ['ethereum', 'arbitrum', 'base'];

/** Every sourced address of the file, with where it sits. */
function everyAddress(r: ShippedRegistry): Array<[string, SourcedAddress]> {
  const out: Array<[string, SourcedAddress]> = [];
  for (const [network, n] of Object.entries(r.networks)) {
    if (n === undefined) continue;
    out.push([`${network} multicall3`, n.multicall3]);
    if (n.wrappedNative) out.push([`${network} wrappedNative`, n.wrappedNative]);
    for (const t of [...n.tokens, ...n.bridge.tokens]) out.push([`${network} token ${t.symbol}`, t]);
    if (n.bridge.spokePool) out.push([`${network} across spokePool`, n.bridge.spokePool]);
    if (n.bridge.multicallHandler) out.push([`${network} across multicallHandler`, n.bridge.multicallHandler]);
    for (const p of n.platforms) {
      for (const [role, v] of Object.entries(p.addresses))
        (Array.isArray(v) ? v : [v]).forEach((a: SourcedAddress, i) => out.push([`${network} ${p.slug} ${role}.${i}`, a]));
      for (const m of p.markets ?? [])
        out.push(
          [`${network} ${p.slug} ${m.symbol} asset`, m.asset],
          [`${network} ${p.slug} ${m.symbol} aToken`, m.aToken],
          [`${network} ${p.slug} ${m.symbol} vToken`, m.variableDebtToken],
        );
    }
  }
  return out;
}

function tempFile(content: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'registry-')), 'r.json');
  writeFileSync(path, JSON.stringify(content));
  return path;
}

describe('shipped registry: sanity', () => {
  it('covers the 12 networks of the spec with their chain ids, block times and finality depths', () => {
    expect(Object.keys(registry.networks).sort()).toEqual([...NETWORKS].sort());
    for (const network of NETWORKS) {
      const n = registry.networks[network]!;
      expect([n.network, n.chainId, n.blockTimeMs, n.finalityDepth, n.nativeCurrency.symbol]).toEqual([
        network,
        NETWORK_INFO[network].chainId,
        NETWORK_INFO[network].blockTimeMs,
        NETWORK_INFO[network].finalityDepth,
        NETWORK_INFO[network].nativeSymbol,
      ]);
      expect(n.multicall3.address).toBe(getAddress('0xca11bde05977b3631167028862be2a173976ca11'));
    }
  });

  it.each(REQUIRED)('%s has every protocol family the service supports, the bridge and listed tokens', (network) => {
    const n = registry.networks[network]!;
    expect(n.platforms.map((p) => `${p.family}:${p.slug}`).sort()).toEqual(
      expect.arrayContaining([
        'aave-v3:aave-v3',
        'erc4626:aave-v3-static',
        'uniswap-v2:sushiswap',
        'uniswap-v2:uniswap-v2',
        'uniswap-v3:uniswap-v3',
      ]),
    );
    const roles = (slug: string): string[] => Object.keys(n.platforms.find((p) => p.slug === slug)!.addresses).sort();
    expect(roles('uniswap-v2')).toEqual(['factory', 'router']);
    expect(roles('sushiswap')).toEqual(['factory', 'router']);
    expect(roles('uniswap-v3')).toEqual(expect.arrayContaining(['factory', 'positionManager', 'quoter', 'swapRouter02']));
    expect(roles('aave-v3')).toEqual(['aclManager', 'dataProvider', 'oracle', 'pool', 'poolAddressesProvider', 'poolConfigurator']);
    expect(n.platforms.find((p) => p.slug === 'aave-v3')!.markets!.length).toBeGreaterThan(5);
    expect((n.platforms.find((p) => p.slug === 'aave-v3-static')!.addresses['vaults'] as SourcedAddress[]).length).toBeGreaterThan(0);
    expect(n.wrappedNative).not.toBeNull();
    expect(n.tokens.map((t) => t.symbol)).toEqual(expect.arrayContaining(['WETH', 'USDC', 'DAI']));
    expect(n.tokens.map((t) => t.address)).toContain(n.wrappedNative!.address);
    expect(n.bridge).toMatchObject({ protocol: 'across', supported: true });
    expect(n.bridge.tokens.length).toBeGreaterThan(0);
  });

  it('has only checksummed 0x + 40 hex addresses, each with its package, version and export path', () => {
    const all = everyAddress(registry);
    expect(all.length).toBeGreaterThan(500);
    for (const [where, a] of all) {
      expect([where, /^0x[0-9a-fA-F]{40}$/.test(a.address) && getAddress(a.address) === a.address]).toEqual([where, true]);
      const s: RegistrySource = a.source;
      expect([where, registry.packages[s.package]]).toEqual([where, s.version]);
      expect(s.path.length).toBeGreaterThan(0);
    }
  });

  it('has no duplicate platform slug on a network and no duplicate listed token', () => {
    for (const n of Object.values(registry.networks)) {
      const slugs = n!.platforms.map((p) => p.slug);
      expect(new Set(slugs).size).toBe(slugs.length);
      const tokens = n!.tokens.map((t) => t.address.toLowerCase());
      expect(new Set(tokens).size).toBe(tokens.length);
    }
  });

  it('says what no package provides instead of leaving it blank', () => {
    expect(registry.networks.flare!.wrappedNative).toBeNull();
    expect(registry.networks.flare!.missing.join('\n')).toContain('wrapped native');
    for (const network of ['sonic', 'flare'] as const) {
      expect(registry.networks[network]!.bridge.spokePool).toBeNull();
      expect(registry.networks[network]!.bridge.missing).toContain(`has no SpokePool on chain ${NETWORK_INFO[network].chainId}`);
    }
  });

  it.each(REQUIRED)("%s has Across's SpokePool and MulticallHandler from @across-protocol/contracts' deployment book", (network) => {
    const b = registry.networks[network]!.bridge;
    expect(b.spokePool?.source).toMatchObject({
      package: '@across-protocol/contracts',
      path: expect.stringContaining(`chains["${NETWORK_INFO[network].chainId}"].contracts.SpokePool.address`),
    });
    expect(b.multicallHandler?.source.package).toBe('@across-protocol/contracts');
    expect(b.spokePoolFromBlock).toBeGreaterThan(0);
    expect(b.missing).toBeUndefined();
  });
});

describe('shipped registry: what the apps get', () => {
  /** The registry written as a devnet-style manifest, read by the devnet path the apps use today. */
  function asManifest(r: ShippedRegistry): string {
    return tempFile({
      networks: Object.fromEntries(
        Object.entries(r.networks).map(([network, n]) => [
          network,
          {
            weth: n!.wrappedNative?.address,
            tokens: n!.tokens.map((t) => ({ address: t.address })),
            platforms: n!.platforms.map((p) => ({
              slug: p.slug,
              name: p.name,
              family: p.family,
              addresses: Object.fromEntries(
                Object.entries(p.addresses).map(([k, v]) => [
                  k,
                  Array.isArray(v) ? v.map((a: SourcedAddress) => a.address) : (v as SourcedAddress).address,
                ]),
              ),
            })),
          },
        ]),
      ),
    });
  }

  it('gives exactly the PlatformDefinitions a manifest with the same addresses gives', () => {
    const enabled: Network[] = ['ethereum', 'arbitrum', 'base', 'flare'];
    const fromRegistry = registryPlatforms(registry, enabled);
    expect(fromRegistry).toEqual(loadPlatformRegistry(asManifest(registry), enabled));
    const v3 = fromRegistry.find((p) => p.network === 'base' && p.slug === 'uniswap-v3')!;
    expect(v3).toMatchObject({
      family: 'uniswap-v3',
      category: 'dex',
      addresses: { factory: '0x33128a8fc17869897dce68ed026d694621f6fdfd' },
    });
    // the devnet's `router` role is the original SwapRouter's ABI: the package's SwapRouter02 is not passed off as it
    expect(v3.addresses['router']).toBeUndefined();
    const stata = fromRegistry.find((p) => p.network === 'ethereum' && p.slug === 'aave-v3-static')!;
    expect(Object.keys(stata.addresses).every((k) => /^vaults\.\d+$/.test(k))).toBe(true);
    expect(fromRegistry.filter((p) => p.network === 'flare').map((p) => p.slug)).toEqual(['native', 'basic']);
  });

  it('gives the listed tokens and wrapped native exactly as a manifest does (lowercase), without a deploy block', () => {
    const facts = registryNetworks(registry);
    const manifest = loadManifestNetworks(asManifest(registry));
    for (const network of NETWORKS) expect(facts.get(network)).toEqual({ ...manifest.get(network)!, deployBlock: undefined });
    expect(facts.get('base')!.wrappedNative).toBe('0x4200000000000000000000000000000000000006');
    expect(facts.get('ethereum')!.tokens).toContain('0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48');
  });

  it('uses the registry only without a devnet manifest, and only when asked', () => {
    const manifest = tempFile({
      networks: [
        {
          network: 'base',
          weth: '0x00000000000000000000000000000000000000AA',
          tokens: [],
          platforms: [{ slug: 'uniswap-v2', name: 'Uniswap V2', family: 'uniswap-v2', addresses: { factory: '0xBB' } }],
        },
      ],
    });
    expect(loadPlatforms({ devnetManifest: undefined }, ['base']).map((p) => p.slug)).toEqual(['native', 'basic']);
    const shipped = ['native', 'basic', 'aave-v3', 'aave-v3-static', 'sushiswap', 'uniswap-v2', 'uniswap-v3', 'uniswap-v4'];
    expect(loadPlatforms({ devnetManifest: undefined, registry: 'shipped' }, ['base']).map((p) => p.slug)).toEqual(shipped);
    expect(
      loadPlatforms({ devnetManifest: manifest, registry: 'shipped' }, ['base']).find((p) => p.slug === 'uniswap-v2')!.addresses,
    ).toEqual({ factory: '0xbb' });
    expect(loadNetworkFacts({ devnetManifest: undefined, registry: SHIPPED_REGISTRY_FILE }).get('base')!.wrappedNative).toBe(
      '0x4200000000000000000000000000000000000006',
    );
    expect(loadNetworkFacts({ devnetManifest: manifest, registry: 'shipped' }).get('base')!.wrappedNative).toBe(
      '0x00000000000000000000000000000000000000aa',
    );
    expect(loadNetworkFacts({ devnetManifest: undefined }).size).toBe(0);
  });

  it('reads an operator registry file of the same shape and refuses a malformed one', () => {
    const own = { ...registry, networks: { base: registry.networks.base } };
    expect(
      registryPlatforms(loadRegistry(tempFile(own)), ['base', 'ethereum'])
        .filter((p) => p.network === 'ethereum')
        .map((p) => p.slug),
    ).toEqual(['native', 'basic']);
    expect(() => loadRegistry(tempFile({ networks: {} }))).toThrow('is not a registry file');
    expect(() => loadRegistry(tempFile({ ...own, networks: { mars: registry.networks.base } }))).toThrow('unknown network "mars"');
    const badPool = JSON.parse(JSON.stringify(own)) as {
      networks: { base: { platforms: Array<{ slug: string; addresses: Record<string, { address: string }> }> } };
    };
    badPool.networks.base.platforms.find((p) => p.slug === 'aave-v3')!.addresses['pool']!.address = '0x1234';
    expect(() => loadRegistry(tempFile(badPool))).toThrow('base aave-v3 pool: not a 0x address');
    expect(() => loadRegistry('/nonexistent/registry.json')).toThrow('cannot read the registry /nonexistent/registry.json');
  });
});
