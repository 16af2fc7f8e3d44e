import { RpcResponseError } from './errors';

/** A log as the pipeline uses it: lowercase hex, numbers as numbers, checked on the way in. */
/** An EVM log as eth_getLogs returns it (numbers decoded): the domain's type, shared with the protocol modules. */
import type { RpcLog } from '@tokensvc/domain';

export type { RpcLog };

export interface RpcBlockHeader {
  number: number;
  hash: string;
  parentHash: string;
  /** unix seconds */
  timestamp: number;
}

interface RawLog {
  address?: string;
  topics?: string[];
  data?: string;
  blockNumber?: string;
  blockHash?: string;
  logIndex?: string;
  transactionHash?: string;
  removed?: boolean;
}

interface RawBlock {
  number?: string;
  hash?: string;
  parentHash?: string;
  timestamp?: string;
}

const hexNumber = (v: string | undefined, what: string): number => {
  if (typeof v !== 'string' || !v.startsWith('0x')) throw new RpcResponseError(`${what} is not a hex quantity: ${String(v)}`);
  return parseInt(v, 16);
};

/**
 * Checks and normalises an eth_getLogs answer (distrust RPC responses): drops removed logs,
 * requires every field, sorts by (block, log index) and rejects duplicate positions.
 */
export function standardizeLogs(raw: unknown): RpcLog[] {
  if (!Array.isArray(raw)) throw new RpcResponseError('eth_getLogs result is not an array');
  // Normalised in place: a million-log response must not be copied object by object.
  const out: RpcLog[] = [];
  let sorted = true;
  for (const r of raw as RawLog[]) {
    if (r.removed === true) continue;
    if (
      typeof r.address !== 'string' ||
      !Array.isArray(r.topics) ||
      typeof r.data !== 'string' ||
      typeof r.blockHash !== 'string' ||
      typeof r.transactionHash !== 'string'
    ) {
      throw new RpcResponseError(`eth_getLogs returned an incomplete log: ${JSON.stringify(r).slice(0, 300)}`);
    }
    const log = r as unknown as RpcLog;
    log.address = r.address.toLowerCase();
    log.blockNumber = hexNumber(r.blockNumber, 'log blockNumber');
    log.logIndex = hexNumber(r.logIndex, 'log logIndex');
    const prev = out[out.length - 1];
    if (prev && (prev.blockNumber > log.blockNumber || (prev.blockNumber === log.blockNumber && prev.logIndex >= log.logIndex)))
      sorted = false;
    out.push(log);
  }
  if (!sorted) sortLogs(out);
  for (let i = 1; i < out.length; i++) {
    const a = out[i - 1]!;
    const b = out[i]!;
    if (a.blockNumber === b.blockNumber && a.logIndex === b.logIndex)
      throw new RpcResponseError(`eth_getLogs returned two logs at block ${b.blockNumber} index ${b.logIndex}`);
  }
  return out;
}

export function sortLogs(logs: RpcLog[]): void {
  logs.sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
}

export function parseBlockHeader(raw: unknown, expected?: number): RpcBlockHeader {
  const b = raw as RawBlock | null;
  if (!b || typeof b.hash !== 'string' || typeof b.parentHash !== 'string')
    throw new RpcResponseError(`block ${expected ?? '?'} not found or incomplete`);
  const header = {
    number: hexNumber(b.number, 'block number'),
    hash: b.hash,
    parentHash: b.parentHash,
    timestamp: hexNumber(b.timestamp, 'block timestamp'),
  };
  if (expected !== undefined && header.number !== expected) throw new RpcResponseError(`asked for block ${expected}, got ${header.number}`);
  return header;
}
