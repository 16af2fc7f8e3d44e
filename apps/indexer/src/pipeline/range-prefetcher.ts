import type { AdaptiveRange, ChainReader, RpcBlockHeader, RpcLog } from '@tokensvc/chain';
import type { ContractRegistry } from '../registry/contract-registry';

/** The chain changed while a range was being read (hashes disagree): read it again. */
export class ChainMovedError extends Error {}

/** One block range read from the node: its logs and the headers the batch needs. */
export interface FetchedRange {
  from: number;
  to: number;
  logs: RpcLog[];
  /** length of the registry's watch list when the logs were requested */
  watchedCount: number;
  headers: Map<number, RpcBlockHeader>;
}

export interface PrefetchOptions {
  from: number;
  to: number;
  /** ranges in flight ahead of the consumer */
  depth: number;
  /** a batch spans this many eth_getLogs ranges (read one after the other): fewer, larger batches */
  rangesPerBatch: number;
  /** from this block on every header is read (near the head, for reorg detection) */
  denseFrom: number;
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
      const to = Math.min(this.opts.to, from + this.range.size * this.opts.rangesPerBatch - 1);
      this.nextFrom = to + 1;
      const p = this.fetch(from, to);
      // Handled when consumed; this only keeps an abandoned prefetch from crashing the process.
      p.catch(() => undefined);
      this.queue.push(p);
    }
  }

  private async fetch(from: number, to: number): Promise<FetchedRange> {
    const watchedCount = this.registry.addresses.length;
    const logs = await this.reader.logsAdaptive({ addresses: this.registry.addresses.slice(0, watchedCount), topic0: this.topics }, from, to, this.range);
    const numbers = new Set<number>([from, to]);
    for (const l of logs) numbers.add(l.blockNumber);
    for (let n = Math.max(from, this.opts.denseFrom); n <= to; n++) numbers.add(n);
    const headers = await readHeaders(this.reader, [...numbers]);
    checkLogsAgainstHeaders(logs, headers);
    return { from, to, logs, watchedCount, headers };
  }
}

export async function readHeaders(reader: ChainReader, numbers: readonly number[]): Promise<Map<number, RpcBlockHeader>> {
  const sorted = [...numbers].sort((a, b) => a - b);
  const headers = await reader.headers(sorted);
  const out = new Map<number, RpcBlockHeader>();
  for (let i = 0; i < headers.length; i++) {
    const h = headers[i]!;
    const prev = out.get(h.number - 1);
    if (prev && prev.hash !== h.parentHash) throw new ChainMovedError(`block ${h.number} does not extend block ${prev.number} (chain moved while reading)`);
    out.set(h.number, h);
  }
  return out;
}

export function checkLogsAgainstHeaders(logs: readonly RpcLog[], headers: ReadonlyMap<number, RpcBlockHeader>): void {
  for (const l of logs) {
    const h = headers.get(l.blockNumber);
    if (h && h.hash !== l.blockHash) throw new ChainMovedError(`log of block ${l.blockNumber} has hash ${l.blockHash}, the header ${h.hash} (chain moved while reading)`);
  }
}
