import { DEVNET_ORDER, plannedDevnetFacets } from '@tokensvc/protocols/devnet';
import { DEVNET_PLANS } from '../config';
import { createRng } from '../math/prng';
import { actionTable, blockTime, planTimeline } from './simulator';
import type { World } from './world';

describe('timeline', () => {
  const now = 1_800_000_000;
  const t = planTimeline(now, 30, 24);

  it('covers 30 days of activity ending now, after a day for deployment', () => {
    expect(t.end).toBe(now);
    expect(t.end - t.activityStart).toBe(30 * 86_400);
    expect(t.activityStart - t.genesis).toBe(86_400);
    expect(t.steps).toBe(720);
  });

  it('gives strictly increasing block times inside the window', () => {
    const rng = createRng('t');
    let previous = t.activityStart;
    for (let step = 1; step <= t.steps; step++) {
      const ts = blockTime(t, step, rng);
      expect(ts).toBeGreaterThan(previous);
      previous = ts;
    }
    expect(previous).toBeLessThanOrEqual(t.end);
    expect(previous).toBeGreaterThan(t.end - 3_600);
  });
});

describe('history', () => {
  it('runs the families in the order the devnet has always been built in, Uniswap V4 (added later) last', () => {
    expect(DEVNET_ORDER).toEqual(['uniswap-v2', 'uniswap-v3', 'aave-v3', 'erc4626', 'uniswap-v4']);
  });

  const table = 'V2 swap, V3 swap, transfer, send ETH, wrap, vault, lending, then V4 swap';
  it(`keeps the weighted table of user actions in its order (${table}): a seed writes the same history`, () => {
    // Starting the histories reads only the Aave markets (none here) and prices; every family has a platform.
    const world = { platform: () => ({ markets: [] }), platforms: () => [{}], price: () => 1 } as unknown as World;
    const histories = plannedDevnetFacets(DEVNET_PLANS).map((f) => f.history(world));
    expect(actionTable(world, histories).map(([weight]) => weight)).toEqual([30, 30, 12, 3, 4, 8, 13, 10]);
  });

  it('gives a world without a platform of a family (the mainnet-shaped profile) no history from it', () => {
    const platforms = (family: string): object[] => (family === 'uniswap-v4' ? [] : [{}]);
    const world = { platform: () => ({ markets: [] }), platforms, price: () => 1 } as unknown as World;
    const histories = plannedDevnetFacets(DEVNET_PLANS).map((f) => f.history(world));
    expect(actionTable(world, histories).map(([weight]) => weight)).toEqual([30, 30, 12, 3, 4, 8, 13]);
  });
});
