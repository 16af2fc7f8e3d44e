import { AdaptiveRange, type ChainReader, type LogFilter, type RpcBlockHeader, type RpcLog } from '@tokensvc/chain';
import type { ContractRegistry } from '../registry/contract-registry';
import { RangePrefetcher, type FetchedRange } from './range-prefetcher';

const hash = (n: number): string => `0x${n.toString(16).padStart(64, '0')}`;
const header = (n: number): RpcBlockHeader => ({ number: n, hash: hash(n), parentHash: hash(n - 1), timestamp: 1_000 + n });

/** A node with `logsPerBlock` logs in every block; logsAdaptive splits like ChainReader's. */
function fakeReader(logsPerBlock: number, requests: Array<[number, number]>): ChainReader {
  const reader = {
    async logsAdaptive(_f: LogFilter, from: number, to: number, range: AdaptiveRange): Promise<RpcLog[]> {
      const out: RpcLog[] = [];
      for (let start = from; start <= to;) {
        const end = Math.min(to, start + range.size - 1);
        requests.push([start, end]);
        for (let b = start; b <= end; b++)
          for (let i = 0; i < logsPerBlock; i++) out.push({ blockNumber: b, blockHash: hash(b), logIndex: i } as RpcLog);
        range.onSuccess(end - start + 1, (end - start + 1) * logsPerBlock);
        start = end + 1;
      }
      return out;
    },
    async headers(numbers: readonly number[]): Promise<RpcBlockHeader[]> {
      return numbers.map(header);
    },
  };
  return reader as unknown as ChainReader;
}

async function drain(p: RangePrefetcher): Promise<FetchedRange[]> {
  const out: FetchedRange[] = [];
  for (let fr = await p.next(); fr; fr = await p.next()) out.push(fr);
  return out;
}

describe('RangePrefetcher', () => {
  const registry = { addresses: ['0x01'] } as unknown as ContractRegistry;

  it('spans 1, 2, 4, ... up to rangesPerBatch eth_getLogs ranges per batch, starting from the initial range', async () => {
    const requests: Array<[number, number]> = [];
    const range = new AdaptiveRange({ max: 1_000, initial: 10, targetLogs: 100 });
    // 10 logs per block: 10 blocks = the 100-log target, so the range stays at 10 blocks
    const p = new RangePrefetcher(fakeReader(10, requests), registry, [], range, {
      from: 1,
      to: 150,
      depth: 1,
      rangesPerBatch: 4,
      denseFrom: 1_000,
    });
    const batches = await drain(p);
    expect(batches.map((b) => [b.from, b.to])).toEqual([
      [1, 10],
      [11, 30],
      [31, 70],
      [71, 110],
      [111, 150],
    ]);
    expect(requests).toHaveLength(15);
    expect(requests.every(([a, b]) => b - a + 1 === 10)).toBe(true);
    expect(batches.map((b) => b.logs.length)).toEqual([100, 200, 400, 400, 400]);
  });

  it('grows the range from a small start on a sparse chain', async () => {
    const requests: Array<[number, number]> = [];
    const range = new AdaptiveRange({ max: 1_000, initial: 10, targetLogs: 100 });
    const p = new RangePrefetcher(fakeReader(0, requests), registry, [], range, {
      from: 1,
      to: 1_000,
      depth: 1,
      rangesPerBatch: 1,
      denseFrom: 10_000,
    });
    const batches = await drain(p);
    expect(batches.map((b) => b.to - b.from + 1)).toEqual([10, 20, 40, 80, 160, 320, 370]);
    expect(batches.every((b) => b.headers.has(b.from) && b.headers.has(b.to))).toBe(true);
  });

  it('reads what discovery events will register along with every backfill range from the one that finds it on', async () => {
    const FACTORY = '0xfa';
    const PAIR = '0x0b';
    const filters: Array<{ addresses: readonly string[]; discovery: boolean; from: number; to: number }> = [];
    const reader = {
      async logsAdaptive(f: LogFilter, from: number, to: number): Promise<RpcLog[]> {
        filters.push({ addresses: f.addresses, discovery: f.topic0.includes('0xcreated'), from, to });
        // the factory creates the pair in block 15
        if (f.topic0.includes('0xcreated'))
          return from <= 15 && 15 <= to
            ? [{ address: FACTORY, blockNumber: 15, blockHash: hash(15), logIndex: 0, topics: ['0xcreated'] } as RpcLog]
            : [];
        return [];
      },
      async headers(numbers: readonly number[]): Promise<RpcBlockHeader[]> {
        return numbers.map(header);
      },
    } as unknown as ChainReader;
    const watched = new Set([FACTORY]);
    const reg = {
      addresses: [FACTORY],
      sources: new Map([[FACTORY, {}]]),
      isWatched: (a: string) => watched.has(a),
    } as unknown as ContractRegistry;
    const lookahead = { topics: ['0xcreated'], addressesIn: (logs: readonly RpcLog[]) => logs.map(() => PAIR) };
    const range = new AdaptiveRange({ max: 1_000, initial: 10, targetLogs: 100 });
    const p = new RangePrefetcher(reader, reg, ['0xswap'], range, {
      from: 1,
      to: 200,
      depth: 3,
      rangesPerBatch: 1,
      denseFrom: 60,
      lookahead,
    });
    const batches = await drain(p);
    // 10-block ranges; the pair appears in block 15; the dense tail (to >= 60) reads no discovery ahead
    expect(batches.filter((b) => b.extra.size > 0).map((b) => [b.from, b.to, [...b.extra]])).toEqual([
      [11, 20, [PAIR]],
      [21, 30, [PAIR]],
      [31, 40, [PAIR]],
      [41, 50, [PAIR]],
    ]);
    expect(filters.filter((f) => !f.discovery && f.addresses.includes(PAIR)).map((f) => [f.from, f.to])).toEqual([
      [11, 20],
      [21, 30],
      [31, 40],
      [41, 50],
    ]);
    // one discovery read per backfill range, of the source contracts only
    expect(filters.filter((f) => f.discovery).map((f) => [f.from, f.to, f.addresses])).toEqual(
      [1, 11, 21, 31, 41].map((from) => [from, from + 9, [FACTORY]]),
    );
  });
});
