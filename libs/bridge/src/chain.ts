/**
 * The chain reads the bridge needs on one network, over JsonRpcClient: eth_call, receipts, and
 * event look-ups that stay within bounded block ranges (found from timestamps by binary search),
 * never a scan of the whole history.
 */
import { ChainReader, JsonRpcClient, type RpcBlockHeader, type RpcLog, standardizeLogs, toQuantity } from '@tokensvc/chain';

export interface RawReceiptLog {
  address: string;
  topics: string[];
  data: string;
  logIndex: string;
  blockNumber: string;
  transactionHash: string;
}

export interface RawReceipt {
  transactionHash: string;
  blockNumber: string;
  status: string;
  logs: RawReceiptLog[];
  /** hex quantities, as nodes send them */
  gasUsed?: string;
  effectiveGasPrice?: string;
}

export interface LogQuery {
  address: string;
  /** positional topics; null = any */
  topics: Array<string | null>;
}

export class BridgeChainClient {
  readonly reader: ChainReader;

  constructor(
    readonly rpc: JsonRpcClient,
    /** blocks per eth_getLogs request */
    readonly logRange: number,
  ) {
    this.reader = new ChainReader(rpc);
  }

  head(): Promise<RpcBlockHeader> {
    return this.reader.latestHeader();
  }

  async header(n: number): Promise<RpcBlockHeader> {
    const [h] = await this.reader.headers([n]);
    return h!;
  }

  ethCall(to: string, data: string): Promise<string> {
    return this.rpc.call<string>('eth_call', [{ to, data }, 'latest']);
  }

  /** Many eth_calls against the latest block in one batch, in order. */
  ethCalls(calls: ReadonlyArray<{ to: string; data: string }>): Promise<string[]> {
    return this.rpc.batch<string>(calls.map((c) => ({ method: 'eth_call', params: [{ to: c.to, data: c.data }, 'latest'] })));
  }

  receipt(txHash: string): Promise<RawReceipt | null> {
    return this.rpc.call<RawReceipt | null>('eth_getTransactionReceipt', [txHash]);
  }

  async logs(q: LogQuery, from: number, to: number): Promise<RpcLog[]> {
    if (to < from) return [];
    return standardizeLogs(
      await this.rpc.call('eth_getLogs', [{ address: q.address, topics: q.topics, fromBlock: toQuantity(from), toBlock: toQuantity(to) }]),
    );
  }

  /** Every log of `q` in [from, to], in `logRange` steps. */
  async logsInRange(q: LogQuery, from: number, to: number): Promise<RpcLog[]> {
    const out: RpcLog[] = [];
    for (let start = Math.max(0, from); start <= to; start += this.logRange)
      out.push(...(await this.logs(q, start, Math.min(to, start + this.logRange - 1))));
    return out;
  }

  /** The first log of `q` in [from, to], searching forwards in `logRange` steps. */
  async firstLog(q: LogQuery, from: number, to: number): Promise<RpcLog | undefined> {
    for (let start = Math.max(0, from); start <= to; start += this.logRange) {
      const found = await this.logs(q, start, Math.min(to, start + this.logRange - 1));
      if (found.length > 0) return found[0];
    }
    return undefined;
  }

  /** The last log of `q` in [from, to], searching backwards from `to` in `logRange` steps. */
  async lastLog(q: LogQuery, from: number, to: number): Promise<RpcLog | undefined> {
    const low = Math.max(0, from);
    for (let end = to; end >= low; end -= this.logRange) {
      const found = await this.logs(q, Math.max(low, end - this.logRange + 1), end);
      if (found.length > 0) return found[found.length - 1];
    }
    return undefined;
  }

  /**
   * The first block whose timestamp is >= `timestamp` (binary search over headers, ~log2(head)
   * requests); head + 1 when no block is that late yet.
   */
  async firstBlockAtOrAfter(timestamp: number, head?: RpcBlockHeader): Promise<number> {
    const top = head ?? (await this.head());
    if (top.timestamp < timestamp) return top.number + 1;
    let lo = 0;
    let hi = top.number;
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      if ((await this.header(mid)).timestamp >= timestamp) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** The last block whose timestamp is <= `timestamp`; -1 when even block 0 is later. */
  async lastBlockAtOrBefore(timestamp: number, head?: RpcBlockHeader): Promise<number> {
    return (await this.firstBlockAtOrAfter(timestamp + 1, head)) - 1;
  }
}

/** Unix seconds the next block will at least have: the chain's clock may run ahead of ours (time control) or lag (idle automine). */
export function chainNow(head: RpcBlockHeader, wallClockMs = Date.now()): number {
  return Math.max(head.timestamp, Math.floor(wallClockMs / 1000));
}

export const hexToNumber = (hex: string): number => parseInt(hex, 16);

/** A 32-byte topic of a uint256. */
export const uintTopic = (n: bigint | number): string => `0x${BigInt(n).toString(16).padStart(64, '0')}`;
