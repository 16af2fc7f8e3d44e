import { readFileSync } from 'node:fs';
import { isNetwork, type Network } from '@tokensvc/domain';

/**
 * What the indexer reads from a manifest (the devnet's deployment.json or a hand-written file of
 * the same shape) besides the platforms: where history starts and the listed (verified) tokens.
 */
export interface ManifestNetworkInfo {
  network: Network;
  /** first block worth indexing (`history.deployBlock`), if the file says */
  deployBlock?: number;
  /** the listed ERC-20 tokens (lowercase addresses) */
  tokens: string[];
  /** wrapped native token, if named */
  wrappedNative?: string;
  /** the project's order Router (`contracts.router`), if the file names one (a devnet's does) */
  router?: string;
}

interface RawNetwork {
  network?: unknown;
  history?: { deployBlock?: unknown };
  tokens?: Array<{ address?: unknown }>;
  weth?: unknown;
  contracts?: { router?: unknown };
}

export function loadManifestNetworks(path: string | undefined): Map<Network, ManifestNetworkInfo> {
  const out = new Map<Network, ManifestNetworkInfo>();
  if (path === undefined) return out;
  const json = JSON.parse(readFileSync(path, 'utf8')) as { networks?: RawNetwork[] | Record<string, RawNetwork> };
  const entries: Array<[unknown, RawNetwork]> = Array.isArray(json.networks)
    ? json.networks.map((e) => [e.network, e])
    : Object.entries(json.networks ?? {});
  for (const [network, e] of entries) {
    if (!isNetwork(network)) continue;
    const deployBlock = typeof e.history?.deployBlock === 'number' ? e.history.deployBlock : undefined;
    const tokens = (e.tokens ?? [])
      .map((t) => t.address)
      .filter((a): a is string => typeof a === 'string')
      .map((a) => a.toLowerCase());
    const router = typeof e.contracts?.router === 'string' ? e.contracts.router.toLowerCase() : undefined;
    out.set(network, {
      network,
      deployBlock,
      tokens,
      wrappedNative: typeof e.weth === 'string' ? e.weth.toLowerCase() : undefined,
      ...(router ? { router } : {}),
    });
  }
  return out;
}
