import type { PlatformDefinition, RpcLog } from '@tokensvc/chain';
import type { Network, PlatformFamily } from '@tokensvc/domain';
import type { Discovery } from '../model/registry.types';
import type { DiscoverySource } from '../registry/contract-registry';
import type { LogList } from '../rpc/log-list';
import type { BatchAccumulator } from './batch-accumulator';

/** Decodes one hot event into the batch being built (by fixed-offset hex slicing). */
export type LogHandler = (log: RpcLog, acc: BatchAccumulator) => void;

/**
 * Decodes log `i` of a list straight from the columns the logs scanner worked out (no RpcLog
 * object); returns false to leave the log to the LogHandler of its topic (no columns for it).
 * Must decode exactly as that handler would.
 */
export type FastLogHandler = (logs: LogList, i: number, acc: BatchAccumulator) => boolean;

/** Turns a discovery event of a platform's source contract into the entities it creates. */
export type DiscoveryHandler = (log: RpcLog, source: DiscoverySource) => Discovery[];

export interface SeedContext {
  network: Network;
  /** listed ERC-20 tokens of the network (manifest/config token list) */
  listedTokens: readonly string[];
  /** ERC-4626 asset() of each vault, read at the head in one multicall */
  readVaultAssets(vaults: readonly string[]): Promise<Map<string, string | undefined>>;
}

export interface StaticContract {
  address: string;
  /** `source`: its discovery events create pools/tokens; `market`: its own events are decoded */
  role: 'source' | 'market';
}

/**
 * A protocol family as a plugin: which contracts of a platform to read from the start, what it
 * knows from configuration alone, how its discovery events create entities, and decoders for its
 * hot events. Platforms (slug + addresses by role) are data; a fork is a config entry.
 */
export interface ProtocolAdapter {
  readonly family: PlatformFamily;
  staticContracts(platform: PlatformDefinition): StaticContract[];
  seed(platform: PlatformDefinition, ctx: SeedContext): Promise<Discovery[]>;
  readonly discoveryHandlers: Readonly<Record<string, DiscoveryHandler>>;
  readonly handlers: Readonly<Record<string, LogHandler>>;
  /** optional fast paths of some of `handlers` (same topics) */
  readonly fastHandlers?: Readonly<Record<string, FastLogHandler>>;
}
