/**
 * Lower bound: the bench chain's events straight from `eth_getLogs` (fetch, adaptive ranges, two
 * requests in flight) with the cheapest decode there is (topic0 switch, hex slices into bigint).
 * No database. Whatever an indexer does on top of this is its overhead.
 */
import { TOPICS, emitters } from '../chain/events';
import { type BenchRpc, hex } from '../chain/rpc';
import type { BenchWorld } from '../chain/world';
import { AdaptiveRange } from './adaptive-range';

interface RawLog {
  topics: string[];
  data: string;
}

export interface RawResult {
  events: number;
  blocks: number;
  seconds: number;
  byKind: Record<string, number>;
  /** sum of decoded amounts, so the decode cannot be optimised away */
  checksum: bigint;
  /** the eth_getLogs ranges read, in order (the node floor replays them) */
  spans: Array<[number, number]>;
}

const IN_FLIGHT = 2;
const word = (data: string, i: number): bigint => BigInt(`0x${data.slice(2 + 64 * i, 66 + 64 * i)}`);
const addr = (topic: string | undefined): string => `0x${(topic ?? '').slice(26)}`;

/** Decodes one log of the known kinds; returns its kind (or 'other') and adds amounts to `acc`. */
export function cheapDecode(log: RawLog, acc: { sum: bigint; holders: Set<string> }): string {
  const t = log.topics;
  switch (t[0]) {
    case TOPICS.transfer:
      acc.holders.add(addr(t[2]));
      acc.sum += word(log.data, 0);
      return 'transfer';
    case TOPICS.swap:
      acc.sum += word(log.data, 0) + word(log.data, 1) + word(log.data, 2) + word(log.data, 3);
      return 'swap';
    case TOPICS.sync:
      acc.sum += word(log.data, 0) + word(log.data, 1);
      return 'sync';
    case TOPICS.mint:
    case TOPICS.burn:
      acc.sum += word(log.data, 0) + word(log.data, 1);
      return t[0] === TOPICS.mint ? 'mint' : 'burn';
    case TOPICS.deposit:
    case TOPICS.withdraw:
      acc.sum += word(log.data, 0) + word(log.data, 1);
      return t[0] === TOPICS.deposit ? 'deposit' : 'withdraw';
    default:
      return 'other';
  }
}

export async function runRawBaseline(rpc: BenchRpc, world: BenchWorld, toBlock: number): Promise<RawResult> {
  const filter = { address: emitters(world), topics: [Object.values(TOPICS)] };
  const range = new AdaptiveRange(world.deployBlock, toBlock, 2, 10_000);
  const byKind: Record<string, number> = {};
  const acc = { sum: 0n, holders: new Set<string>() };
  let events = 0;
  const started = performance.now();
  const spans: Array<[number, number]> = [];
  const fetchRange = async ([from, to]: [number, number]): Promise<RawLog[]> => rpc.call<RawLog[]>('eth_getLogs', [{ ...filter, fromBlock: hex(from), toBlock: hex(to) }]);
  const inFlight: Array<{ span: [number, number]; logs: Promise<RawLog[]> }> = [];
  const fill = (): void => {
    while (inFlight.length < IN_FLIGHT) {
      const span = range.next();
      if (!span) return;
      spans.push(span);
      inFlight.push({ span, logs: fetchRange(span) });
    }
  };
  fill();
  while (inFlight.length > 0) {
    const { span, logs: pending } = inFlight.shift()!;
    const logs = await pending;
    range.observe(span, logs.length);
    fill();
    for (const log of logs) {
      const kind = cheapDecode(log, acc);
      byKind[kind] = (byKind[kind] ?? 0) + 1;
    }
    events += logs.length;
  }
  return { events, blocks: toBlock - world.deployBlock + 1, seconds: (performance.now() - started) / 1000, byKind, checksum: acc.sum, spans };
}

/**
 * The node's floor: the same eth_getLogs requests as a raw run (its ranges, two in flight), each
 * reply's bytes read and dropped, nothing parsed. What no indexer reading this node over JSON-RPC
 * can beat; every contender's time includes it.
 */
export async function runNodeFloor(url: string, world: BenchWorld, spans: ReadonlyArray<[number, number]>): Promise<{ seconds: number; bytes: number }> {
  const filter = { address: emitters(world), topics: [Object.values(TOPICS)] };
  let bytes = 0;
  let next = 0;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    while (next < spans.length) {
      const [from, to] = spans[next++]!;
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getLogs', params: [{ ...filter, fromBlock: hex(from), toBlock: hex(to) }] }) });
      if (!res.ok) throw new Error(`eth_getLogs ${from}-${to}: HTTP ${res.status}`);
      // read first, then added (`bytes += await ...` would add to the value read before the await)
      const n = (await res.arrayBuffer()).byteLength;
      bytes += n;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return { seconds: (performance.now() - started) / 1000, bytes };
}
