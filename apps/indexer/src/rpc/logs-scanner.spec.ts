import fc from 'fast-check';
import { RpcResponseError, standardizeLogs, type RpcLog } from '@tokensvc/chain';
import { TOPICS } from '@tokensvc/protocols';
import { scanLogsReply } from './logs-scanner';
import { ERC20_TRANSFER_TOPIC, StringTable } from './string-table';
import { logsOf } from './log-list';
import { StringMirror, receive } from './logs-wire';

/**
 * The scanner against the generic path (JSON.parse + standardizeLogs) as the reference: every
 * reply it takes must give the same logs; every reply outside its shape must be left to the
 * generic path (undefined), never read differently.
 */

const hex = (bytes: number): fc.Arbitrary<string> =>
  fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => `0x${Buffer.from(b).toString('hex')}`);
/** mixed-case hex, as a checksumming node would send addresses */
const mixedCase = (s: string, flips: boolean[]): string =>
  [...s].map((c, i) => (i > 1 && flips[i % flips.length] ? c.toUpperCase() : c)).join('');
const quantity = fc.integer({ min: 0, max: 2 ** 40 }).map((n) => `0x${n.toString(16)}`);

interface RawLog {
  [k: string]: unknown;
}

const rawLog: fc.Arbitrary<RawLog> = fc
  .record({
    address: fc.tuple(hex(20), fc.array(fc.boolean(), { minLength: 1, maxLength: 8 })).map(([a, f]) => mixedCase(a, f)),
    topics: fc.array(fc.oneof(hex(32), fc.constant('0x000000000000000000000000b0b0000000000000000000000000000000000380')), {
      maxLength: 4,
    }),
    data: fc.array(hex(32), { maxLength: 5 }).map((words) => `0x${words.map((w) => w.slice(2)).join('')}`),
    blockHash: fc.oneof(hex(32), fc.constant(`0x${'ab'.repeat(32)}`)),
    blockNumber: quantity,
    logIndex: quantity,
    transactionHash: fc.oneof(hex(32), fc.constant(`0x${'cd'.repeat(32)}`)),
    removed: fc.oneof(fc.constant(false), fc.constant(true), fc.constant(undefined)),
    blockTimestamp: fc.oneof(quantity, fc.constant(undefined)),
    transactionIndex: fc.oneof(quantity, fc.constant(null), fc.constant(undefined)),
    extra: fc.oneof(fc.constant(undefined), fc.constant({ nested: [1, 2.5e3, 'x', { y: null }], flag: true }), fc.constant(-12.5)),
  })
  .chain((r) =>
    // any key order
    fc.shuffledSubarray(Object.keys(r), { minLength: Object.keys(r).length }).map((keys) => {
      const out: RawLog = {};
      for (const k of keys) if (r[k as keyof typeof r] !== undefined) out[k] = r[k as keyof typeof r];
      return out;
    }),
  );

const FIELDS: Array<keyof RpcLog> = ['address', 'topics', 'data', 'blockNumber', 'blockHash', 'logIndex', 'transactionHash'];
const plain = (logs: RpcLog[]): unknown[] => logs.map((l) => Object.fromEntries(FIELDS.map((f) => [f, l[f]])));

function generic(body: string): RpcLog[] | Error {
  try {
    return standardizeLogs((JSON.parse(body) as { result: unknown }).result);
  } catch (e) {
    return e as Error;
  }
}

function scanned(body: string, table = new StringTable(), mirror = new StringMirror()): RpcLog[] | Error | undefined {
  const s = scanLogsReply(Buffer.from(body), table);
  if (!s) return undefined;
  try {
    return logsOf(receive(s, mirror));
  } catch (e) {
    return e as Error;
  }
}

describe('scanLogsReply (vs JSON.parse + standardizeLogs)', () => {
  it('reads every reply of the simple shape as the generic path does (key order, whitespace, removed logs, extra fields, mixed case)', () => {
    fc.assert(
      fc.property(fc.array(rawLog, { maxLength: 12 }), fc.constantFrom(0, 1, '\t'), fc.integer({ min: 1, max: 99 }), (logs, indent, id) => {
        const body = JSON.stringify({ jsonrpc: '2.0', id, result: logs }, null, indent);
        const ref = generic(body);
        const got = scanned(body);
        if (ref instanceof Error) {
          // duplicate positions: the same error
          expect(got).toBeInstanceOf(RpcResponseError);
          expect((got as Error).message).toBe(ref.message);
        } else {
          expect(got).not.toBeUndefined();
          expect(plain(got as RpcLog[])).toEqual(plain(ref));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('reads anvil-shaped replies (checksummed address, extra fields)', () => {
    const log = (i: number): RawLog => ({
      address: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      topics: [
        '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
        `0x${'0'.repeat(24)}${'9a676e781a523b5d0c0e43731313a708cb607508'}`,
      ],
      data: `0x${i.toString(16).padStart(64, '0')}`,
      blockHash: `0x${'7f'.repeat(32)}`,
      blockNumber: '0x64',
      blockTimestamp: '0x6b027555',
      transactionHash: `0x${'bd'.repeat(32)}`,
      transactionIndex: '0x0',
      logIndex: `0x${i.toString(16)}`,
      removed: false,
    });
    const body = JSON.stringify({ jsonrpc: '2.0', id: 7, result: [log(0), log(1), log(2)] });
    const got = scanned(body) as RpcLog[];
    expect(plain(got)).toEqual(plain(generic(body) as RpcLog[]));
    expect(got[0]!.address).toBe('0x5fbdb2315678afecb367f032d93f642f64180aa3');
    expect(got[2]!.data).toBe(`0x${'2'.padStart(64, '0')}`);
  });

  it('leaves every other reply to the generic path', () => {
    const good = {
      address: `0x${'11'.repeat(20)}`,
      topics: [],
      data: '0x',
      blockHash: `0x${'22'.repeat(32)}`,
      blockNumber: '0x1',
      logIndex: '0x0',
      transactionHash: `0x${'33'.repeat(32)}`,
    };
    const variants: unknown[] = [
      { jsonrpc: '2.0', id: 1, error: { code: -32005, message: 'query returned more than 10000 results' } },
      { jsonrpc: '2.0', id: 1, result: [good], error: { code: 1, message: 'both' } },
      { jsonrpc: '2.0', id: 1, result: null },
      { jsonrpc: '2.0', id: 1 },
      [{ jsonrpc: '2.0', id: 1, result: [good] }],
      { jsonrpc: '2.0', id: 1, result: [{ ...good, data: 'with "quote" \\ escapes' }] },
      { jsonrpc: '2.0', id: 1, result: [{ ...good, blockNumber: 5 }] },
      { jsonrpc: '2.0', id: 1, result: [{ ...good, blockNumber: '0X1' }] },
      { jsonrpc: '2.0', id: 1, result: [{ ...good, logIndex: '0x' }] },
      { jsonrpc: '2.0', id: 1, result: [{ ...good, logIndex: '0x1g' }] },
      { jsonrpc: '2.0', id: 1, result: [{ ...good, topics: ['0x1', null] }] },
      { jsonrpc: '2.0', id: 1, result: [{ ...good, address: null }] },
      { jsonrpc: '2.0', id: 1, result: [{ ...good, transactionHash: undefined }] },
      { jsonrpc: '2.0', id: 1, result: [{}] },
      { jsonrpc: '2.0', id: 1, result: [good, 7] },
    ];
    for (const v of variants) expect(scanned(JSON.stringify(v))).toBeUndefined();
    for (const text of [
      '',
      'null',
      '{"jsonrpc":"2.0","id":1,"result":[]} trailing',
      '{"result":[]',
      '{"result":[],}',
      '{"result":tru}',
      `{"result":[${JSON.stringify(good)}`,
    ])
      expect(scanned(text)).toBeUndefined();
  });

  it('keeps the receiving side in step across replies when the shared table starts over', () => {
    const table = new StringTable(5);
    const mirror = new StringMirror();
    fc.assert(
      fc.property(fc.array(rawLog, { maxLength: 6 }), (logs) => {
        const body = JSON.stringify({ jsonrpc: '2.0', id: 1, result: logs });
        const ref = generic(body);
        const got = scanned(body, table, mirror);
        if (!(ref instanceof Error)) expect(plain(got as RpcLog[])).toEqual(plain(ref));
      }),
      { numRuns: 200 },
    );
  });
});

describe('StringTable', () => {
  it('gives the same text the same id and other texts other ids, past many strings and hash collisions', () => {
    // more strings in one reply than a quarter of its slots: the table grows
    const table = new StringTable(1);
    const texts = Array.from({ length: 3000 }, (_, i) => `0x${i.toString(16).padStart(64, '0')}`);
    // same last 12 characters (the hashed part), so same hashes: told apart by their bytes
    for (let i = 0; i < 50; i++) texts.push(`0x${i.toString(16).padStart(12, '0')}${'e'.repeat(52)}`);
    const body = Buffer.from(texts.join(''));
    const span = (i: number): [number, number] => {
      const start = texts.slice(0, i).reduce((n, t) => n + t.length, 0);
      return [start, start + texts[i]!.length];
    };
    const ids = texts.map((_, i) => table.id(body, ...span(i), false));
    expect(new Set(ids).size).toBe(texts.length);
    texts.forEach((t, i) => {
      expect(table.text(ids[i]!)).toBe(t);
      expect(table.id(body, ...span(i), false)).toBe(ids[i]);
    });
    // the lowercased form of a text is a string of its own
    expect(table.id(body, ...span(0), true)).not.toBe(ids[0]);
  });
});

describe('the Transfer topic', () => {
  it("is the decoder's", () => {
    expect(ERC20_TRANSFER_TOPIC).toBe(TOPICS.transfer);
  });
});
