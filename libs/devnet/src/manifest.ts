/**
 * What a devnet build deployed, saved as <stateDir>/deployment.json next to the anvil states.
 * RPC URLs are deliberately absent: they depend on the ports of each run (see DevnetHandle).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Network } from '@tokensvc/domain';
import {
  type DevnetFamily,
  type DevnetMarket,
  type DevnetPlatform,
  type DevnetPool,
  type DevnetToken,
  type DevnetVault,
  devnetPlatformAddress,
} from '@tokensvc/protocols/devnet';

/** The families the devnet deploys: those with a devnet facet in libs/protocols. */
export type PlatformFamily = DevnetFamily;

export type ManifestToken = DevnetToken;
export type ManifestPool = DevnetPool;
export type ManifestVault = DevnetVault;
export type ManifestMarket = DevnetMarket;
/** A deployed platform; its `addresses` roles are listed in its family's devnet.ts (libs/protocols). */
export type ManifestPlatform = DevnetPlatform<PlatformFamily>;

export interface ManifestAccount {
  address: string;
  /** devnet-only key derived from the public seed */
  privateKey: string;
}

export interface NetworkManifest {
  network: Network;
  chainId: number;
  /** anvil account that deployed and owns the contracts */
  deployer: string;
  weth: string;
  multicall3: string;
  tokens: ManifestToken[];
  platforms: ManifestPlatform[];
  /** the project's own contracts (platform-independent) */
  contracts: {
    /** order Router: the approval spender and the `to` of every order transaction */
    router: string;
    /** created by the Router; runs routes, never approved by users */
    executor: string;
    /**
     * Across SpokePool (issue 19): an ERC1967Proxy over Across's own chain-specific implementation
     * (Ethereum_SpokePool, Arbitrum_SpokePool, OP_SpokePool on base) from @across-protocol/contracts.
     * Its cross-domain admin and withdrawal recipient (the HubPool's place) is ethereum's deployer.
     * Optional: manifests built before it have none (see `manifestAcross`).
     */
    acrossSpokePool?: string;
    /** Across MulticallHandler: a deposit's recipient when its message carries calls to run on fill. */
    acrossMulticallHandler?: string;
  };
  accounts: {
    /** pays gas for relayed transactions */
    relayer: ManifestAccount;
    traders: string[];
    liquidityProviders: string[];
    arbitrageurs: string[];
  };
  history: {
    genesisTimestamp: number;
    deployBlock: number;
    deployTimestamp: number;
    activityStartTimestamp: number;
    lastBlock: number;
    lastTimestamp: number;
    transactions: number;
  };
}

export interface DevnetManifest {
  formatVersion: 1;
  /** hash of the deployer/seeder code and artifacts; a different value invalidates saved states */
  codeVersion: string;
  seed: string;
  createdAt: string;
  /** the fixed "now" of the build (StartDevnetOptions.buildTime); absent: the wall clock at the build */
  buildTime?: number;
  networks: NetworkManifest[];
}

export const MANIFEST_FILE = 'deployment.json';

export function stateFile(stateDir: string, network: Network): string {
  return join(stateDir, `${network}.state.json`);
}

export function readManifest(stateDir: string): DevnetManifest | undefined {
  const file = join(stateDir, MANIFEST_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as DevnetManifest;
    return manifest.formatVersion === 1 && Array.isArray(manifest.networks) ? manifest : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The quote service's gas wallets on a devnet: each network's relayer account of the manifest at
 * `file`, as the `RELAYER_PRIVATE_KEY_<NETWORK>` variables the service reads (it takes keys from
 * its environment only, never from a manifest).
 */
export function relayerKeyEnv(file: string): Record<string, string> {
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as DevnetManifest;
  return Object.fromEntries(
    manifest.networks
      .filter((n) => n.accounts?.relayer?.privateKey)
      .map((n) => [`RELAYER_PRIVATE_KEY_${n.network.toUpperCase()}`, n.accounts.relayer.privateKey]),
  );
}

export function writeManifest(stateDir: string, manifest: DevnetManifest): void {
  mkdirSync(stateDir, { recursive: true });
  const file = join(stateDir, MANIFEST_FILE);
  writeFileSync(`${file}.tmp`, `${JSON.stringify(manifest, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}

export function networkManifest(manifest: DevnetManifest, network: Network): NetworkManifest {
  const found = manifest.networks.find((n) => n.network === network);
  if (!found) throw new Error(`devnet has no ${network} (has ${manifest.networks.map((n) => n.network).join(', ')})`);
  return found;
}

export function manifestToken(net: NetworkManifest, symbol: string): ManifestToken {
  const token = net.tokens.find((t) => t.symbol === symbol);
  if (!token) throw new Error(`no token ${symbol} on ${net.network}`);
  return token;
}

/** The Across contracts of a network; a clear error for a manifest built before they existed. */
export function manifestAcross(net: NetworkManifest): { spokePool: string; multicallHandler: string } {
  const { acrossSpokePool, acrossMulticallHandler } = net.contracts;
  if (!acrossSpokePool || !acrossMulticallHandler)
    throw new Error(`${net.network} has no Across contracts in this manifest; rebuild the devnet (npm run devnet -- up --fresh)`);
  return { spokePool: acrossSpokePool, multicallHandler: acrossMulticallHandler };
}

export function manifestPlatform(net: NetworkManifest, slug: string): ManifestPlatform {
  const platform = net.platforms.find((p) => p.slug === slug);
  if (!platform) throw new Error(`no platform ${slug} on ${net.network}`);
  return platform;
}

export function platformAddress(platform: ManifestPlatform, role: string): string {
  return devnetPlatformAddress(platform, role);
}
