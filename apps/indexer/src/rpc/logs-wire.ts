/**
 * What crosses from the logs worker to the indexer's thread, and how the thread receives a
 * scanned reply: as a LogList over its columns (RpcLog objects are made when decoded).
 */
import { RpcResponseError, sortLogs, type RpcLog } from '@tokensvc/chain';
import { ArrayLogList, type LogList } from './log-list';
import { ScannedLogList } from './scanned-log-list';
import type { ScannedLogs } from './scanned-logs';

export interface LogsRequest {
  id: number;
  url: string;
  /** the JSON-RPC request body */
  payload: string;
  timeoutMs: number;
  /** the network field of transfers' COPY rows */
  network: string;
}

export type LogsReply =
  | { id: number; kind: 'logs'; logs: ScannedLogs }
  /** 2xx, but not of the simple shape: the body for the generic JSON path */
  | { id: number; kind: 'raw'; body: Uint8Array }
  /** any other HTTP status; `text`: the start of the body */
  | { id: number; kind: 'http'; status: number; text: string; retryAfter?: string }
  /** no HTTP answer (connection, timeout, decompression) */
  | { id: number; kind: 'transport'; message: string; timedOut: boolean };

/** The thread's copy of the worker's shared string table (kept in reply order). */
export class StringMirror {
  strings: string[] = [];

  apply(newStrings: readonly string[], reset: boolean): void {
    if (reset) this.strings = [];
    for (const s of newStrings) this.strings.push(s);
  }
}

/**
 * A scanned reply as a LogList, checked as standardizeLogs checks logs (sorted by position, no
 * two at one position). Call in reply order: it updates the mirror.
 */
export function receive(scanned: ScannedLogs, mirror: StringMirror): LogList {
  mirror.apply(scanned.newStrings, scanned.reset);
  const list = new ScannedLogList(scanned, mirror.strings);
  for (let i = 1; i < list.length; i++) {
    const a = list.blockNumber(i - 1);
    const b = list.blockNumber(i);
    if (a > b || (a === b && list.logIndex(i - 1) >= list.logIndex(i))) return new ArrayLogList(inStandardOrder(list.toArray()));
  }
  return list;
}

/** standardizeLogs' ordering rules: sorted by (block, log index), no two logs at one position. */
export function inStandardOrder(logs: RpcLog[]): RpcLog[] {
  for (let i = 1; i < logs.length; i++) {
    const a = logs[i - 1]!;
    const b = logs[i]!;
    if (a.blockNumber > b.blockNumber || (a.blockNumber === b.blockNumber && a.logIndex >= b.logIndex)) {
      sortLogs(logs);
      break;
    }
  }
  for (let i = 1; i < logs.length; i++) {
    const a = logs[i - 1]!;
    const b = logs[i]!;
    if (a.blockNumber === b.blockNumber && a.logIndex === b.logIndex)
      throw new RpcResponseError(`eth_getLogs returned two logs at block ${b.blockNumber} index ${b.logIndex}`);
  }
  return logs;
}
