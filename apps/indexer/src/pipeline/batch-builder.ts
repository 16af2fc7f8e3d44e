import {
  readErc20Metadata,
  sortLogs,
  type AdaptiveRange,
  type ChainReader,
  type Erc20Metadata,
  type JsonRpcClient,
  type RpcBlockHeader,
  type RpcLog,
} from '@tokensvc/chain';
import { NETWORK_INFO, ZERO_ADDRESS, tokenKey, type Network, type PlatformDefinition } from '@tokensvc/domain';
import { ADAPTERS } from '../adapters';
import { BatchAccumulator } from '../decode/batch-accumulator';
import type { LogDecoder } from '../decode/log-decoder';
import type { BlockHeader, DecodedBatch } from '../model/decoded-batch';
import { emptyPoolState } from '../model/pool-state';
import type { PoolFamily, PoolState, TokenSeed } from '../model/registry.types';
import { TimeSlice, type CpuGate } from '../model/time-slice';
import type { ContractRegistry } from '../registry/contract-registry';
import type { PoolWithState } from '../store/pools.repo';
import type { BalanceDeltas } from '../store/balance-deltas';
import type { TokenRow } from '../store/tokens.repo';
import { prepareTransfers, type PreparedTransfers } from '../store/transfers.repo';
import { ArrayLogList, logsOf, type LogList } from '../rpc/log-list';
import { SubsetLogList } from '../rpc/subset-log-list';
import { checkLogsAgainstHeaders, readHeaders, readLogs, type FetchedRange } from './range-prefetcher';

/** logs decoded between two looks at the clock */
const DECODE_SLICE = 2048;

/** One range decoded and ready to write in one transaction. */
export interface BuiltBatch {
  network: Network;
  from: number;
  to: number;
  /** hash of block `to` (the cursor's hash after the batch) */
  toHash: string;
  headers: BlockHeader[];
  acc: BatchAccumulator;
  /** the transfers' COPY payload and balance deltas */
  transfers: PreparedTransfers;
  newTokens: TokenRow[];
  newPools: PoolWithState[];
  /** last state of every pool the batch changed (copies: the registry moves on with the next batch) */
  changedPools: Array<{ pool: string; state: PoolState }>;
  decoded: DecodedBatch;
  logCount: number;
  malformed: number;
}

const NATIVE_NAMES: Record<string, string> = {
  ETH: 'Ether',
  POL: 'Polygon Ecosystem Token',
  AVAX: 'Avalanche',
  BNB: 'BNB',
  S: 'Sonic',
  HYPE: 'Hype',
  XPL: 'Plasma',
  FLR: 'Flare',
};

export const tokenImage = (network: Network, address: string): string => `/images/tokens/${network}/${address}.svg`;

/**
 * Turns fetched ranges into a batch: registers what each range's discovery events create (and
 * pending configured tokens), reads the logs of contracts registered after the range was
 * requested, reads new tokens' ERC-20 metadata in one multicall, then decodes every log in chain
 * order. Mutates the registry; the caller reloads it from Postgres if the batch is not committed.
 */
export class BatchBuilder {
  constructor(
    private readonly reader: ChainReader,
    private readonly decoder: LogDecoder,
    private readonly range: AdaptiveRange,
    /** platform name by slug (composed token names) */
    private readonly platformNames: ReadonlyMap<string, string>,
  ) {}

  /** A batch of consecutive fetched ranges, each decoded as it is added (its raw logs can go); background work behind `gate`. */
  begin(registry: ContractRegistry, pendingSeeds: TokenSeed[], gate?: CpuGate): BatchDraft {
    return new BatchDraft(this, registry, pendingSeeds, gate);
  }

  /** Registers the range's discoveries, completes its logs and headers, and decodes it into `acc`. */
  async decodeRange(
    fr: FetchedRange,
    registry: ContractRegistry,
    newSeeds: ReadonlyArray<{ seed: TokenSeed; block: number }>,
    acc: BatchAccumulator,
    slice: TimeSlice,
  ): Promise<DecodedRange> {
    const network = registry.network;
    const newTokens = [...newSeeds];
    const newPools: PoolWithState[] = [];
    const registeredAt = new Map<string, number>();
    for (const { log, discovery } of this.decoder.discover(fr.logs, registry)) {
      if (discovery.kind === 'pool') {
        const state = initialState(discovery.pool.family, log);
        if (registry.addPool(discovery.pool, state)) {
          newPools.push({ info: discovery.pool, state: { ...state } });
          registeredAt.set(discovery.pool.address, log.blockNumber);
        }
      } else if (discovery.kind === 'token') {
        if (registry.addToken(discovery.token)) {
          newTokens.push({ seed: discovery.token, block: log.blockNumber });
          registeredAt.set(discovery.token.address, log.blockNumber);
        }
      } else registry.addMarket({ address: discovery.address, platform: discovery.platform });
    }

    const logs = await this.withLateContracts(fr, registry, registeredAt);
    const blocks = new Set<number>();
    logs.forEachBlock((n) => blocks.add(n));
    const missing = [...blocks].filter((n) => !fr.headers.has(n));
    if (missing.length > 0) for (const [n, h] of await readHeaders(this.reader, missing)) fr.headers.set(n, h);
    checkLogsAgainstHeaders(logs, fr.headers);

    const tokenRows = await this.tokenRows(network, newTokens, fr.headers);
    let malformed = 0;
    for (let i = 0; i < logs.length; i += DECODE_SLICE) {
      malformed += this.decoder.decode(logs, acc, i, Math.min(logs.length, i + DECODE_SLICE));
      await slice.maybeYield();
    }
    return { tokenRows, newPools, logCount: logs.length, malformed };
  }

  /**
   * Logs of contracts that joined the watch list after this range was requested (found by an
   * earlier range, or by this one at block N: from N on, as a fresh index would). The range has
   * them already when the discovery read-ahead added them to its filter; the others are read now.
   */
  private async withLateContracts(
    fr: FetchedRange,
    registry: ContractRegistry,
    registeredAt: ReadonlyMap<string, number>,
  ): Promise<LogList> {
    const late = registry.addresses.slice(fr.watchedCount);
    const startOf = (a: string): number => Math.max(fr.from, registeredAt.get(a) ?? fr.from);
    let logs = fr.logs;
    if (fr.extra.size > 0) {
      const starts = new Map(late.filter((a) => fr.extra.has(a)).map((a) => [a, startOf(a)]));
      const keep: number[] = [];
      for (let i = 0; i < logs.length; i++) {
        const a = logs.address(i);
        if (!fr.extra.has(a) || (starts.get(a) ?? Infinity) <= logs.blockNumber(i)) keep.push(i);
      }
      if (keep.length < logs.length) logs = new SubsetLogList(logs, keep);
    }
    const unread = late.filter((a) => !fr.extra.has(a));
    if (unread.length === 0) return logs;
    const byStart = new Map<number, string[]>();
    for (const a of unread) {
      const start = startOf(a);
      byStart.set(start, [...(byStart.get(start) ?? []), a]);
    }
    const all = logsOf(logs);
    for (const [start, addresses] of byStart) {
      const more = await readLogs(this.reader, { addresses, topic0: this.decoder.topics }, start, fr.to, this.range);
      for (const l of logsOf(more)) all.push(l);
    }
    sortLogs(all);
    return new ArrayLogList(all);
  }

  private tokenRows(
    network: Network,
    found: ReadonlyArray<{ seed: TokenSeed; block: number }>,
    headers: ReadonlyMap<number, RpcBlockHeader>,
  ): Promise<TokenRow[]> {
    return readTokenRows(this.reader.client, network, found, headers, this.platformNames);
  }
}

/** Platform name by slug, for readTokenRows. */
export function platformNames(platforms: readonly PlatformDefinition[]): ReadonlyMap<string, string> {
  return new Map(platforms.map((p) => [p.slug, p.name]));
}

/**
 * A token's listed name: the one its family composes (from the platform's name and the underlying
 * tokens' symbols) where the family names its tokens so and every part is known, else its on-chain name.
 */
function listedName(
  seed: TokenSeed,
  onChain: string,
  platformName: string | undefined,
  symbolOf: (address: string) => string | undefined,
): string {
  const compose = ADAPTERS[seed.family].tokenName;
  const symbols = seed.underlying.map(symbolOf);
  if (!compose || platformName === undefined || symbols.length === 0 || !symbols.every((s): s is string => !!s)) return onChain;
  return compose({ platformName, underlyingSymbols: symbols });
}

/**
 * Token rows of newly registered tokens: ERC-20 metadata of the non-native ones in one multicall
 * (with the symbols of the underlying tokens of those named after them: listedName), first seen
 * at `block`. Their history is partial (historyFromBlock) from `historyFrom`, or from `block` for
 * an underlying found mid-history or a partial seed; else complete (null). The one place a token's
 * name is set.
 */
export async function readTokenRows(
  client: JsonRpcClient,
  network: Network,
  found: ReadonlyArray<{ seed: TokenSeed; block: number }>,
  headers: ReadonlyMap<number, RpcBlockHeader>,
  names: ReadonlyMap<string, string>,
  historyFrom?: number,
): Promise<TokenRow[]> {
  if (found.length === 0) return [];
  const erc20 = found.filter((f) => f.seed.family !== 'native').map((f) => f.seed.address);
  const underlying = found
    .filter((f) => ADAPTERS[f.seed.family].tokenName)
    .flatMap((f) => f.seed.underlying.filter((a) => a !== ZERO_ADDRESS));
  const read = [...new Set([...erc20, ...underlying])];
  const meta = read.length > 0 ? await readErc20Metadata(client, read) : new Map<string, Erc20Metadata | undefined>();
  const info = NETWORK_INFO[network];
  const symbolOf = (a: string): string | undefined => (a === ZERO_ADDRESS ? info.nativeSymbol : meta.get(a)?.symbol);
  return found.map(({ seed, block }) => {
    const m =
      seed.family === 'native'
        ? { name: NATIVE_NAMES[info.nativeSymbol] ?? info.nativeSymbol, symbol: info.nativeSymbol, decimals: 18 }
        : meta.get(seed.address);
    const image = tokenImage(network, seed.address);
    return {
      key: tokenKey(network, seed.address),
      network,
      address: seed.address,
      platform: seed.platform,
      family: seed.family,
      name: listedName(seed, m?.name ?? '', names.get(seed.platform), symbolOf),
      symbol: m?.symbol ?? '',
      decimals: m?.decimals ?? 18,
      underlying: seed.underlying,
      poolAddress: seed.poolAddress,
      image,
      images: [image],
      metadata: m ? seed.metadata : { ...seed.metadata, metadataUnavailable: true },
      isPortable: seed.listed && (seed.family === 'basic' || seed.family === 'native'),
      isVerified: seed.listed,
      createdAt: headers.get(block)!.timestamp,
      createdBlock: block,
      historyFromBlock:
        seed.family === 'native' ? null : (historyFrom ?? (seed.partial || (seed.family === 'basic' && !seed.listed) ? block : null)),
    };
  });
}

function initialState(family: PoolFamily, log: RpcLog): PoolState {
  return { ...emptyPoolState(family), blockNumber: log.blockNumber, logIndex: log.logIndex };
}

interface DecodedRange {
  tokenRows: TokenRow[];
  newPools: PoolWithState[];
  logCount: number;
  malformed: number;
}

/**
 * A batch being built from consecutive fetched ranges: each range is decoded when it is added,
 * so a batch of several ranges never holds their raw logs at once. Larger batches pay the
 * per-batch costs (balance upserts, metrics, statements) once for more events.
 */
export class BatchDraft {
  private readonly acc: BatchAccumulator;
  private readonly slice: TimeSlice;
  private readonly headers = new Map<number, RpcBlockHeader>();
  private readonly newTokens: TokenRow[] = [];
  private readonly newPools: PoolWithState[] = [];
  private from = -1;
  private to = -1;
  /** logs decoded so far */
  logCount = 0;
  private malformed = 0;

  constructor(
    private readonly builder: BatchBuilder,
    private readonly registry: ContractRegistry,
    private readonly pendingSeeds: TokenSeed[],
    gate?: CpuGate,
  ) {
    this.acc = new BatchAccumulator(registry);
    this.slice = new TimeSlice(gate);
  }

  get empty(): boolean {
    return this.from < 0;
  }

  /** Adds the next range (it must start right after the previous one). */
  async add(fr: FetchedRange): Promise<void> {
    if (!this.empty && fr.from !== this.to + 1) throw new Error(`range ${fr.from}-${fr.to} does not follow ${this.to}`);
    // Configured tokens not stored yet are registered at the start of the batch.
    const seeds = this.empty ? this.pendingSeeds.splice(0).map((seed) => ({ seed, block: fr.from })) : [];
    if (this.empty) this.from = fr.from;
    const r = await this.builder.decodeRange(fr, this.registry, seeds, this.acc, this.slice);
    this.to = fr.to;
    for (const [n, h] of fr.headers) this.headers.set(n, h);
    this.newTokens.push(...r.tokenRows);
    this.newPools.push(...r.newPools);
    this.logCount += r.logCount;
    this.malformed += r.malformed;
  }

  /**
   * The batch, ready to write (`slice`: foreground time slicing when the writer is waiting for it;
   * `deltas`: where its balance changes are summed, by default a BalanceDeltas of its own).
   */
  async finish(slice: TimeSlice = this.slice, deltas?: BalanceDeltas): Promise<BuiltBatch> {
    const { acc, registry } = this;
    const network = registry.network;
    const transfers = await prepareTransfers(network, acc.transfers, slice, acc.transfersCopy(), deltas);
    const headers = [...this.headers.values()].sort((a, b) => a.number - b.number);
    const decoded: DecodedBatch = {
      network,
      fromBlock: this.from,
      toBlock: this.to,
      blocks: headers,
      transfers: acc.transfers,
      poolStates: acc.poolStates,
      swaps: acc.swaps,
      liquidity: acc.liquidity,
      vaultFlows: acc.vaultFlows,
      lending: acc.lending,
      reserveRates: acc.reserveRates,
      newTokens: this.newTokens.map((t) => t.key),
    };
    const changedPools = [...acc.changedPools].map((pool) => ({ pool, state: { ...registry.poolStates.get(pool)! } }));
    const toHash = this.headers.get(this.to)!.hash;
    return {
      network,
      from: this.from,
      to: this.to,
      toHash,
      headers,
      acc,
      transfers,
      newTokens: this.newTokens,
      newPools: this.newPools,
      changedPools,
      decoded,
      logCount: this.logCount,
      malformed: this.malformed,
    };
  }
}
