import {
  ORDER_ID,
  ORDER_NONCE,
  ROUTE_HASH,
  TIME,
  compareGolden,
  diffJson,
  maskAnswer,
  maskRouteHash,
  runWindow,
  type GoldenFile,
} from './golden';

const window = runWindow(1_800_000_000_000, 1_800_000_060_000);
const word = (n: number): string => n.toString(16).padStart(64, '0');

describe('golden check: masks and comparison', () => {
  it('masks the order id, its nonce and wall-clock times only, and says where', () => {
    const id = '0b1c8a2e-1234-4000-8000-00000000abcd';
    const deadline = 1_800_001_260;
    const body = {
      context: {
        orderId: id,
        expiry: new Date(deadline * 1000).toISOString(),
        outputAmount: '1800000000',
        routeHash: '0xaa',
        createdAt: '2026-11-30T00:00:00.000Z',
      },
      tx: { data: `0x12345678${word(deadline)}${word(1_800_000_000)}${word(1_700_000_000)}`, value: '0' },
      signedOrder: { value: { nonce: BigInt(`0x${id.replace(/-/g, '')}`).toString(), deadline: String(deadline), routeHash: '0xaa' } },
    };
    const fired = new Set<string>();
    const masked = maskRouteHash(maskAnswer(body, window, fired), fired) as typeof body;
    expect(masked.context).toEqual({
      orderId: ORDER_ID,
      expiry: TIME,
      outputAmount: TIME,
      routeHash: ROUTE_HASH,
      createdAt: '2026-11-30T00:00:00.000Z',
    });
    expect(masked.signedOrder.value).toEqual({ nonce: ORDER_NONCE, deadline: TIME, routeHash: ROUTE_HASH });
    // both words in the window are masked in place (same length), the one before the run is kept
    expect(masked.tx.data).toHaveLength(body.tx.data.length);
    expect(masked.tx.data.endsWith(word(1_700_000_000))).toBe(true);
    expect(masked.tx.data.split(`<${TIME}>`)).toHaveLength(3);
    // a small word (a fee of 0x32) right before the deadline word does not hide it
    const fee = maskAnswer({ data: `0x12345678${word(0x32)}${word(deadline)}` }, window, new Set()) as { data: string };
    expect(fee.data).toBe(`0x12345678${word(0x32)}${`<${TIME}>`.padEnd(64, '~')}`);
    expect([...fired].sort()).toEqual([
      'context.expiry',
      'context.orderId',
      'context.outputAmount',
      'context.routeHash',
      'signedOrder.value.deadline',
      'signedOrder.value.nonce',
      'signedOrder.value.routeHash',
      'tx.data<word>',
    ]);
  });

  it('masks a wall-clock time inside a sentence, and keeps the times of the devnet', () => {
    const fired = new Set<string>();
    const steps = ['If no relayer delivers by 2027-01-15T08:01:40.000Z, the deposit is refunded', 'Swap at 2026-11-30T10:00:00Z'];
    expect(maskAnswer({ context: { steps } }, window, fired)).toEqual({
      context: { steps: [`If no relayer delivers by ${TIME}, the deposit is refunded`, 'Swap at 2026-11-30T10:00:00Z'] },
    });
    expect([...fired]).toEqual(['context.steps[]<text>']);
  });

  it('keeps the route hash when no time reached the calls', () => {
    const fired = new Set<string>();
    const body = { context: { routeHash: '0xbb' }, tx: { data: `0x12345678${word(5)}${word(6)}` } };
    expect(maskRouteHash(maskAnswer(body, window, fired), fired)).toEqual(body);
    expect(fired.size).toBe(0);
  });

  it('reports the request, the JSON path and both values, calldata by its first differing word', () => {
    const g: GoldenFile = {
      devnet: { buildTime: 1, seed: 's', networks: ['ethereum'] },
      entries: [
        { kind: 'a', method: 'GET', path: '/x', status: 200, body: { list: [{ v: 1 }, { v: 2 }] } },
        { kind: 'b', method: 'GET', path: '/y', status: 200, body: { data: `0x${'00'.repeat(100)}` } },
        { kind: 'c', method: 'GET', path: '/gone', status: 200, body: {} },
      ],
    };
    const a: GoldenFile = {
      ...g,
      entries: [
        { kind: 'a', method: 'GET', path: '/x', status: 200, body: { list: [{ v: 1 }, { v: 3 }] } },
        { kind: 'b', method: 'GET', path: '/y', status: 200, body: { data: `0x${'00'.repeat(40)}ff${'00'.repeat(59)}` } },
        { kind: 'd', method: 'GET', path: '/new', status: 404, body: {} },
      ],
    };
    const report = compareGolden(g, a)!;
    expect(report).toContain('4 of 3 requests differ');
    expect(report).toContain('~ [a] GET /x\n    $.list[1].v\n      golden: 2\n      actual: 3');
    expect(report).toContain('$.data (hex char 82 of 202/202)');
    expect(report).toContain('+ GET /new: not in the golden file (answered 404)');
    expect(report).toContain('- GET /gone: in the golden file, not requested in this run');
    expect(compareGolden(g, g)).toBeUndefined();
    // gas limits within the deadline's calldata slack are equal; beyond it they differ
    expect(diffJson({ context: { gasLimit: '1104734' } }, { context: { gasLimit: '1104618' } })).toEqual([]);
    expect(diffJson({ context: { gasLimit: '242084' } }, { context: { gasLimit: '242184' } })).toEqual([
      { path: '$.context.gasLimit', golden: '"242084"', actual: '"242184"' },
    ]);
    expect(diffJson({ a: 1 }, { b: 1 })).toEqual([
      { path: '$.a', golden: '1', actual: '(absent)' },
      { path: '$.b', golden: '(absent)', actual: '1' },
    ]);
  });
});
