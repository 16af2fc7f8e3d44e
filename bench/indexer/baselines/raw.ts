/**
 * Lower bound: the bench chain's events straight from `eth_getLogs` (fetch, adaptive ranges, two
 * requests in flight) with the cheapest decode there is (topic0 switch, hex slices into bigint).
 * No database. Whatever an indexer does on top of this is its overhead. Through a hosted-provider
 * emulator (`--remote`) it keeps under the plan's caps (ranges sized to the result cap, at most the
 * block-range cap) and, when a range is refused anyway, splits it where the provider's text says
 * (else in half); 429s are waited out.
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
  /** the eth_getLogs ranges answered, in order (the node floor replays them) */
  spans: Array<[number, number]>;
  /** eth_getLogs requests sent, refused for a cap (then split), answered 429 (then retried) */
  requests: number;
  capRefused: number;
  throttled: number;
}

export interface RawOptions {
  /** requests in flight (default 2) */
  inFlight?: number;
  /** logs per range aimed at (default 10,000) */
  targetLogs?: number;
  /** widest range asked for (default 10,000 blocks) */
  maxWidth?: number;
}

const IN_FLIGHT = 2;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * A range refused for a provider cap (too many results, too wide), split in two: at the end of the
 * range the provider suggests (`[0x.., 0x..]` in Infura's and Alchemy's texts) when it is inside,
 * else in half. Undefined for other errors or a single block.
 */
export function capSplit(message: string, [from, to]: [number, number]): [[number, number], [number, number]] | undefined {
  if (to <= from || !/more than \d+ results|response size exceeded|block range|range is too wide|limited to a/i.test(message))
    return undefined;
  const hint = /\[(0x[0-9a-f]+),\s*(0x[0-9a-f]+)\]/i.exec(message);
  const suggested = hint ? parseInt(hint[2]!, 16) : NaN;
  const end = suggested >= from && suggested < to ? suggested : Math.floor((from + to) / 2);
  return [
    [from, end],
    [end + 1, to],
  ];
}
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

export async function runRawBaseline(rpc: BenchRpc, world: BenchWorld, toBlock: number, o: RawOptions = {}): Promise<RawResult> {
  const filter = { address: emitters(world), topics: [Object.values(TOPICS)] };
  const inFlightMax = o.inFlight ?? IN_FLIGHT;
  const range = new AdaptiveRange(world.deployBlock, toBlock, 2, o.targetLogs ?? 10_000, o.maxWidth ?? 10_000);
  let requests = 0;
  let capRefused = 0;
  let throttled = 0;
  const byKind: Record<string, number> = {};
  const acc = { sum: 0n, holders: new Set<string>() };
  let events = 0;
  const started = performance.now();
  const spans: Array<[number, number]> = [];
  // the ranges answered, per requested range (a refused one is answered in parts)
  const fetchRange = async (span: [number, number], answered: Array<[number, number]>): Promise<RawLog[]> => {
    for (let throttles = 0; ;) {
      requests++;
      try {
        const logs = await rpc.call<RawLog[]>('eth_getLogs', [{ ...filter, fromBlock: hex(span[0]), toBlock: hex(span[1]) }]);
        answered.push(span);
        return logs;
      } catch (e) {
        const message = (e as Error).message;
        // 429s, and the emulator's failure share (502s, dropped connections): the same range again
        if (/HTTP (429|502)|fetch failed|other side closed|ECONNRESET/.test(message) && ++throttles <= 100) {
          if (message.includes('HTTP 429')) throttled++;
          await sleep(50);
          continue;
        }
        const parts = capSplit(message, span);
        if (!parts) throw e;
        capRefused++;
        const first = await fetchRange(parts[0], answered);
        const rest = await fetchRange(parts[1], answered);
        return first.concat(rest);
      }
    }
  };
  const inFlight: Array<{ span: [number, number]; answered: Array<[number, number]>; logs: Promise<RawLog[]> }> = [];
  const fill = (): void => {
    while (inFlight.length < inFlightMax) {
      const span = range.next();
      if (!span) return;
      const answered: Array<[number, number]> = [];
      inFlight.push({ span, answered, logs: fetchRange(span, answered) });
    }
  };
  fill();
  while (inFlight.length > 0) {
    const { span, answered, logs: pending } = inFlight.shift()!;
    const logs = await pending;
    spans.push(...answered);
    range.observe(span, logs.length);
    fill();
    for (const log of logs) {
      const kind = cheapDecode(log, acc);
      byKind[kind] = (byKind[kind] ?? 0) + 1;
    }
    events += logs.length;
  }
  return {
    events,
    blocks: toBlock - world.deployBlock + 1,
    seconds: (performance.now() - started) / 1000,
    byKind,
    checksum: acc.sum,
    spans,
    requests,
    capRefused,
    throttled,
  };
}

/**
 * The node's floor: the same eth_getLogs requests as a raw run (its ranges, two in flight), each
 * reply's bytes read and dropped, nothing parsed. What no indexer reading this node over JSON-RPC
 * can beat; every contender's time includes it.
 */
export async function runNodeFloor(
  url: string,
  world: BenchWorld,
  spans: ReadonlyArray<[number, number]>,
  inFlight = IN_FLIGHT,
): Promise<{ seconds: number; bytes: number }> {
  const filter = { address: emitters(world), topics: [Object.values(TOPICS)] };
  let bytes = 0;
  let next = 0;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    while (next < spans.length) {
      const [from, to] = spans[next++]!;
      for (;;) {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'eth_getLogs',
            params: [{ ...filter, fromBlock: hex(from), toBlock: hex(to) }],
          }),
        }).catch(() => undefined);
        if (!res || res.status === 429 || res.status === 502) {
          // through the emulator: the budget refused it (or a failure share); the same range again after a pause
          await res?.arrayBuffer();
          await sleep(50);
          continue;
        }
        if (!res.ok) throw new Error(`eth_getLogs ${from}-${to}: HTTP ${res.status}`);
        // read first, then added (`bytes += await ...` would add to the value read before the await)
        const n = (await res.arrayBuffer()).byteLength;
        bytes += n;
        break;
      }
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return { seconds: (performance.now() - started) / 1000, bytes };
}
