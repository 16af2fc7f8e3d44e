/**
 * Where Across lives and what it carries, per network: from the devnet manifest (Across's own
 * SpokePools deployed by the devnet build) or from the real-network registry (Across's deployment
 * book and token map, `RegistryBridge`). Both shapes are declared structurally here, so this library
 * depends on neither the devnet tooling nor the registry file's loader.
 */
import { loadRegistry } from '@tokensvc/chain';
import { readJsonFile } from '@tokensvc/config';
import { NETWORK_INFO, type Network, isNetwork } from '@tokensvc/domain';
import { NATIVE_TOKEN } from '../tokens';
import { BridgeQuoteError, type BridgeRoute, type BridgeRouteToken, routeBySymbol } from '../provider';

export interface AcrossToken {
  symbol: string;
  /** NATIVE_TOKEN for the network's native coin (deposited as the wrapped native token with value) */
  address: string;
  decimals: number;
}

export interface AcrossNetworkConfig {
  network: Network;
  chainId: number;
  spokePool: string;
  multicallHandler: string | undefined;
  /** the SpokePool's deployment block: no Across event is older */
  fromBlock: number;
  /** the SpokePool's wrappedNativeToken; native deposits go as this token with msg.value */
  wrappedNative: string | undefined;
  /** the tokens Across carries to and from this network; same symbol = same asset on every network */
  tokens: AcrossToken[];
}

export interface AcrossBridgeConfig {
  networks: AcrossNetworkConfig[];
}

/** What `acrossConfigFromManifest` reads from a devnet manifest (deployment.json). */
export interface AcrossManifestLike {
  networks: ReadonlyArray<{
    network: string;
    chainId: number;
    weth: string;
    tokens: ReadonlyArray<{ symbol: string; address: string; decimals: number }>;
    contracts: { acrossSpokePool?: string; acrossMulticallHandler?: string };
    history?: { deployBlock?: number };
  }>;
}

/** On the devnet Across carries USDC and WETH (and ETH, as WETH), as its relayer is funded for. */
export const DEVNET_ACROSS_SYMBOLS: readonly string[] = ['USDC', 'WETH'];

function withNative(network: Network, wrappedNative: string | undefined, tokens: AcrossToken[]): AcrossToken[] {
  const native = NETWORK_INFO[network].nativeSymbol;
  const wrapped = wrappedNative && tokens.find((t) => t.address.toLowerCase() === wrappedNative.toLowerCase());
  return wrapped ? [...tokens, { symbol: native, address: NATIVE_TOKEN, decimals: 18 }] : tokens;
}

export function acrossConfigFromManifest(
  manifest: AcrossManifestLike,
  symbols: readonly string[] = DEVNET_ACROSS_SYMBOLS,
): AcrossBridgeConfig {
  const networks: AcrossNetworkConfig[] = [];
  for (const n of manifest.networks) {
    if (!isNetwork(n.network)) continue;
    const { acrossSpokePool, acrossMulticallHandler } = n.contracts;
    if (!acrossSpokePool)
      throw new Error(`the devnet manifest has no Across SpokePool for ${n.network}; rebuild the devnet (npm run devnet -- up --fresh)`);
    const tokens = n.tokens
      .filter((t) => symbols.includes(t.symbol))
      .map((t) => ({ symbol: t.symbol, address: t.address, decimals: t.decimals }));
    networks.push({
      network: n.network,
      chainId: n.chainId,
      spokePool: acrossSpokePool,
      multicallHandler: acrossMulticallHandler,
      // The SpokePools are deployed after the seeded history; deployBlock is an earlier, safe start.
      fromBlock: n.history?.deployBlock ?? 0,
      wrappedNative: n.weth,
      tokens: withNative(n.network, n.weth, tokens),
    });
  }
  return { networks };
}

/** What `acrossConfigFromRegistry` reads from the registry's networks (RegistryNetwork). */
export interface AcrossRegistryNetworkLike {
  network: Network;
  chainId: number;
  wrappedNative: { address: string } | null;
  bridge: {
    protocol: 'across';
    supported: boolean;
    spokePool: { address: string } | null;
    spokePoolFromBlock?: number;
    multicallHandler: { address: string } | null;
    tokens: ReadonlyArray<{ symbol: string; address: string; decimals: number }>;
  };
}

/**
 * The registry's Across networks: those Across supports with a SpokePool in its deployment book.
 * `symbols` narrows the tokens (default: every token the registry lists for Across there).
 */
export function acrossConfigFromRegistry(
  networks: ReadonlyArray<AcrossRegistryNetworkLike | undefined>,
  symbols?: readonly string[],
): AcrossBridgeConfig {
  const out: AcrossNetworkConfig[] = [];
  for (const n of networks) {
    if (!n || !n.bridge.supported || !n.bridge.spokePool) continue;
    const tokens = n.bridge.tokens
      .filter((t) => !symbols || symbols.includes(t.symbol))
      .map((t) => ({ symbol: t.symbol, address: t.address, decimals: t.decimals }));
    const wrappedNative = n.wrappedNative?.address;
    out.push({
      network: n.network,
      chainId: n.chainId,
      spokePool: n.bridge.spokePool.address,
      multicallHandler: n.bridge.multicallHandler?.address,
      fromBlock: n.bridge.spokePoolFromBlock ?? 0,
      wrappedNative,
      tokens: withNative(n.network, wrappedNative, tokens),
    });
  }
  return { networks: out };
}

/**
 * The first block of a search for `n`'s SpokePool logs ending at block `top`: the pool's deployment
 * block (`fromBlock`), or `top - lookback` when later. A deployment block above `top` is not this
 * chain's: its history is not the network's (a devnet with Across at the real addresses, as the
 * mainnet-shaped profile, whose head is far below the registry's `spokePoolFromBlock`), and only
 * the lookback bounds the search.
 */
export function acrossSearchFrom(n: Pick<AcrossNetworkConfig, 'fromBlock'>, top: number, lookback: number): number {
  return Math.max(n.fromBlock <= top ? n.fromBlock : 0, top - lookback);
}

/** The tokens Across carries from `origin` to `destination`: same symbol on both sides. */
export function acrossRoute(
  networks: ReadonlyMap<Network, AcrossNetworkConfig>,
  originNetwork: Network,
  destinationNetwork: Network,
): BridgeRoute | undefined {
  if (originNetwork === destinationNetwork) return undefined;
  const origin = networks.get(originNetwork);
  const destination = networks.get(destinationNetwork);
  if (!origin || !destination) return undefined;
  return routeBySymbol(originNetwork, destinationNetwork, origin, destination);
}

/** The route token `inputToken` -> `outputToken` takes, or a BridgeQuoteError saying what to change. */
export function acrossRouteToken(
  networks: ReadonlyMap<Network, AcrossNetworkConfig>,
  originNetwork: Network,
  destinationNetwork: Network,
  inputToken: string,
  outputToken: string,
): BridgeRouteToken {
  const name = 'across';
  const route = acrossRoute(networks, originNetwork, destinationNetwork);
  if (!route)
    throw new BridgeQuoteError(
      'NO_ROUTE',
      `${name} does not bridge from ${originNetwork} to ${destinationNetwork}: choose two different networks among ${[...networks.keys()].join(', ')}`,
    );
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  const token = route.tokens.find((t) => same(t.originToken, inputToken));
  if (!token)
    throw new BridgeQuoteError(
      'UNSUPPORTED_TOKEN',
      `${name} does not carry ${inputToken} from ${originNetwork} to ${destinationNetwork}; use one of ${route.tokens.map((t) => `${t.symbol} (${t.originToken})`).join(', ')}`,
    );
  if (!same(token.destinationToken, outputToken)) {
    throw new BridgeQuoteError(
      'UNSUPPORTED_TOKEN',
      `${name} delivers ${token.symbol} on ${destinationNetwork} as ${token.destinationToken}, not ${outputToken}; ask for ${token.destinationToken}`,
    );
  }
  return token;
}

/**
 * The Across networks among `enabled` (the apps' NETWORKS), and the start-up problem when fewer
 * than two of them have a SpokePool (no route at all): which enabled networks have none, from
 * `source` (the devnet manifest or the registry), and what to set instead.
 */
export function acrossConfigForNetworks(
  config: AcrossBridgeConfig,
  enabled: readonly Network[],
  source: string,
): { config: AcrossBridgeConfig; problem: string | undefined } {
  const networks = config.networks.filter((n) => enabled.includes(n.network));
  if (networks.length >= 2) return { config: { networks }, problem: undefined };
  const without = enabled.filter((e) => !networks.some((n) => n.network === e));
  const has = networks.length > 0 ? `only on ${networks.map((n) => n.network).join(', ')}` : 'on none of them';
  return {
    config: { networks },
    problem:
      `CROSS_CHAIN_BRIDGE=across needs Across SpokePools on at least two enabled networks (NETWORKS); ${source} has them ${has}${without.length > 0 ? ` (none on ${without.join(', ')})` : ''}: ` +
      'enable more networks Across supports, point DEVNET_MANIFEST at a devnet built with Across (npm run devnet -- up --fresh) or set REGISTRY=shipped, or set CROSS_CHAIN_BRIDGE=none',
  };
}

/**
 * The apps' Across config (CROSS_CHAIN_BRIDGE=across): from the devnet manifest when there is one
 * (DEVNET_MANIFEST), else from the registry (REGISTRY), for the enabled networks; with the
 * start-up problem when that gives no route (see acrossConfigForNetworks).
 */
export function acrossConfigFromSources(
  sources: { manifest?: AcrossManifestLike; registry?: { networks: Readonly<Partial<Record<Network, AcrossRegistryNetworkLike>>> } },
  enabled: readonly Network[],
): { config: AcrossBridgeConfig; problem: string | undefined } {
  const none = { config: { networks: [] }, problem: undefined };
  if (sources.manifest) {
    const manifest = { networks: sources.manifest.networks.filter((n) => (enabled as readonly string[]).includes(n.network)) };
    try {
      return acrossConfigForNetworks(acrossConfigFromManifest(manifest), enabled, 'the devnet manifest (DEVNET_MANIFEST)');
    } catch (e) {
      return { ...none, problem: `CROSS_CHAIN_BRIDGE=across: ${(e as Error).message}` };
    }
  }
  if (sources.registry)
    return acrossConfigForNetworks(
      acrossConfigFromRegistry(enabled.map((n) => sources.registry!.networks[n])),
      enabled,
      'the registry (REGISTRY)',
    );
  return {
    ...none,
    problem:
      'CROSS_CHAIN_BRIDGE=across needs the Across SpokePools: set DEVNET_MANIFEST (a devnet built with Across) or REGISTRY=shipped (real networks), or set CROSS_CHAIN_BRIDGE=none',
  };
}

/**
 * CROSS_CHAIN_BRIDGE: the bridge the quote service builds cross-chain orders for and the status
 * tracker follows: `across` (the default) or `none` (cross-chain orders refused, nothing followed).
 */
export const CROSS_CHAIN_BRIDGES = ['across', 'none'] as const;
export type CrossChainBridge = (typeof CROSS_CHAIN_BRIDGES)[number];

/**
 * The Across config of an app whose CROSS_CHAIN_BRIDGE is `across`: when it was asked for by name,
 * a deployment without Across between two enabled networks is refused at start (`problem`); when
 * it is only the default, cross-chain orders are off instead (`disabled` says why, for the log), so
 * a one-network deployment starts without setting anything.
 */
export function acrossConfigOfApp(
  common: Parameters<typeof acrossConfigOfDeployment>[0],
  explicit: boolean,
): { config: AcrossBridgeConfig | undefined; problem: string | undefined; disabled: string | undefined } {
  const { config, problem } = acrossConfigOfDeployment(common);
  if (!problem) return { config, problem: undefined, disabled: undefined };
  return explicit
    ? { config, problem, disabled: undefined }
    : { config: undefined, problem: undefined, disabled: `cross-chain orders are off: ${problem}` };
}

/**
 * CROSS_CHAIN_BRIDGE=across for an app: Across from the devnet manifest when DEVNET_MANIFEST is
 * set, else from the registry (REGISTRY); `problem` when that gives no route between the enabled
 * networks. One definition for the quote service's and the status tracker's config loaders.
 */
export function acrossConfigOfDeployment(common: {
  devnetManifest?: string;
  registry?: string;
  networks: ReadonlyArray<{ network: Network }>;
}): { config: AcrossBridgeConfig; problem: string | undefined } {
  return acrossConfigFromSources(
    {
      manifest: common.devnetManifest === undefined ? undefined : readJsonFile<AcrossManifestLike>(common.devnetManifest),
      registry: common.devnetManifest === undefined && common.registry !== undefined ? loadRegistry(common.registry) : undefined,
    },
    common.networks.map((n) => n.network),
  );
}
