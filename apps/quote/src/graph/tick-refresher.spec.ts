import type { Network } from '@tokensvc/domain';
import type { V3Tick } from '@tokensvc/routing';
import { TickRefresher } from './tick-refresher';

describe('TickRefresher', () => {
  it('coalesces the pools changed meanwhile into one read and delivers every pool’s ticks', async () => {
    const reads: string[][] = [];
    const delivered = new Map<string, readonly V3Tick[]>();
    const r = new TickRefresher(
      async (_n, pools) => {
        reads.push([...pools]);
        return new Map(pools.map((p) => [p, [{ index: 1, liquidityNet: BigInt(p.length) }]]));
      },
      (_n, pool, ticks) => delivered.set(pool, ticks),
      () => undefined,
      5,
    );
    r.schedule('ethereum', 'p1');
    r.schedule('ethereum', 'p2');
    r.schedule('ethereum', 'p1');
    await r.idle();
    expect(reads).toEqual([['p1', 'p2']]);
    expect([...delivered.keys()].sort()).toEqual(['p1', 'p2']);
  });

  it('retries a failed read instead of dropping the pools', async () => {
    let calls = 0;
    const errors: unknown[] = [];
    const delivered: string[] = [];
    const r = new TickRefresher(
      async (_n: Network, pools) => {
        if (++calls === 1) throw new Error('database down');
        return new Map(pools.map((p) => [p, []]));
      },
      (_n, pool) => delivered.push(pool),
      (e) => errors.push(e),
      5,
      10,
    );
    r.schedule('ethereum', 'p1');
    await r.idle();
    expect(calls).toBe(2);
    expect(errors).toHaveLength(1);
    expect(delivered).toEqual(['p1']);
  });
});
