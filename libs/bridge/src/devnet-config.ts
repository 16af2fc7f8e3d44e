/**
 * Where the devnet bridge lives and what it moves, per network. Built from the devnet manifest
 * (deployment.json) by `devnetBridgeConfig`, or written by hand (tests with their own anvils).
 * The manifest shape is declared here, structurally, so this shared library does not depend on
 * the devnet tooling: a DevnetManifest fits it.
 */
import { NETWORK_INFO, type Network, isNetwork } from '@tokensvc/domain';

export const NATIVE_TOKEN = '0x0000000000000000000000000000000000000000';

export interface DevnetBridgeToken {
  symbol: string;
  /** NATIVE_TOKEN for the network's native coin */
  address: string;
  decimals: number;
  /** for the minimum fee; without it only the percentage applies */
  priceUsd?: number;
}

export interface DevnetBridgeNetwork {
  network: Network;
  chainId: number;
  escrow: string;
  settler: string;
  /** the tokens bridged to and from this network; same symbol = same asset on every network */
  tokens: DevnetBridgeToken[];
}

export interface DevnetBridgeConfig {
  networks: DevnetBridgeNetwork[];
}

/** What `devnetBridgeConfig` reads from deployment.json. */
export interface BridgeManifestLike {
  networks: ReadonlyArray<{
    network: string;
    chainId: number;
    tokens: ReadonlyArray<{ symbol: string; address: string; decimals: number; priceUsd?: number }>;
    contracts: { bridgeEscrow?: string; bridgeSettler?: string };
    accounts?: { filler?: { address: string; privateKey: string } };
  }>;
}

/** The devnet bridge moves USDC and WETH, plus the native coin where both sides share it (ETH). */
export const DEVNET_BRIDGED_SYMBOLS: readonly string[] = ['USDC', 'WETH'];

export function devnetBridgeConfig(manifest: BridgeManifestLike, symbols: readonly string[] = DEVNET_BRIDGED_SYMBOLS): DevnetBridgeConfig {
  const networks: DevnetBridgeNetwork[] = [];
  for (const n of manifest.networks) {
    if (!isNetwork(n.network)) continue;
    const { bridgeEscrow, bridgeSettler } = n.contracts;
    if (!bridgeEscrow || !bridgeSettler) throw new Error(`the devnet manifest has no bridge contracts for ${n.network}; rebuild the devnet (npm run devnet -- up --fresh)`);
    const tokens: DevnetBridgeToken[] = n.tokens.filter((t) => symbols.includes(t.symbol)).map((t) => ({ symbol: t.symbol, address: t.address, decimals: t.decimals, priceUsd: t.priceUsd }));
    const native = NETWORK_INFO[n.network].nativeSymbol;
    // The wrapped coin carries the native coin's price (WETH for ETH).
    const wrapped = n.tokens.find((t) => t.symbol === `W${native}`);
    tokens.push({ symbol: native, address: NATIVE_TOKEN, decimals: 18, priceUsd: wrapped?.priceUsd });
    networks.push({ network: n.network, chainId: n.chainId, escrow: bridgeEscrow, settler: bridgeSettler, tokens });
  }
  return { networks };
}

/** The filler's key from the manifest: the same account on every network, and the escrows' attester. */
export function devnetFillerKey(manifest: BridgeManifestLike): string {
  const keys = new Set(manifest.networks.map((n) => n.accounts?.filler?.privateKey).filter((k): k is string => typeof k === 'string'));
  const [key] = keys;
  if (keys.size !== 1 || !key) throw new Error(`the devnet manifest must name one filler key for every network (found ${keys.size})`);
  return key;
}
