/**
 * Derives the real-network registry (libs/chain/src/registry/networks.registry.json) from the
 * protocols' npm address books. Pure: the same installed packages give the same registry, byte for
 * byte (sorted keys and lists). What a person chose (which networks map to which package entries,
 * the listed symbols, the curated vaults) is in the tables of ./choices.ts, each with its reason; the
 * addresses themselves are always read from a package. Per network: the tokens (./derive-tokens.ts),
 * the platforms (./derive-platforms.ts) and the bridge (./derive-bridge.ts); the file's text:
 * ./registry-text.ts.
 */
import { NETWORK_INFO, NETWORKS, type Network } from '@tokensvc/domain';
import type { RegistryNetwork, RegistryPlatform, ShippedRegistry } from '@tokensvc/chain';
import { LISTED_SYMBOLS, NETWORK_ENTRIES } from './choices';
import { bridge } from './derive-bridge';
import { aaveStata, aaveV3, curatedVaults, sushiswap, uniswapV2, uniswapV3, uniswapV4 } from './derive-platforms';
import { listedTokens, wrappedNative } from './derive-tokens';
import { canonical } from './registry-text';
import { PACKAGES, sourced, sourceOf, type Sources } from './sources';

export const GENERATOR = 'tools/registry/generate.ts (npm run registry:gen)';

function deriveNetwork(s: Sources, network: Network): RegistryNetwork {
  const info = NETWORK_INFO[network];
  const chainKey = NETWORK_ENTRIES[network].viemChain;
  const chain = s.viemChains[chainKey];
  if (chain === undefined) throw new Error(`viem/chains has no ${chainKey} (the chain chosen for ${network})`);
  if (chain.id !== info.chainId) throw new Error(`viem/chains ${chainKey}.id is ${chain.id}, the spec says ${network} is ${info.chainId}`);
  if (chain.nativeCurrency.symbol !== info.nativeSymbol)
    throw new Error(`viem/chains ${chainKey} native symbol is ${chain.nativeCurrency.symbol}, NETWORK_INFO says ${info.nativeSymbol}`);
  const multicall3 = chain.contracts?.multicall3?.address;
  if (multicall3 === undefined) throw new Error(`viem/chains ${chainKey} has no multicall3`);
  const wrapped = wrappedNative(s, network);
  const tokens = listedTokens(s, network, wrapped);
  const candidates: Array<[string, RegistryPlatform | undefined, string]> = [
    ['uniswap-v2', uniswapV2(s, network), `${PACKAGES.uniswap} has no V2_FACTORY_ADDRESSES/V2_ROUTER_ADDRESSES[${info.chainId}]`],
    ['sushiswap', sushiswap(s, network), `${PACKAGES.sushi} has no SUSHISWAP_V2_FACTORY_ADDRESS/ROUTER_ADDRESS[${info.chainId}]`],
    ['uniswap-v3', uniswapV3(s, network), `${PACKAGES.uniswap} has no CHAIN_TO_ADDRESSES_MAP[${info.chainId}]`],
    [
      'uniswap-v4',
      uniswapV4(s, network),
      `${PACKAGES.uniswap} has no v4PoolManagerAddress or ${PACKAGES.universalRouter} no UniversalRouter 2.0 on chain ${info.chainId}`,
    ],
    ['aave-v3', aaveV3(s, network), `${PACKAGES.aave} has no Aave V3 market on chain ${info.chainId}`],
    ['aave-v3-static', aaveStata(s, network, tokens), `${PACKAGES.aave} has no STATA_TOKEN for a listed token on chain ${info.chainId}`],
    // optional by design: a network without a curated vault misses nothing
    ['erc4626-vaults', curatedVaults(s, network), ''],
  ];
  const missing = candidates.filter(([, p, why]) => p === undefined && why !== '').map(([slug, , why]) => `${slug}: ${why}`);
  if (wrapped === undefined)
    missing.unshift(
      `wrapped native: none of ${PACKAGES.uniswap} WETH9, ${PACKAGES.across} TOKEN_SYMBOLS_MAP["W${info.nativeSymbol}"] or an Aave market names W${info.nativeSymbol} on chain ${info.chainId}`,
    );
  if (tokens.length === 0)
    missing.unshift(
      `listed tokens: none of ${LISTED_SYMBOLS.join(', ')} on chain ${info.chainId} in ${PACKAGES.tokenList}, ${PACKAGES.across} or an Aave market`,
    );
  return {
    network,
    chainId: info.chainId,
    name: info.name,
    nativeCurrency: { ...chain.nativeCurrency, source: sourceOf(s, 'viem', `chains.${chainKey}.nativeCurrency`) },
    blockTimeMs: info.blockTimeMs,
    finalityDepth: info.finalityDepth,
    multicall3: sourced(s, 'viem', `chains.${chainKey}.contracts.multicall3.address`, multicall3),
    wrappedNative: wrapped === undefined ? null : { address: wrapped.address, source: wrapped.source, label: wrapped.symbol },
    tokens,
    platforms: candidates.map(([, p]) => p).filter((p): p is RegistryPlatform => p !== undefined),
    bridge: bridge(s, network, tokens, wrapped),
    missing,
  };
}

export function deriveRegistry(s: Sources): ShippedRegistry {
  const registry: ShippedRegistry = {
    formatVersion: 1,
    generator: GENERATOR,
    packages: Object.fromEntries(Object.entries(PACKAGES).map(([k, name]) => [name, s.versions[k as keyof typeof PACKAGES]])),
    networks: Object.fromEntries(NETWORKS.map((n) => [n, deriveNetwork(s, n)])),
  };
  return canonical(registry) as ShippedRegistry;
}
