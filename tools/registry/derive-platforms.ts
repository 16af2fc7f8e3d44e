/** The DEX and lending platforms of a network, each from its own package (tools/registry/derive.ts). */
import { NETWORK_INFO, type Network } from '@tokensvc/domain';
import type { RegistryMarket, RegistryPlatform, RegistryToken, SourcedAddress } from '@tokensvc/chain';
import { aaveMarket, CURATED_VAULTS } from './choices';
import { checksum, PACKAGES, sourced, SUSHI_V2_MODULE, type Sources } from './sources';

export function uniswapV2(s: Sources, network: Network): RegistryPlatform | undefined {
  const chainId = NETWORK_INFO[network].chainId;
  const factory = (s.uniswap.V2_FACTORY_ADDRESSES as Record<number, string | undefined>)[chainId];
  const router = (s.uniswap.V2_ROUTER_ADDRESSES as Record<number, string | undefined>)[chainId];
  if (factory === undefined || router === undefined) return undefined;
  return {
    slug: 'uniswap-v2',
    name: 'Uniswap V2',
    family: 'uniswap-v2',
    addresses: {
      factory: sourced(s, 'uniswap', `V2_FACTORY_ADDRESSES[${chainId}]`, factory),
      router: sourced(s, 'uniswap', `V2_ROUTER_ADDRESSES[${chainId}]`, router),
    },
  };
}

export function sushiswap(s: Sources, network: Network): RegistryPlatform | undefined {
  const chainId = NETWORK_INFO[network].chainId;
  const factory = s.sushiV2.SUSHISWAP_V2_FACTORY_ADDRESS[chainId];
  const router = s.sushiV2.SUSHISWAP_V2_ROUTER_ADDRESS[chainId];
  if (factory === undefined || router === undefined) return undefined;
  return {
    slug: 'sushiswap',
    name: 'SushiSwap',
    family: 'uniswap-v2',
    addresses: {
      factory: sourced(s, 'sushi', `evm SUSHISWAP_V2_FACTORY_ADDRESS[${chainId}] (${SUSHI_V2_MODULE})`, factory),
      router: sourced(s, 'sushi', `evm SUSHISWAP_V2_ROUTER_ADDRESS[${chainId}] (${SUSHI_V2_MODULE})`, router),
    },
  };
}

/**
 * Uniswap V3. The role `router` of the devnet (the original SwapRouter, whose exactInputSingle
 * takes a deadline) has no entry in sdk-core, and Base never had one: the package's router is
 * SwapRouter02 (another exactInputSingle), recorded as `swapRouter02`, not as `router`, so no order
 * is built with calls it would reject: the quote encodes SwapRouter02's own call for a platform
 * naming only `swapRouter02` (v3RouterOf in apps/quote/src/planning/executor-calls.ts).
 */
export function uniswapV3(s: Sources, network: Network): RegistryPlatform | undefined {
  const chainId = NETWORK_INFO[network].chainId;
  const m = (
    s.uniswap.CHAIN_TO_ADDRESSES_MAP as Record<
      number,
      { v3CoreFactoryAddress?: string; nonfungiblePositionManagerAddress?: string; quoterAddress?: string } | undefined
    >
  )[chainId];
  if (m?.v3CoreFactoryAddress === undefined) return undefined;
  const at = `CHAIN_TO_ADDRESSES_MAP[${chainId}]`;
  const addresses: Record<string, SourcedAddress> = {
    factory: sourced(s, 'uniswap', `${at}.v3CoreFactoryAddress`, m.v3CoreFactoryAddress),
  };
  if (m.nonfungiblePositionManagerAddress !== undefined)
    addresses['positionManager'] = sourced(s, 'uniswap', `${at}.nonfungiblePositionManagerAddress`, m.nonfungiblePositionManagerAddress);
  if (m.quoterAddress !== undefined) addresses['quoter'] = sourced(s, 'uniswap', `${at}.quoterAddress`, m.quoterAddress);
  const swapRouter02 = s.uniswap.SWAP_ROUTER_02_ADDRESSES(chainId);
  if (swapRouter02 !== '') addresses['swapRouter02'] = sourced(s, 'uniswap', `SWAP_ROUTER_02_ADDRESSES(${chainId})`, swapRouter02);
  return { slug: 'uniswap-v3', name: 'Uniswap V3', family: 'uniswap-v3', addresses };
}

/**
 * Uniswap V4: the PoolManager (sdk-core's v4PoolManagerAddress; its Initialize events discover the
 * pools, hookless ones only) and the UniversalRouter 2.0 the module's swap calls are encoded for
 * (universal-router-sdk's UNIVERSAL_ROUTER_ADDRESS(2.0): later versions add a field to the V4
 * swap struct). StateView is recorded for reading pools; nothing needs it yet.
 */
export function uniswapV4(s: Sources, network: Network): RegistryPlatform | undefined {
  const chainId = NETWORK_INFO[network].chainId;
  const m = (s.uniswap.CHAIN_TO_ADDRESSES_MAP as Record<number, { v4PoolManagerAddress?: string } | undefined>)[chainId];
  const universalRouter = s.universalRouterV2_0(chainId);
  if (m?.v4PoolManagerAddress === undefined || universalRouter === undefined) return undefined;
  const at = `CHAIN_TO_ADDRESSES_MAP[${chainId}]`;
  const addresses: Record<string, SourcedAddress> = {
    poolManager: sourced(s, 'uniswap', `${at}.v4PoolManagerAddress`, m.v4PoolManagerAddress),
    universalRouter: sourced(s, 'universalRouter', `UNIVERSAL_ROUTER_ADDRESS(UniversalRouterVersion.V2_0, ${chainId})`, universalRouter),
  };
  return { slug: 'uniswap-v4', name: 'Uniswap V4', family: 'uniswap-v4', addresses };
}

export function aaveV3(s: Sources, network: Network): RegistryPlatform | undefined {
  const aave = aaveMarket(s, network);
  if (aave === undefined) return undefined;
  const { name, market } = aave;
  const at = (key: string, address: string): SourcedAddress => sourced(s, 'aave', `${name}.${key}`, address);
  const markets: RegistryMarket[] = Object.entries(market.ASSETS).map(([symbol, r]) => ({
    symbol,
    asset: at(`ASSETS.${symbol}.UNDERLYING`, r.UNDERLYING),
    aToken: at(`ASSETS.${symbol}.A_TOKEN`, r.A_TOKEN),
    variableDebtToken: at(`ASSETS.${symbol}.V_TOKEN`, r.V_TOKEN),
  }));
  return {
    slug: 'aave-v3',
    name: 'Aave V3',
    family: 'aave-v3',
    addresses: {
      pool: at('POOL', market.POOL),
      poolAddressesProvider: at('POOL_ADDRESSES_PROVIDER', market.POOL_ADDRESSES_PROVIDER),
      poolConfigurator: at('POOL_CONFIGURATOR', market.POOL_CONFIGURATOR),
      dataProvider: at('AAVE_PROTOCOL_DATA_PROVIDER', market.AAVE_PROTOCOL_DATA_PROVIDER),
      oracle: at('ORACLE', market.ORACLE),
      aclManager: at('ACL_MANAGER', market.ACL_MANAGER),
    },
    markets,
  };
}

/** Aave's static aTokens (StataTokenV2: ERC-4626 over the aToken) of the listed tokens' reserves. */
export function aaveStata(s: Sources, network: Network, listed: readonly RegistryToken[]): RegistryPlatform | undefined {
  const aave = aaveMarket(s, network);
  if (aave === undefined) return undefined;
  const listedAddresses = new Set(listed.map((t) => t.address));
  const vaults = Object.entries(aave.market.ASSETS)
    .filter(([, r]) => r.STATA_TOKEN !== undefined && listedAddresses.has(checksum(r.UNDERLYING)))
    .map(([symbol, r]) =>
      sourced(
        s,
        'aave',
        `${aave.name}.ASSETS.${symbol}.STATA_TOKEN`,
        r.STATA_TOKEN as string,
        `static a${symbol}`,
        'the static aToken of a reserve whose underlying is a listed token',
      ),
    );
  if (vaults.length === 0) return undefined;
  return { slug: 'aave-v3-static', name: 'Aave V3 Static aTokens', family: 'erc4626', addresses: { vaults } };
}

export function curatedVaults(s: Sources, network: Network): RegistryPlatform | undefined {
  const vaults = CURATED_VAULTS.filter((v) => v.network === network).map((v) => {
    const aave = aaveMarket(s, network);
    const reserve = aave?.market.ASSETS[v.asset];
    if (aave === undefined || reserve === undefined)
      throw new Error(`curated vault ${v.asset} on ${network}: ${PACKAGES.aave} no longer has it`);
    return sourced(s, 'aave', `${aave.name}.ASSETS.${v.asset}.UNDERLYING`, reserve.UNDERLYING, v.asset, v.curation);
  });
  if (vaults.length === 0) return undefined;
  return { slug: 'erc4626-vaults', name: 'ERC-4626 Vaults', family: 'erc4626', addresses: { vaults } };
}
