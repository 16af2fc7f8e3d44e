import fc from 'fast-check';
import { standardizeLogs } from '@tokensvc/chain';
import { ADAPTERS } from '../adapters';
import { ContractRegistry } from '../registry/contract-registry';
import { scanLogsReply } from '../rpc/logs-scanner';
import { StringTable } from '../rpc/string-table';
import { StringMirror, receive } from '../rpc/logs-wire';
import { BatchAccumulator } from './batch-accumulator';
import { LogDecoder } from './log-decoder';
import { TOPICS } from '@tokensvc/protocols';

/**
 * The Transfer fast path (decoded from the scanner's columns, COPY rows built by the scanner)
 * against the generic path (JSON.parse, RpcLog objects, the Transfer handler, rows written by the
 * accumulator): the same events, pool states, malformed counts and COPY payload, byte for byte.
 */

const a = (n: number): string => `0x${n.toString(16).padStart(40, '0')}`;
const TOKEN = a(0xab10);
const T0 = a(0x20);
const T1 = a(0x21);
const V3POOL = a(0x31);
const WETH = a(0x50);
const UNREGISTERED = a(0x99);

function registry(): ContractRegistry {
  const r = new ContractRegistry('ethereum');
  for (const address of [TOKEN, T0, T1, WETH])
    r.addToken({ address, platform: 'basic', family: 'basic', underlying: [], poolAddress: null, listed: true, metadata: {} });
  r.addPool({
    address: V3POOL,
    platform: 'uniswap-v3',
    family: 'uniswap-v3',
    token0: T0,
    token1: T1,
    fee: 3000,
    tickSpacing: 60,
    createdBlock: 1,
  });
  return r;
}

const word = (v: bigint): string => (v & ((1n << 256n) - 1n)).toString(16).padStart(64, '0');
const topicOf = (address: string): string => `0x${'0'.repeat(24)}${address.slice(2)}`;

const holder = fc.oneof(fc.constantFrom(T0, T1, V3POOL, a(0), a(0xdead), a(0xbeef00cafe)), fc.integer({ min: 1, max: 2 ** 40 }).map(a));
const value = fc.oneof(
  fc.bigInt({ min: 0n, max: (1n << 53n) - 1n }),
  fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }),
  fc.constantFrom(0n, (1n << 53n) - 1n, 1n << 53n, (1n << 64n) - 1n, 1n << 64n),
);

/** a raw log of one of the shapes the Transfer topic and the WETH events come in, some malformed */
const rawLog = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('transfer'),
      token: fc.constantFrom(TOKEN, T0, T1, UNREGISTERED, `0x${TOKEN.slice(2).toUpperCase()}`),
      from: holder,
      to: holder,
      value,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('upperTopics'), token: fc.constantFrom(TOKEN, T0), from: holder, to: holder, value }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('erc721'), token: fc.constantFrom(TOKEN, T0), from: holder, to: holder, value }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('shortData'), token: fc.constantFrom(TOKEN, T0), from: holder, to: holder, value }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('shortTopic'), token: fc.constantFrom(TOKEN, T0), from: holder, to: holder, value }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('longData'), token: fc.constantFrom(TOKEN, T0), from: holder, to: holder, value }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('wethDeposit'), token: fc.constant(WETH), from: holder, to: holder, value }) },
);

type Raw = { kind: string; token: string; from: string; to: string; value: bigint };

function encode(r: Raw, i: number, txs: number): Record<string, unknown> {
  const pos = {
    blockNumber: `0x${(10 + Math.floor(i / 7)).toString(16)}`,
    blockHash: `0x${(10 + Math.floor(i / 7)).toString(16).padStart(64, '0')}`,
    logIndex: `0x${i.toString(16)}`,
    transactionHash: `0x${(Math.floor(i / txs) + 1).toString(16).padStart(64, 'c')}`,
  };
  const topics = [TOPICS.transfer, topicOf(r.from), topicOf(r.to)];
  switch (r.kind) {
    case 'erc721':
      return { address: r.token, topics: [...topics, `0x${word(r.value)}`], data: '0x', ...pos };
    case 'shortData':
      return { address: r.token, topics, data: `0x${word(r.value).slice(2)}`, ...pos };
    case 'shortTopic':
      return { address: r.token, topics: [TOPICS.transfer, r.from, topicOf(r.to)], data: `0x${word(r.value)}`, ...pos };
    case 'upperTopics':
      return {
        address: r.token,
        topics: topics.map((t, j) => (j === 0 ? t : `0x${t.slice(2).toUpperCase()}`)),
        data: `0x${word(r.value).toUpperCase()}`,
        ...pos,
      };
    case 'longData':
      return { address: r.token, topics, data: `0x${word(r.value)}${word(7n)}`, ...pos };
    case 'wethDeposit':
      return { address: r.token, topics: [TOPICS.wethDeposit, topicOf(r.to)], data: `0x${word(r.value)}`, ...pos };
    default:
      return { address: r.token, topics, data: `0x${word(r.value)}`, ...pos };
  }
}

function decodeBoth(body: string): { fast: BatchAccumulator; generic: BatchAccumulator; malformed: [number, number] } {
  const decoder = new LogDecoder(Object.values(ADAPTERS));
  const scanned = scanLogsReply(Buffer.from(body), new StringTable(), 'ethereum');
  if (!scanned) throw new Error('the scanner did not take the reply');
  const fast = new BatchAccumulator(registry());
  const generic = new BatchAccumulator(registry());
  const m1 = decoder.decode(receive(scanned, new StringMirror()), fast);
  const m2 = decoder.decode(standardizeLogs((JSON.parse(body) as { result: unknown }).result), generic);
  return { fast, generic, malformed: [m1, m2] };
}

const payload = (acc: BatchAccumulator): string => Buffer.concat(acc.transfersCopy().payload).toString('latin1');

describe('Transfer fast path (scanner columns) vs the generic decoder', () => {
  it('gives the same transfers, pool states, malformed counts and COPY payload', () => {
    fc.assert(
      fc.property(fc.array(rawLog, { maxLength: 40 }), fc.integer({ min: 1, max: 5 }), (raws, txs) => {
        const body = JSON.stringify({ jsonrpc: '2.0', id: 1, result: raws.map((r, i) => encode(r, i, txs)) });
        const { fast, generic, malformed } = decodeBoth(body);
        expect(malformed[0]).toBe(malformed[1]);
        expect(fast.transfers).toEqual(generic.transfers);
        expect(fast.historyEntries()).toEqual(generic.historyEntries());
        expect(payload(fast)).toBe(payload(generic));
      }),
      { numRuns: 300 },
    );
  });

  it('takes the fast path for well-formed transfers (rows from the scanner)', () => {
    const raws: Raw[] = [1n, 1n << 70n, 0n].map((v, i) => ({ kind: 'transfer', token: TOKEN, from: a(i + 1), to: a(i + 2), value: v }));
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, result: raws.map((r, i) => encode(r, i, 2)) });
    const scanned = scanLogsReply(Buffer.from(body), new StringTable(), 'ethereum')!;
    expect([...scanned.transfer]).toEqual([0, 1, 2]);
    expect(Buffer.from(scanned.rows).toString('latin1').split('\n')[1]).toBe(
      `ethereum\t10\t1\t0x${'1'.padStart(64, 'c')}\t${TOKEN}\t${a(2)}\t${a(3)}\t${1n << 70n}`,
    );
    const { fast } = decodeBoth(body);
    expect(payload(fast)).toBe(
      raws
        .map(
          (r, i) =>
            `ethereum\t10\t${i}\t0x${(Math.floor(i / 2) + 1).toString(16).padStart(64, 'c')}\t${TOKEN}\t${r.from}\t${r.to}\t${r.value}\n`,
        )
        .join(''),
    );
  });

  it('fails on a Transfer whose value is not hex, as the generic decoder does', () => {
    const log = { ...encode({ kind: 'transfer', token: TOKEN, from: T0, to: T1, value: 5n }, 0, 1), data: `0x${'zz'.repeat(32)}` };
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, result: [log] });
    expect(() => decodeBoth(body)).toThrow(SyntaxError);
  });
});
