/**
 * The one registry of networks the service knows. `Record<Network, ...>` makes a new
 * network fail to compile until every table covers it.
 */
export const NETWORKS = [
  'ethereum',
  'optimism',
  'arbitrum',
  'polygon',
  'avalanche',
  'bsc',
  'base',
  'sonic',
  'hyperevm',
  'plasma',
  'flare',
  'robinhood',
] as const;

export type Network = (typeof NETWORKS)[number];

export interface NetworkInfo {
  readonly network: Network;
  readonly chainId: number;
  readonly name: string;
  readonly nativeSymbol: string;
  /** Blocks after which a block is treated as final (reorgs deeper than this raise an alert). */
  readonly finalityDepth: number;
  /** Typical block time in ms; drives polling intervals. */
  readonly blockTimeMs: number;
  /** Largest eth_getLogs block range to try first; the indexer adapts downwards on errors. */
  readonly maxLogRange: number;
}

const MULTICALL3 = '0xca11bde05977b3631167028862be2a173976ca11';
export const MULTICALL3_ADDRESS = MULTICALL3;

export const NETWORK_INFO: Record<Network, NetworkInfo> = {
  ethereum: {
    network: 'ethereum',
    chainId: 1,
    name: 'Ethereum',
    nativeSymbol: 'ETH',
    finalityDepth: 64,
    blockTimeMs: 12_000,
    maxLogRange: 2_000,
  },
  optimism: {
    network: 'optimism',
    chainId: 10,
    name: 'OP Mainnet',
    nativeSymbol: 'ETH',
    finalityDepth: 120,
    blockTimeMs: 2_000,
    maxLogRange: 10_000,
  },
  arbitrum: {
    network: 'arbitrum',
    chainId: 42161,
    name: 'Arbitrum One',
    nativeSymbol: 'ETH',
    finalityDepth: 240,
    blockTimeMs: 250,
    maxLogRange: 10_000,
  },
  polygon: {
    network: 'polygon',
    chainId: 137,
    name: 'Polygon PoS',
    nativeSymbol: 'POL',
    finalityDepth: 128,
    blockTimeMs: 2_000,
    maxLogRange: 3_000,
  },
  avalanche: {
    network: 'avalanche',
    chainId: 43114,
    name: 'Avalanche C-Chain',
    nativeSymbol: 'AVAX',
    finalityDepth: 1,
    blockTimeMs: 2_000,
    maxLogRange: 2_048,
  },
  bsc: {
    network: 'bsc',
    chainId: 56,
    name: 'BNB Smart Chain',
    nativeSymbol: 'BNB',
    finalityDepth: 15,
    blockTimeMs: 3_000,
    maxLogRange: 5_000,
  },
  base: { network: 'base', chainId: 8453, name: 'Base', nativeSymbol: 'ETH', finalityDepth: 120, blockTimeMs: 2_000, maxLogRange: 10_000 },
  sonic: { network: 'sonic', chainId: 146, name: 'Sonic', nativeSymbol: 'S', finalityDepth: 1, blockTimeMs: 1_000, maxLogRange: 10_000 },
  hyperevm: {
    network: 'hyperevm',
    chainId: 999,
    name: 'HyperEVM',
    nativeSymbol: 'HYPE',
    finalityDepth: 1,
    blockTimeMs: 1_000,
    maxLogRange: 1_000,
  },
  plasma: {
    network: 'plasma',
    chainId: 9745,
    name: 'Plasma',
    nativeSymbol: 'XPL',
    finalityDepth: 1,
    blockTimeMs: 1_000,
    maxLogRange: 10_000,
  },
  flare: { network: 'flare', chainId: 14, name: 'Flare', nativeSymbol: 'FLR', finalityDepth: 1, blockTimeMs: 1_800, maxLogRange: 30 },
  robinhood: {
    network: 'robinhood',
    chainId: 4663,
    name: 'Robinhood Chain',
    nativeSymbol: 'ETH',
    finalityDepth: 240,
    blockTimeMs: 250,
    maxLogRange: 10_000,
  },
};

export function isNetwork(value: unknown): value is Network {
  return typeof value === 'string' && (NETWORKS as readonly string[]).includes(value);
}

export function networkByChainId(chainId: number): Network | undefined {
  return NETWORKS.find((n) => NETWORK_INFO[n].chainId === chainId);
}
