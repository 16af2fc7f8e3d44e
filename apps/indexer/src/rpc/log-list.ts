/**
 * The logs of a fetched range as the pipeline reads them: by index, with RpcLog objects made
 * only when a decoder asks for one (a scanned reply keeps its logs in typed arrays until then,
 * so a range waiting in the read-ahead queue is a few buffers, not 100k objects for the garbage
 * collector to copy), and the transfer fast path's columns (see logs-scanner.ts). The kinds:
 * plain RpcLog objects here, a scanned reply (scanned-log-list.ts), consecutive lists as one
 * (concat-log-list.ts) and some of a list's logs (subset-log-list.ts).
 */
import type { RpcLog } from '@tokensvc/chain';

export interface LogList {
  readonly length: number;
  blockNumber(i: number): number;
  logIndex(i: number): number;
  blockHash(i: number): string;
  txHash(i: number): string;
  /** lowercase */
  address(i: number): string;
  topic0(i: number): string | undefined;
  /** log i as an RpcLog (a fresh object for scanned logs: use it and let it go) */
  log(i: number): RpcLog;
  /** (block number, block hash) of every log, once per run of consecutive logs with the same pair */
  forEachBlock(visit: (blockNumber: number, blockHash: string) => void): void;
  /** a handle on log i's transfer columns, or -1 when it has none (not scanned, or not transfer-shaped) */
  transferAt(i: number): number;
  /** holder addresses (lowercase) and value of a transfer-shaped log */
  transferFrom(h: number): string;
  transferTo(h: number): string;
  transferValue(h: number): bigint;
  /** the buffer holding the transfer's whole COPY row, and where it starts and ends (line break included) */
  transferRows(h: number): Uint8Array;
  transferRowStart(h: number): number;
  transferRowEnd(h: number): number;
}

/** Plain RpcLog objects (the generic path, tests). */
export class ArrayLogList implements LogList {
  constructor(readonly logs: readonly RpcLog[]) {}

  get length(): number {
    return this.logs.length;
  }

  blockNumber(i: number): number {
    return this.logs[i]!.blockNumber;
  }

  logIndex(i: number): number {
    return this.logs[i]!.logIndex;
  }

  blockHash(i: number): string {
    return this.logs[i]!.blockHash;
  }

  txHash(i: number): string {
    return this.logs[i]!.transactionHash;
  }

  address(i: number): string {
    return this.logs[i]!.address;
  }

  topic0(i: number): string | undefined {
    return this.logs[i]!.topics[0];
  }

  log(i: number): RpcLog {
    return this.logs[i]!;
  }

  forEachBlock(visit: (blockNumber: number, blockHash: string) => void): void {
    let n = -1;
    let h = '';
    for (const l of this.logs) {
      if (l.blockNumber === n && l.blockHash === h) continue;
      n = l.blockNumber;
      h = l.blockHash;
      visit(n, h);
    }
  }

  transferAt(): number {
    return -1;
  }

  transferFrom(): string {
    throw new Error('no transfer columns');
  }

  transferTo(): string {
    throw new Error('no transfer columns');
  }

  transferValue(): bigint {
    throw new Error('no transfer columns');
  }

  transferRows(): Uint8Array {
    throw new Error('no transfer columns');
  }

  transferRowStart(): number {
    throw new Error('no transfer columns');
  }

  transferRowEnd(): number {
    throw new Error('no transfer columns');
  }
}

export function asLogList(logs: readonly RpcLog[] | LogList): LogList {
  return isLogArray(logs) ? new ArrayLogList(logs) : logs;
}

const isLogArray = (logs: readonly RpcLog[] | LogList): logs is readonly RpcLog[] => Array.isArray(logs);

/** Every log as an RpcLog object (a new array). */
export function logsOf(list: LogList): RpcLog[] {
  if (list instanceof ArrayLogList) return [...list.logs];
  const out = new Array<RpcLog>(list.length);
  for (let i = 0; i < out.length; i++) out[i] = list.log(i);
  return out;
}
