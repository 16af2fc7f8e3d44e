import { buildGraph } from '@tokensvc/routing';
import { ExecutorSim } from './executor-sim';
import { ENV, LONELY, U, W, X, amount, fixtureWorld } from './plan.fixture';
import { reachable, routeInto } from './route-into';

const { e18, e6 } = amount;

describe('routeInto', () => {
  it('re-bases leg shares when the executor already holds an intermediate token of the route', () => {
    const sim = new ExecutorSim(fixtureWorld());
    sim.credit(W, 2n * e18); // e.g. the other half of a burnt LP, routed later
    sim.credit(U, 30_000n * e6);
    const steps = routeInto(sim, ENV, U, X);
    // USDC -> WETH -> XYZ: the WETH leg spends what the USDC legs bought, not the 2 WETH held before.
    const wethLegs = steps.filter((s) => s.action.kind === 'swap' && s.action.tokenIn === W);
    expect(wethLegs.length).toBeGreaterThan(0);
    expect(wethLegs.every((s) => s.action.kind === 'swap' && s.action.bps < 10_000)).toBe(true);
    const kept = sim.balance(W);
    // one basis point of the balance is the rounding a share can have
    expect(kept > 2n * e18 - (12n * e18) / 10_000n && kept < 2n * e18 + (12n * e18) / 10_000n).toBe(true);
    expect(sim.balance(U)).toBe(0n);
    expect(sim.balance(X)).toBeGreaterThan(0n);
  });

  it('uses the balance shares of the routing library as they are when nothing else is held', () => {
    const sim = new ExecutorSim(fixtureWorld());
    sim.credit(U, 30_000n * e6);
    const steps = routeInto(sim, ENV, U, X);
    expect(steps.at(-1)!.action).toMatchObject({ kind: 'swap', tokenOut: X, bps: 10_000 });
    expect(sim.holdings().map((h) => h.token)).toEqual([X]);
  });

  it('reachable: a path within the hop limit, whatever the amount', () => {
    const graph = buildGraph([...fixtureWorld().pools.values()]);
    expect(reachable(graph, U, X, 2)).toBe(true);
    expect(reachable(graph, U, X, 1)).toBe(false);
    expect(reachable(graph, U, LONELY, 3)).toBe(false);
  });
});
