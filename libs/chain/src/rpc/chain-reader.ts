import { AdaptiveRange } from './adaptive-range';
import { isRangeTooLargeError, logCapHint } from './errors';
import { JsonRpcClient, toQuantity } from './json-rpc-client';
import { parseBlockHeader, sortLogs, standardizeLogs, type RpcBlockHeader, type RpcLog } from './types';

export interface LogFilter {
  /** contracts to read; split into groups of `maxAddresses` per request */
  addresses: readonly string[];
  /** topic0 alternatives */
  topic0: readonly string[];
}

/** The typed RPC methods the indexer needs, each checking what came back. */
export class ChainReader {
  constructor(
    readonly client: JsonRpcClient,
    private readonly maxAddresses = 1000,
  ) {}

  /** The safe head's number: with several URLs, the lowest head among those not far behind (RpcPool.safeHead). */
  async blockNumber(): Promise<number> {
    if (this.client.pool.endpoints.length === 1) return parseInt(await this.client.call<string>('eth_blockNumber'), 16);
    const answers = await this.client.callEach<string>('eth_blockNumber');
    const heads = answers.filter((a) => a.error === undefined).map((a) => ({ endpoint: a.endpoint, head: parseInt(a.result!, 16) }));
    return this.client.pool.safeHead(heads) ?? parseInt(await this.client.call<string>('eth_blockNumber'), 16);
  }

  /**
   * The latest header; with several URLs, that of the lowest head among the URLs not far behind
   * (RpcPool.safeHead): the indexer never goes past a block some healthy URL does not have.
   */
  async latestHeader(): Promise<RpcBlockHeader> {
    if (this.client.pool.endpoints.length === 1) return parseBlockHeader(await this.client.call('eth_getBlockByNumber', ['latest', false]));
    const answers = await this.client.callEach<unknown>('eth_getBlockByNumber', ['latest', false]);
    const headers: Array<{ endpoint: (typeof answers)[number]['endpoint']; header: RpcBlockHeader }> = [];
    for (const a of answers) {
      try {
        if (a.error === undefined) headers.push({ endpoint: a.endpoint, header: parseBlockHeader(a.result) });
      } catch {
        // a broken answer: that URL gives no head this time
      }
    }
    const safe = this.client.pool.safeHead(headers.map((h) => ({ endpoint: h.endpoint, head: h.header.number })));
    if (safe === undefined) return parseBlockHeader(await this.client.call('eth_getBlockByNumber', ['latest', false]));
    return headers.find((h) => h.header.number === safe)!.header;
  }

  /**
   * Headers of the given blocks in JSON-RPC batches, in the given order. A block a node answers
   * null for (it does not have it yet) is asked again, on another URL first.
   */
  async headers(numbers: readonly number[]): Promise<RpcBlockHeader[]> {
    const raw = await this.rawHeaders(numbers, false);
    return raw.map((r, i) => parseBlockHeader(r, numbers[i]));
  }

  /** Like `headers`, but a block no URL has (yet, or any more) gives undefined. */
  async maybeHeaders(numbers: readonly number[]): Promise<Array<RpcBlockHeader | undefined>> {
    const raw = await this.rawHeaders(numbers, true);
    return raw.map((r, i) => (r === null ? undefined : parseBlockHeader(r, numbers[i])));
  }

  private async rawHeaders(numbers: readonly number[], nullIfNoneHasIt: boolean): Promise<unknown[]> {
    if (numbers.length === 0) return [];
    const raw = await this.client.batch<unknown>(
      numbers.map((n) => ({ method: 'eth_getBlockByNumber', params: [toQuantity(n), false] })),
      { minBlock: numbers.reduce((a, b) => Math.max(a, b)) },
    );
    // Nulls are rare (a lagging or load-balanced node): asked one by one, elsewhere first.
    for (let i = 0; i < raw.length; i++) {
      if (raw[i] !== null) continue;
      const n = numbers[i]!;
      raw[i] = await this.client.call('eth_getBlockByNumber', [toQuantity(n), false], { lacksBlockIfNull: n, nullIfNoneHasIt });
    }
    return raw;
  }

  /**
   * eth_getLogs over exactly [from, to] (one request per address group). Transient failures are
   * retried; "range too large" answers are not (the adaptive loop shrinks the range instead).
   */
  async logs(filter: LogFilter, from: number, to: number): Promise<RpcLog[]> {
    if (filter.addresses.length === 0) return [];
    const groups: Array<readonly string[]> = [];
    for (let i = 0; i < filter.addresses.length; i += this.maxAddresses) groups.push(filter.addresses.slice(i, i + this.maxAddresses));
    const parts = await Promise.all(
      groups.map(async (address) =>
        standardizeLogs(
          await this.client.call(
            'eth_getLogs',
            [{ fromBlock: toQuantity(from), toBlock: toQuantity(to), address, topics: [filter.topic0] }],
            { giveUp: isRangeTooLargeError, minBlock: to },
          ),
        ),
      ),
    );
    if (parts.length === 1) return parts[0]!;
    const all = parts.flat();
    sortLogs(all);
    return all;
  }

  /**
   * eth_getLogs over [from, to] in ranges sized by `range`: a refused range is halved and tried
   * again, an accepted one lets the range grow. Transient errors are retried with backoff.
   */
  async logsAdaptive(filter: LogFilter, from: number, to: number, range: AdaptiveRange): Promise<RpcLog[]> {
    const out: RpcLog[] = [];
    for (const logs of await readInRanges(from, to, range, (start, end) => this.logs(filter, start, end)))
      for (const l of logs) out.push(l);
    return out;
  }
}

/**
 * Reads [from, to] in consecutive ranges sized by `range` (each result's length is its log
 * count): a range the node refuses is halved and tried again, an accepted one lets the range
 * grow; a refusal naming the node's cap sets the range to it (AdaptiveRange.onTooLarge). Returns
 * the ranges' results in chain order.
 */
export async function readInRanges<T extends { length: number }>(
  from: number,
  to: number,
  range: AdaptiveRange,
  read: (start: number, end: number) => Promise<T>,
): Promise<T[]> {
  const parts: T[] = [];
  let start = from;
  while (start <= to) {
    const end = Math.min(to, start + range.size - 1);
    const blocks = end - start + 1;
    try {
      const part = await read(start, end);
      parts.push(part);
      range.onSuccess(blocks, part.length);
      start = end + 1;
    } catch (e) {
      if (!isRangeTooLargeError(e) || !range.onTooLarge(blocks, logCapHint(e))) throw e;
    }
  }
  return parts;
}
