import { AdaptiveRange, type ChainReader, type LogFilter, type RpcBlockHeader, type RpcLog } from '@tokensvc/chain';
import type { ContractRegistry } from '../registry/contract-registry';
import { asLogList, type LogList } from '../rpc/log-list';
import { IndexerChainReader } from '../rpc/logs-reader';

/** The chain changed while a range was being read (hashes disagree): read it again. */
export class ChainMovedError extends Error {}

/** One block range read from the node: its logs and the headers the batch needs. */
export interface FetchedRange {
  from: number;
  to: number;
  logs: LogList;
  /** length of the registry's watch list when the logs were requested */
  watchedCount: number;
  /**
   * addresses read besides that watch list, over the whole range: contracts that discovery events
   * of this or an earlier range will register (the batch keeps their logs from the block it
   * registers them at, and drops the logs of any it does not register)
   */
  extra: ReadonlySet<string>;
  headers: Map<number, RpcBlockHeader>;
}

/** Discovery read ahead: what the source contracts' events in a range will register. */
export interface DiscoveryLookahead {
  topics: readonly string[];
  /** addresses the discovery events among `logs` will register (nothing is registered here) */
  addressesIn(logs: readonly RpcLog[] | LogList): string[];
}

export interface PrefetchOptions {
  from: number;
  to: number;
  /** ranges in flight ahead of the consumer */
  depth: number;
  /**
   * a batch spans this many eth_getLogs ranges (read one after the other): fewer, larger batches.
   * The first batches span 1, 2, 4, ... ranges, so the first write starts early.
   */
  rangesPerBatch: number;
  /** from this block on every header is read (near the head, for reorg detection) */
  denseFrom: number;
  /**
   * Backfill ranges (below denseFrom) first read the source contracts' discovery events and add
   * what they create to the log filter, so contracts found by a batch need no second eth_getLogs
   * (for this range and every range already in flight) once it has registered them.
   */
  lookahead?: DiscoveryLookahead;
}

/**
 * Reads consecutive block ranges ahead of the writer, a bounded number at a time, and hands them
 * out in order. Each range: eth_getLogs over the watched addresses (adaptive sub-ranges), then
 * headers in one JSON-RPC batch for the blocks that have logs, the range ends, and every block
 * of the dense tail; log block hashes must match the headers.
 */
export class RangePrefetcher {
  private readonly queue: Array<Promise<FetchedRange>> = [];
  private nextFrom: number;
  private batches = 0;
  /** everything the discovery read-ahead found so far (ranges chain on it, in order) */
  private discovered: Promise<ReadonlySet<string>> = Promise.resolve(new Set());

  constructor(
    private readonly reader: ChainReader,
    private readonly registry: ContractRegistry,
    private readonly topics: readonly string[],
    private readonly range: AdaptiveRange,
    private readonly opts: PrefetchOptions,
  ) {
    this.nextFrom = opts.from;
  }

  /** The next range in order, or undefined once [from, to] has been handed out. */
  async next(): Promise<FetchedRange | undefined> {
    this.fill();
    const head = this.queue.shift();
    if (!head) return undefined;
    const fetched = await head;
    this.fill();
    return fetched;
  }

  private fill(): void {
    while (this.queue.length < this.opts.depth && this.nextFrom <= this.opts.to) {
      const from = this.nextFrom;
      const ranges = Math.min(this.opts.rangesPerBatch, 2 ** this.batches++);
      const to = Math.min(this.opts.to, from + this.range.size * ranges - 1);
      this.nextFrom = to + 1;
      const p = this.fetch(from, to);
      // Handled when consumed; this only keeps an abandoned prefetch from crashing the process.
      p.catch(() => undefined);
      this.queue.push(p);
    }
  }

  private async fetch(from: number, to: number): Promise<FetchedRange> {
    const candidates = this.opts.lookahead && to < this.opts.denseFrom ? await this.discoverUpTo(this.opts.lookahead, from, to) : undefined;
    // Both taken after the read-ahead: the watch list may have grown meanwhile.
    const watchedCount = this.registry.addresses.length;
    const extra = candidates ? [...candidates].filter((a) => !this.registry.isWatched(a)) : [];
    const addresses = this.registry.addresses.slice(0, watchedCount);
    for (const a of extra) addresses.push(a);
    const logs = await readLogs(this.reader, { addresses, topic0: this.topics }, from, to, this.range);
    const numbers = new Set<number>([from, to]);
    logs.forEachBlock((n) => numbers.add(n));
    for (let n = Math.max(from, this.opts.denseFrom); n <= to; n++) numbers.add(n);
    const headers = await readHeaders(this.reader, [...numbers]);
    checkLogsAgainstHeaders(logs, headers);
    return { from, to, logs, watchedCount, extra: new Set(extra), headers };
  }

  /** The addresses discovery events up to `to` create (a few logs of the source contracts per range). */
  private discoverUpTo(lookahead: DiscoveryLookahead, from: number, to: number): Promise<ReadonlySet<string>> {
    const sources = [...this.registry.sources.keys()];
    const next = this.discovered.then(async (known) => {
      if (sources.length === 0) return known;
      const range = new AdaptiveRange({ max: this.range.max, initial: to - from + 1, targetLogs: this.range.targetLogs });
      const logs = await this.reader.logsAdaptive({ addresses: sources, topic0: lookahead.topics }, from, to, range);
      const found = new Set(known);
      for (const a of lookahead.addressesIn(logs)) found.add(a);
      return found;
    });
    this.discovered = next;
    return next;
  }
}

export async function readHeaders(reader: ChainReader, numbers: readonly number[]): Promise<Map<number, RpcBlockHeader>> {
  const sorted = [...numbers].sort((a, b) => a - b);
  const headers = await reader.headers(sorted);
  const out = new Map<number, RpcBlockHeader>();
  for (let i = 0; i < headers.length; i++) {
    const h = headers[i]!;
    const prev = out.get(h.number - 1);
    if (prev && prev.hash !== h.parentHash)
      throw new ChainMovedError(`block ${h.number} does not extend block ${prev.number} (chain moved while reading)`);
    out.set(h.number, h);
  }
  return out;
}

export function checkLogsAgainstHeaders(logs: readonly RpcLog[] | LogList, headers: ReadonlyMap<number, RpcBlockHeader>): void {
  asLogList(logs).forEachBlock((n, hash) => {
    const h = headers.get(n);
    if (h && h.hash !== hash)
      throw new ChainMovedError(`log of block ${n} has hash ${hash}, the header ${h.hash} (chain moved while reading)`);
  });
}

/** logsAdaptive as a LogList (scanned, without RpcLog objects, when the reader is the indexer's). */
export async function readLogs(reader: ChainReader, filter: LogFilter, from: number, to: number, range: AdaptiveRange): Promise<LogList> {
  if (reader instanceof IndexerChainReader) return reader.logListAdaptive(filter, from, to, range);
  return asLogList(await reader.logsAdaptive(filter, from, to, range));
}
