import { AdaptiveRange } from './adaptive-range';
import { isRangeTooLargeError, isRetryableRpcError } from './errors';
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

  async blockNumber(): Promise<number> {
    return parseInt(await this.client.call<string>('eth_blockNumber'), 16);
  }

  async latestHeader(): Promise<RpcBlockHeader> {
    return parseBlockHeader(await this.client.call('eth_getBlockByNumber', ['latest', false]));
  }

  /** Headers of the given blocks in JSON-RPC batches, in the given order. */
  async headers(numbers: readonly number[]): Promise<RpcBlockHeader[]> {
    const raw = await this.client.batch<unknown>(numbers.map((n) => ({ method: 'eth_getBlockByNumber', params: [toQuantity(n), false] })));
    return raw.map((r, i) => parseBlockHeader(r, numbers[i]));
  }

  /** Like `headers`, but a block the node does not have (yet, or any more) gives undefined. */
  async maybeHeaders(numbers: readonly number[]): Promise<Array<RpcBlockHeader | undefined>> {
    const raw = await this.client.batch<unknown>(numbers.map((n) => ({ method: 'eth_getBlockByNumber', params: [toQuantity(n), false] })));
    return raw.map((r, i) => (r === null ? undefined : parseBlockHeader(r, numbers[i])));
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
          await this.client.call('eth_getLogs', [{ fromBlock: toQuantity(from), toBlock: toQuantity(to), address, topics: [filter.topic0] }], { retryIf: retryUnlessRangeError }),
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
    for (const logs of await readInRanges(from, to, range, (start, end) => this.logs(filter, start, end))) for (const l of logs) out.push(l);
    return out;
  }
}

const retryUnlessRangeError = (e: unknown): boolean => isRetryableRpcError(e) && !isRangeTooLargeError(e);

/**
 * Reads [from, to] in consecutive ranges sized by `range` (each result's length is its log
 * count): a range the node refuses is halved and tried again, an accepted one lets the range
 * grow. Returns the ranges' results in chain order.
 */
export async function readInRanges<T extends { length: number }>(from: number, to: number, range: AdaptiveRange, read: (start: number, end: number) => Promise<T>): Promise<T[]> {
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
      if (!isRangeTooLargeError(e) || !range.onTooLarge(blocks)) throw e;
    }
  }
  return parts;
}
