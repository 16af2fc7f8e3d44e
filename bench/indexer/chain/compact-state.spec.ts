import fc from 'fast-check';
import { compactMinedTx, transformTopLevelArray } from './compact-state';

async function run(text: string, chunkSizes: number[], key: string, map: (e: unknown) => unknown): Promise<{ out: string; n: number }> {
  const bytes = Buffer.from(text);
  async function* chunks(): AsyncIterable<Buffer> {
    let at = 0;
    for (let i = 0; at < bytes.length; i++) {
      const size = Math.max(1, chunkSizes[i % chunkSizes.length] ?? 1);
      yield bytes.subarray(at, at + size);
      at += size;
    }
  }
  const parts: string[] = [];
  const n = await transformTopLevelArray(chunks(), async (b) => void parts.push(b.toString()), key, map);
  return { out: parts.join(''), n };
}

const jsonValue = fc.jsonValue({ maxDepth: 3 });

describe('transformTopLevelArray', () => {
  it('maps exactly the object elements of the top-level array, whatever the chunking', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          block: jsonValue,
          transactions: fc.array(fc.dictionary(fc.string(), jsonValue, { maxKeys: 4 }), { maxLength: 6 }),
          best: fc.string(),
          tail: jsonValue,
        }),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 8 }),
        async (doc, sizes) => {
          // a nested "transactions" key must be left alone
          const input = {
            block: { transactions: [1, 2] },
            first: doc.block,
            best: doc.best,
            transactions: doc.transactions,
            tail: doc.tail,
          };
          const { out, n } = await run(JSON.stringify(input), sizes, 'transactions', (e) => ({ wrapped: e }));
          expect(n).toBe(doc.transactions.length);
          // compared after a JSON round trip (-0 is written as 0)
          expect(JSON.parse(out)).toEqual(
            JSON.parse(JSON.stringify({ ...input, transactions: doc.transactions.map((e) => ({ wrapped: e })) })),
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('handles escaped quotes and backslashes split across chunks; scalar elements pass unchanged', async () => {
    const input = { 'k"ey': 'a\\"b\\\\', transactions: [{ s: 'x\\\\"}]{' }, 'q\\', [1]], other: '\\' };
    for (const size of [1, 2, 3, 5, 7]) {
      const { out, n } = await run(JSON.stringify(input), [size], 'transactions', (e) => ({ m: e }));
      expect(n).toBe(2);
      expect(JSON.parse(out)).toEqual({ ...input, transactions: [{ m: { s: 'x\\\\"}]{' } }, 'q\\', { m: [1] }] });
    }
  });
});

describe('compactMinedTx', () => {
  it('keeps the top call frame without its nested frames, logs and ordering', () => {
    const tx = {
      info: {
        traces: [
          { idx: 0, trace: { kind: 'CALL' }, children: [1], logs: [{}], ordering: [{ Log: 0 }] },
          { idx: 1, children: [], logs: [], ordering: [] },
        ],
      },
      receipt: { logs: [1] },
    };
    expect(compactMinedTx(tx)).toEqual({
      info: { traces: [{ idx: 0, trace: { kind: 'CALL' }, children: [], logs: [], ordering: [] }] },
      receipt: { logs: [1] },
    });
    expect(compactMinedTx({})).toEqual({});
  });
});
