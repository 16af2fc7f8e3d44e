/**
 * The indexer facet of a protocol module and what the indexer gives it: the batch being built
 * (IndexingSink), the registry it reads, and, on the transfer fast path, the scanned log columns.
 * The indexer implements these (its BatchAccumulator, ContractRegistry and LogList).
 */
import type { PlatformDefinition, RpcLog } from '@tokensvc/domain';
import type { Network, PlatformFamily } from '@tokensvc/domain';
import type { LendingEvent, LiquidityEvent, PoolStateEvent, ReserveRatesEvent, SwapEvent, TransferEvent, VaultFlowEvent } from './events';
import type { Discovery, PoolInfo, PoolState, TokenSeed } from './registry-types';
import type { ScopeReadContext, ScopeSnapshot } from './scope-read';

/** A contract whose discovery events (PairCreated, PoolCreated, ReserveInitialized) create entities. */
export interface DiscoverySource {
  address: string;
  platform: string;
  family: string;
  /** the lending market (Aave Pool) a configurator belongs to */
  market?: string;
  /** the platform's options (its family module's: a near-fork's fee, ...) */
  options?: PlatformDefinition['options'];
}

/** What the indexer knows of a network's contracts, as the decoders read it. */
export interface IndexingRegistry {
  readonly network: Network;
  readonly tokens: ReadonlyMap<string, TokenSeed>;
  readonly pools: ReadonlyMap<string, PoolInfo>;
  /** each pool's state, updated in place by the decoders */
  readonly poolStates: ReadonlyMap<string, PoolState>;
  readonly markets: { has(address: string): boolean };
  /** the platforms' discovery sources by address (a singleton's events are checked against its platform) */
  readonly sources: ReadonlyMap<string, DiscoverySource>;
  /** pools whose reserves are their token balances (concentrated liquidity), by token */
  readonly v3PoolsByToken: ReadonlyMap<string, ReadonlySet<string>>;
}

/** A fetched range's logs by index, with the transfer fast path's columns (the indexer's LogList). */
export interface ScannedLogs {
  address(i: number): string;
  blockNumber(i: number): number;
  logIndex(i: number): number;
  txHash(i: number): string;
  /** a handle on log i's transfer columns, or -1 when it has none */
  transferAt(i: number): number;
  transferFrom(h: number): string;
  transferTo(h: number): string;
  transferValue(h: number): bigint;
}

/** The batch a range of logs is decoded into (the indexer's BatchAccumulator). */
export interface IndexingSink {
  readonly registry: IndexingRegistry;
  readonly transfers: readonly TransferEvent[];
  readonly swaps: SwapEvent[];
  readonly liquidity: LiquidityEvent[];
  readonly vaultFlows: VaultFlowEvent[];
  readonly lending: LendingEvent[];
  readonly reserveRates: ReserveRatesEvent[];
  /** a transfer of a registered token (`rows`, `handle`: the scanned row the scanner built for it) */
  addTransfer(t: TransferEvent, rows?: ScannedLogs, handle?: number): void;
  /** the pool's state changed at this log (kept for the pool_state_history journal) */
  touchPool(pool: string, state: PoolState, blockNumber: number, logIndex: number): void;
  /** liquidity net/gross change at one tick of a concentrated-liquidity pool */
  addTickDelta(pool: string, tick: number, blockNumber: number, net: bigint, gross: bigint): void;
  /** publishes the pool's state after this log to the derivation */
  emitPoolState(
    pool: string,
    family: PoolStateEvent['family'],
    state: PoolState,
    log: { blockNumber: number; logIndex: number; transactionHash: string },
  ): void;
}

/** Decodes one hot event into the batch being built (by fixed-offset hex slicing). */
export type LogHandler = (log: RpcLog, acc: IndexingSink) => void;

/**
 * Decodes log `i` of a list straight from the columns the logs scanner worked out (no RpcLog
 * object); returns false to leave the log to the LogHandler of its topic (no columns for it).
 * Must decode exactly as that handler would.
 */
export type FastLogHandler = (logs: ScannedLogs, i: number, acc: IndexingSink) => boolean;

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
 * A protocol family's indexer facet: which contracts of a platform to read from the start, what
 * it knows from configuration alone, how its discovery events create entities, and decoders for
 * its hot events. Platforms (slug + addresses by role) are data; a fork is a config entry.
 */
export interface ProtocolAdapter {
  readonly family: PlatformFamily;
  staticContracts(platform: PlatformDefinition): StaticContract[];
  seed(platform: PlatformDefinition, ctx: SeedContext): Promise<Discovery[]>;
  readonly discoveryHandlers: Readonly<Record<string, DiscoveryHandler>>;
  readonly handlers: Readonly<Record<string, LogHandler>>;
  /** optional fast paths of some of `handlers` (same topics) */
  readonly fastHandlers?: Readonly<Record<string, FastLogHandler>>;
  /** the start-block state read of a platform (INDEXER_POOLS=listed); null: the family has no state to read there */
  readonly readScope: ((platform: PlatformDefinition, ctx: ScopeReadContext) => Promise<ScopeSnapshot>) | null;
  /**
   * The listed name of a token the family issues, when its on-chain name does not say what it
   * holds (every Uniswap V2 pair is "Uniswap V2"); absent: the on-chain name.
   */
  readonly tokenName?: (t: ComposedTokenNaming) => string;
}

/** What a composed token's listed name is made of. */
export interface ComposedTokenNaming {
  /** the issuing platform's name (e.g. "SushiSwap") */
  platformName: string;
  /** its underlying tokens' symbols, in their order */
  underlyingSymbols: readonly string[];
}
