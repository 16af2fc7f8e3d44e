/**
 * The address-book packages the registry is derived from, loaded once, each with its installed
 * version (read from its own package.json). Nothing here is typed by hand: every address the
 * registry holds is read from one of these.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getAddress } from 'ethers';
import * as aaveBook from '@bgd-labs/aave-address-book';
import * as across from '@across-protocol/constants';
import * as uniswap from '@uniswap/sdk-core';
import { UNIVERSAL_ROUTER_ADDRESS, UniversalRouterVersion } from '@uniswap/universal-router-sdk';
import type { RegistrySource, SourcedAddress } from '@tokensvc/chain';

const requireHere = createRequire(__filename);

/** The directory of an installed package (its package.json names it), whatever its `exports` allow. */
export function packageDir(name: string): string {
  let dir = dirname(requireHere.resolve(name));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === name) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`cannot find the package.json of ${name}`);
    dir = up;
  }
}

export function packageVersion(name: string): string {
  return (JSON.parse(readFileSync(join(packageDir(name), 'package.json'), 'utf8')) as { version: string }).version;
}

export const PACKAGES = {
  uniswap: '@uniswap/sdk-core',
  universalRouter: '@uniswap/universal-router-sdk',
  tokenList: '@uniswap/default-token-list',
  aave: '@bgd-labs/aave-address-book',
  sushi: 'sushi',
  across: '@across-protocol/constants',
  acrossContracts: '@across-protocol/contracts',
  viem: 'viem',
} as const;
export type PackageKey = keyof typeof PACKAGES;

export interface TokenListEntry {
  chainId: number;
  address: string;
  name: string;
  symbol: string;
  decimals: number;
}

export interface AaveAsset {
  decimals: number;
  UNDERLYING: string;
  A_TOKEN: string;
  V_TOKEN: string;
  STATA_TOKEN?: string;
}

export interface AaveMarket {
  CHAIN_ID: number;
  POOL: string;
  POOL_ADDRESSES_PROVIDER: string;
  POOL_CONFIGURATOR: string;
  AAVE_PROTOCOL_DATA_PROVIDER: string;
  ORACLE: string;
  ACL_MANAGER: string;
  ASSETS: Record<string, AaveAsset>;
}

interface SushiV2Module {
  SUSHISWAP_V2_FACTORY_ADDRESS: Record<number, string>;
  SUSHISWAP_V2_ROUTER_ADDRESS: Record<number, string>;
}

/** `@across-protocol/contracts`' deployment book: per chain id, each contract's address and first block. */
export interface AcrossDeployments {
  chains: Record<
    string,
    { chain_name: string; contracts: Record<string, { address: string; block_number?: number } | undefined> } | undefined
  >;
}

/**
 * Read as a JSON file, not imported: the package's entry point loads its Solana and ethers v5
 * helpers, and the registry needs only the addresses. (The package is AGPL-3.0; the registry
 * records facts from it, and no production app imports it.)
 */
export const ACROSS_DEPLOYMENTS_FILE = 'dist/broadcast/deployed-addresses.json';

/** What the derivation reads, each package's exports typed as far as it uses them. */
export interface Sources {
  versions: Record<PackageKey, string>;
  uniswap: typeof uniswap;
  /** the UniversalRouter 2.0 of a chain (the version whose V4 swap struct the uniswap-v4 module encodes), or undefined */
  universalRouterV2_0(chainId: number): string | undefined;
  tokenList: { tokens: TokenListEntry[] };
  aave: Record<string, AaveMarket | undefined>;
  /**
   * sushi's SushiSwap V2 address maps. `sushi/evm` cannot be loaded here: its entry pulls in the
   * optional peer `zod`, which the workspace does not install; the feature module it re-exports
   * them from needs nothing else.
   */
  sushiV2: SushiV2Module;
  across: typeof across;
  acrossDeployments: AcrossDeployments;
  viemChains: Record<
    string,
    | {
        id: number;
        name: string;
        testnet?: boolean;
        nativeCurrency: { name: string; symbol: string; decimals: number };
        contracts?: { multicall3?: { address: string } };
      }
    | undefined
  >;
}

export const SUSHI_V2_MODULE = '_cjs/evm/config/features/sushiswap-v2.js';

export function loadSources(): Sources {
  const versions = Object.fromEntries(Object.entries(PACKAGES).map(([k, name]) => [k, packageVersion(name)])) as Record<PackageKey, string>;
  return {
    versions,
    uniswap,
    universalRouterV2_0: (chainId) => {
      try {
        return UNIVERSAL_ROUTER_ADDRESS(UniversalRouterVersion.V2_0, chainId);
      } catch {
        // the package throws for a chain it has no router config for
        return undefined;
      }
    },
    tokenList: requireHere(PACKAGES.tokenList) as { tokens: TokenListEntry[] },
    aave: aaveBook as unknown as Record<string, AaveMarket | undefined>,
    sushiV2: requireHere(join(packageDir(PACKAGES.sushi), SUSHI_V2_MODULE)) as SushiV2Module,
    across,
    acrossDeployments: JSON.parse(
      readFileSync(join(packageDir(PACKAGES.acrossContracts), ACROSS_DEPLOYMENTS_FILE), 'utf8'),
    ) as AcrossDeployments,
    // required, not imported: the types of viem/chains reach ox's WebAuthn sources, which need the DOM lib
    viemChains: requireHere('viem/chains') as Sources['viemChains'],
  };
}

/** A source record: the package, its installed version and the path of the export read. */
export function sourceOf(s: Sources, key: PackageKey, path: string, curation?: string): RegistrySource {
  return curation === undefined
    ? { package: PACKAGES[key], version: s.versions[key], path }
    : { package: PACKAGES[key], version: s.versions[key], path, curation };
}

export const checksum = (a: string): string => getAddress(a);

/** An address read from a package, checksummed, with its source record. */

export function sourced(
  s: Sources,
  key: keyof Sources['versions'],
  path: string,
  address: string,
  label?: string,
  curation?: string,
): SourcedAddress {
  const out = { address: checksum(address), source: sourceOf(s, key, path, curation) };
  return label === undefined ? out : { ...out, label };
}
