/**
 * Derives the real-network registry (libs/chain/src/registry/networks.registry.json) from the
 * protocols' npm address books. Pure: the same installed packages give the same registry, byte for
 * byte (sorted keys and lists). What a person chose (which networks map to which package entries,
 * the listed symbols, the curated vaults) is in the tables below, each with its reason; the
 * addresses themselves are always read from a package.
 */
import { getAddress } from 'ethers';
import { NETWORK_INFO, NETWORKS, type Network } from '@tokensvc/domain';
import type { RegistryBridge, RegistryMarket, RegistryNetwork, RegistryPlatform, RegistryToken, ShippedRegistry, SourcedAddress } from '@tokensvc/chain';
import { ACROSS_DEPLOYMENTS_FILE, PACKAGES, sourceOf, SUSHI_V2_MODULE, type AaveMarket, type Sources } from './sources';

export const GENERATOR = 'tools/registry/generate.ts (npm run registry:gen)';

/**
 * Which entry of each package is the network: the viem chain export (checked against the spec's
 * chain id) and the core Aave V3 market of the network in the aave address book (the Lido, EtherFi
 * and Horizon markets on Ethereum are separate instances, not included).
 */
export const NETWORK_ENTRIES: Record<Network, { viemChain: string; aaveMarket?: string }> = {
  ethereum: { viemChain: 'mainnet', aaveMarket: 'AaveV3Ethereum' },
  optimism: { viemChain: 'optimism', aaveMarket: 'AaveV3Optimism' },
  arbitrum: { viemChain: 'arbitrum', aaveMarket: 'AaveV3Arbitrum' },
  polygon: { viemChain: 'polygon', aaveMarket: 'AaveV3Polygon' },
  avalanche: { viemChain: 'avalanche', aaveMarket: 'AaveV3Avalanche' },
  bsc: { viemChain: 'bsc', aaveMarket: 'AaveV3BNB' },
  base: { viemChain: 'base', aaveMarket: 'AaveV3Base' },
  sonic: { viemChain: 'sonic', aaveMarket: 'AaveV3Sonic' },
  hyperevm: { viemChain: 'hyperEvm' },
  plasma: { viemChain: 'plasma', aaveMarket: 'AaveV3Plasma' },
  flare: { viemChain: 'flare' },
  robinhood: { viemChain: 'robinhood' },
};

/**
 * The listed (verified) tokens: a bounded set of the most traded symbols, taken per network from
 * the Uniswap default token list, else Across's token map, else the network's Aave reserves (the
 * first that has the symbol on the chain); plus the wrapped native token. `USDT0` before `USDT`:
 * on Arbitrum both names lead to one contract and the token list calls it USDT0.
 */
export const LISTED_SYMBOLS = ['WETH', 'USDC', 'USDC.e', 'USDT0', 'USDT', 'DAI', 'WBTC', 'cbBTC', 'LINK', 'UNI', 'AAVE', 'ARB', 'OP'] as const;

/**
 * ERC-4626 vaults beyond Aave's static aTokens, chosen by hand. Each address is read from the aave
 * address book (the vault share is itself an Aave reserve there); what makes it an ERC-4626 vault
 * is the curation note. Only native deployments: bridged copies of these shares on other chains
 * (e.g. sUSDe on Avalanche or Plasma) are plain ERC-20s, not vaults.
 */
export const CURATED_VAULTS: ReadonlyArray<{ network: Network; asset: string; curation: string }> = [
  { network: 'ethereum', asset: 'sDAI', curation: 'Savings DAI (Maker DSR, ERC-4626 over DAI); the address is the sDAI reserve asset of the Aave V3 Ethereum market' },
  { network: 'ethereum', asset: 'sUSDe', curation: 'Ethena staked USDe (StakedUSDeV2, ERC-4626 over USDe) on Ethereum; the address is the sUSDe reserve asset of the Aave V3 Ethereum market' },
];

const checksum = (a: string): string => getAddress(a);

function sourced(s: Sources, key: keyof Sources['versions'], path: string, address: string, label?: string, curation?: string): SourcedAddress {
  const out = { address: checksum(address), source: sourceOf(s, key, path, curation) };
  return label === undefined ? out : { ...out, label };
}

function aaveMarket(s: Sources, network: Network): { name: string; market: AaveMarket } | undefined {
  const name = NETWORK_ENTRIES[network].aaveMarket;
  if (name === undefined) return undefined;
  const market = s.aave[name];
  if (market === undefined) throw new Error(`${PACKAGES.aave} has no ${name} (the market chosen for ${network})`);
  if (market.CHAIN_ID !== NETWORK_INFO[network].chainId) throw new Error(`${name}.CHAIN_ID is ${market.CHAIN_ID}, the spec says ${network} is ${NETWORK_INFO[network].chainId}`);
  return { name, market };
}

/** A token of the chain by symbol: token list, else Across, else the Aave market's reserves. */
function tokenBySymbol(s: Sources, network: Network, symbol: string): RegistryToken | undefined {
  const chainId = NETWORK_INFO[network].chainId;
  const listed = s.tokenList.tokens.filter((t) => t.chainId === chainId && t.symbol === symbol);
  const distinct = new Set(listed.map((t) => t.address.toLowerCase()));
  if (distinct.size > 1) throw new Error(`${PACKAGES.tokenList} lists ${distinct.size} ${symbol} tokens on chain ${chainId}; choose one in derive.ts`);
  const t = listed[0];
  if (t !== undefined) return { symbol: t.symbol, name: t.name, decimals: t.decimals, ...sourced(s, 'tokenList', `tokens[chainId=${chainId},symbol=${symbol}]`, t.address) };
  const a = (s.across.TOKEN_SYMBOLS_MAP as Record<string, { name: string; symbol: string; decimals: number; addresses: Record<number, string> } | undefined>)[symbol];
  const acrossAddress = a?.addresses[chainId];
  if (a !== undefined && acrossAddress !== undefined) return { symbol: a.symbol, name: a.name, decimals: a.decimals, ...sourced(s, 'across', `TOKEN_SYMBOLS_MAP["${symbol}"].addresses[${chainId}]`, acrossAddress) };
  const aave = aaveMarket(s, network);
  const reserve = aave?.market.ASSETS[symbol];
  if (aave !== undefined && reserve !== undefined) return { symbol, name: symbol, decimals: reserve.decimals, ...sourced(s, 'aave', `${aave.name}.ASSETS.${symbol}.UNDERLYING`, reserve.UNDERLYING) };
  return undefined;
}

/**
 * The wrapped native token: Uniswap's WETH9 on ETH-native chains, Across's `W<native>`, the Aave
 * market's `W<native>`/`w<native>` reserve. The first found is recorded; every package that names
 * one must agree, or generation fails.
 */
function wrappedNative(s: Sources, network: Network): RegistryToken | undefined {
  const { chainId, nativeSymbol } = NETWORK_INFO[network];
  const found: RegistryToken[] = [];
  const weth9 = (s.uniswap.WETH9 as Record<number, { address: string; symbol?: string; name?: string; decimals: number } | undefined>)[chainId];
  if (nativeSymbol === 'ETH' && weth9 !== undefined) found.push({ symbol: weth9.symbol ?? 'WETH', name: weth9.name ?? 'Wrapped Ether', decimals: weth9.decimals, ...sourced(s, 'uniswap', `WETH9[${chainId}]`, weth9.address) });
  for (const symbol of [`W${nativeSymbol}`, `w${nativeSymbol}`]) {
    const a = (s.across.TOKEN_SYMBOLS_MAP as Record<string, { name: string; symbol: string; decimals: number; addresses: Record<number, string> } | undefined>)[symbol];
    const address = a?.addresses[chainId];
    if (a !== undefined && address !== undefined) found.push({ symbol: a.symbol, name: a.name, decimals: a.decimals, ...sourced(s, 'across', `TOKEN_SYMBOLS_MAP["${symbol}"].addresses[${chainId}]`, address) });
    const aave = aaveMarket(s, network);
    const reserve = aave?.market.ASSETS[symbol];
    if (aave !== undefined && reserve !== undefined) found.push({ symbol, name: symbol, decimals: reserve.decimals, ...sourced(s, 'aave', `${aave.name}.ASSETS.${symbol}.UNDERLYING`, reserve.UNDERLYING) });
  }
  const addresses = new Set(found.map((f) => f.address));
  if (addresses.size > 1) throw new Error(`the packages disagree on ${network}'s wrapped native token: ${found.map((f) => `${f.address} (${f.source.package} ${f.source.path})`).join(', ')}`);
  return found[0];
}

function listedTokens(s: Sources, network: Network, wrapped: RegistryToken | undefined): RegistryToken[] {
  const out = new Map<string, RegistryToken>();
  for (const symbol of LISTED_SYMBOLS) {
    const t = tokenBySymbol(s, network, symbol);
    if (t !== undefined && !out.has(t.address)) out.set(t.address, t);
  }
  if (wrapped !== undefined && !out.has(wrapped.address)) out.set(wrapped.address, wrapped);
  return [...out.values()];
}

function uniswapV2(s: Sources, network: Network): RegistryPlatform | undefined {
  const chainId = NETWORK_INFO[network].chainId;
  const factory = (s.uniswap.V2_FACTORY_ADDRESSES as Record<number, string | undefined>)[chainId];
  const router = (s.uniswap.V2_ROUTER_ADDRESSES as Record<number, string | undefined>)[chainId];
  if (factory === undefined || router === undefined) return undefined;
  return {
    slug: 'uniswap-v2',
    name: 'Uniswap V2',
    family: 'uniswap-v2',
    addresses: { factory: sourced(s, 'uniswap', `V2_FACTORY_ADDRESSES[${chainId}]`, factory), router: sourced(s, 'uniswap', `V2_ROUTER_ADDRESSES[${chainId}]`, router) },
  };
}

function sushiswap(s: Sources, network: Network): RegistryPlatform | undefined {
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
function uniswapV3(s: Sources, network: Network): RegistryPlatform | undefined {
  const chainId = NETWORK_INFO[network].chainId;
  const m = (s.uniswap.CHAIN_TO_ADDRESSES_MAP as Record<number, { v3CoreFactoryAddress?: string; nonfungiblePositionManagerAddress?: string; quoterAddress?: string } | undefined>)[chainId];
  if (m?.v3CoreFactoryAddress === undefined) return undefined;
  const at = `CHAIN_TO_ADDRESSES_MAP[${chainId}]`;
  const addresses: Record<string, SourcedAddress> = { factory: sourced(s, 'uniswap', `${at}.v3CoreFactoryAddress`, m.v3CoreFactoryAddress) };
  if (m.nonfungiblePositionManagerAddress !== undefined) addresses['positionManager'] = sourced(s, 'uniswap', `${at}.nonfungiblePositionManagerAddress`, m.nonfungiblePositionManagerAddress);
  if (m.quoterAddress !== undefined) addresses['quoter'] = sourced(s, 'uniswap', `${at}.quoterAddress`, m.quoterAddress);
  const swapRouter02 = s.uniswap.SWAP_ROUTER_02_ADDRESSES(chainId);
  if (swapRouter02 !== '') addresses['swapRouter02'] = sourced(s, 'uniswap', `SWAP_ROUTER_02_ADDRESSES(${chainId})`, swapRouter02);
  return { slug: 'uniswap-v3', name: 'Uniswap V3', family: 'uniswap-v3', addresses };
}

function aaveV3(s: Sources, network: Network): RegistryPlatform | undefined {
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
function aaveStata(s: Sources, network: Network, listed: readonly RegistryToken[]): RegistryPlatform | undefined {
  const aave = aaveMarket(s, network);
  if (aave === undefined) return undefined;
  const listedAddresses = new Set(listed.map((t) => t.address));
  const vaults = Object.entries(aave.market.ASSETS)
    .filter(([, r]) => r.STATA_TOKEN !== undefined && listedAddresses.has(checksum(r.UNDERLYING)))
    .map(([symbol, r]) => sourced(s, 'aave', `${aave.name}.ASSETS.${symbol}.STATA_TOKEN`, r.STATA_TOKEN as string, `static a${symbol}`, 'the static aToken of a reserve whose underlying is a listed token'));
  if (vaults.length === 0) return undefined;
  return { slug: 'aave-v3-static', name: 'Aave V3 Static aTokens', family: 'erc4626', addresses: { vaults } };
}

function curatedVaults(s: Sources, network: Network): RegistryPlatform | undefined {
  const vaults = CURATED_VAULTS.filter((v) => v.network === network).map((v) => {
    const aave = aaveMarket(s, network);
    const reserve = aave?.market.ASSETS[v.asset];
    if (aave === undefined || reserve === undefined) throw new Error(`curated vault ${v.asset} on ${network}: ${PACKAGES.aave} no longer has it`);
    return sourced(s, 'aave', `${aave.name}.ASSETS.${v.asset}.UNDERLYING`, reserve.UNDERLYING, v.asset, v.curation);
  });
  if (vaults.length === 0) return undefined;
  return { slug: 'erc4626-vaults', name: 'ERC-4626 Vaults', family: 'erc4626', addresses: { vaults } };
}

/** A contract of Across's deployment book on a chain, or undefined when the book has none there. */
function acrossContract(s: Sources, chainId: number, name: string): { address: SourcedAddress; fromBlock?: number } | undefined {
  const entry = s.acrossDeployments.chains[String(chainId)]?.contracts[name];
  if (entry === undefined) return undefined;
  return { address: sourced(s, 'acrossContracts', `${ACROSS_DEPLOYMENTS_FILE}: chains["${chainId}"].contracts.${name}.address`, entry.address), fromBlock: entry.block_number };
}

/**
 * Across: the networks and bridged tokens from `@across-protocol/constants`, the SpokePool (with
 * the block it was deployed at, where a status scan can start) and the MulticallHandler (which runs
 * a deposit's message on the destination) from `@across-protocol/contracts`' deployment book.
 */
function bridge(s: Sources, network: Network, listed: readonly RegistryToken[], wrapped: RegistryToken | undefined): RegistryBridge {
  const chainId = NETWORK_INFO[network].chainId;
  const map = s.across.TOKEN_SYMBOLS_MAP as Record<string, { name: string; symbol: string; decimals: number; addresses: Record<number, string> } | undefined>;
  const symbols = [...new Set([...LISTED_SYMBOLS, ...listed.map((t) => t.symbol), ...(wrapped ? [wrapped.symbol] : [])])];
  const tokens: RegistryToken[] = [];
  for (const symbol of symbols) {
    const a = map[symbol];
    const address = a?.addresses[chainId];
    if (a === undefined || address === undefined || tokens.some((t) => t.address === checksum(address))) continue;
    tokens.push({ symbol: a.symbol, name: a.name, decimals: a.decimals, ...sourced(s, 'across', `TOKEN_SYMBOLS_MAP["${symbol}"].addresses[${chainId}]`, address) });
  }
  const spokePool = acrossContract(s, chainId, 'SpokePool');
  const handler = acrossContract(s, chainId, 'MulticallHandler');
  const book = `${PACKAGES.acrossContracts} ${s.versions.acrossContracts} (${ACROSS_DEPLOYMENTS_FILE})`;
  const missing = [...(spokePool ? [] : [`${book} has no SpokePool on chain ${chainId}`]), ...(handler ? [] : [`${book} has no MulticallHandler on chain ${chainId}`])];
  return {
    protocol: 'across',
    supported: Object.prototype.hasOwnProperty.call(s.across.PRODUCTION_NETWORKS, chainId),
    spokePool: spokePool?.address ?? null,
    ...(spokePool?.fromBlock !== undefined ? { spokePoolFromBlock: spokePool.fromBlock } : {}),
    multicallHandler: handler?.address ?? null,
    ...(missing.length > 0 ? { missing: missing.join('; ') } : {}),
    tokens,
  };
}

function deriveNetwork(s: Sources, network: Network): RegistryNetwork {
  const info = NETWORK_INFO[network];
  const chainKey = NETWORK_ENTRIES[network].viemChain;
  const chain = s.viemChains[chainKey];
  if (chain === undefined) throw new Error(`viem/chains has no ${chainKey} (the chain chosen for ${network})`);
  if (chain.id !== info.chainId) throw new Error(`viem/chains ${chainKey}.id is ${chain.id}, the spec says ${network} is ${info.chainId}`);
  if (chain.nativeCurrency.symbol !== info.nativeSymbol) throw new Error(`viem/chains ${chainKey} native symbol is ${chain.nativeCurrency.symbol}, NETWORK_INFO says ${info.nativeSymbol}`);
  const multicall3 = chain.contracts?.multicall3?.address;
  if (multicall3 === undefined) throw new Error(`viem/chains ${chainKey} has no multicall3`);
  const wrapped = wrappedNative(s, network);
  const tokens = listedTokens(s, network, wrapped);
  const candidates: Array<[string, RegistryPlatform | undefined, string]> = [
    ['uniswap-v2', uniswapV2(s, network), `${PACKAGES.uniswap} has no V2_FACTORY_ADDRESSES/V2_ROUTER_ADDRESSES[${info.chainId}]`],
    ['sushiswap', sushiswap(s, network), `${PACKAGES.sushi} has no SUSHISWAP_V2_FACTORY_ADDRESS/ROUTER_ADDRESS[${info.chainId}]`],
    ['uniswap-v3', uniswapV3(s, network), `${PACKAGES.uniswap} has no CHAIN_TO_ADDRESSES_MAP[${info.chainId}]`],
    ['aave-v3', aaveV3(s, network), `${PACKAGES.aave} has no Aave V3 market on chain ${info.chainId}`],
    ['aave-v3-static', aaveStata(s, network, tokens), `${PACKAGES.aave} has no STATA_TOKEN for a listed token on chain ${info.chainId}`],
    // optional by design: a network without a curated vault misses nothing
    ['erc4626-vaults', curatedVaults(s, network), ''],
  ];
  const missing = candidates.filter(([, p, why]) => p === undefined && why !== '').map(([slug, , why]) => `${slug}: ${why}`);
  if (wrapped === undefined) missing.unshift(`wrapped native: none of ${PACKAGES.uniswap} WETH9, ${PACKAGES.across} TOKEN_SYMBOLS_MAP["W${info.nativeSymbol}"] or an Aave market names W${info.nativeSymbol} on chain ${info.chainId}`);
  if (tokens.length === 0) missing.unshift(`listed tokens: none of ${LISTED_SYMBOLS.join(', ')} on chain ${info.chainId} in ${PACKAGES.tokenList}, ${PACKAGES.across} or an Aave market`);
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

/** Sorts object keys and the registry's lists so equal content is equal text. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(canonical);
    const key = (v: unknown): string => {
      const o = v as Record<string, unknown> | null;
      if (o === null || typeof o !== 'object') return JSON.stringify(v);
      return [o['slug'], o['symbol'], o['label'], o['address']].filter((x) => typeof x === 'string').join('|') || JSON.stringify(v);
    };
    return items.every((v) => typeof v === 'string') ? items : items.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical((value as Record<string, unknown>)[k])]));
  }
  return value;
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

/** The file's text: canonical JSON, two-space indented, one trailing newline. */
export function registryText(registry: ShippedRegistry): string {
  return `${JSON.stringify(canonical(registry), null, 2)}\n`;
}

/** Every leaf of a JSON value by its path, to name what differs between two registries. */
function leaves(value: unknown, path: string, out: Map<string, string>): Map<string, string> {
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) leaves(v, Array.isArray(value) ? `${path}[${k}]` : path === '' ? k : `${path}.${k}`, out);
  } else out.set(path, JSON.stringify(value));
  return out;
}

/** The entries that differ (path: committed -> derived), empty when the registries are equal. */
export function registryDiff(committed: unknown, derived: unknown): string[] {
  const a = leaves(committed, '', new Map());
  const b = leaves(derived, '', new Map());
  const out: string[] = [];
  for (const path of [...new Set([...a.keys(), ...b.keys()])].sort()) {
    if (a.get(path) !== b.get(path)) out.push(`${path}: ${a.get(path) ?? '(absent)'} -> ${b.get(path) ?? '(absent)'}`);
  }
  return out;
}
