import type { ExplainHop } from '@tokensvc/messages';
import { swapExactIn } from '@tokensvc/routing';
import { apportion, explainPlan, improvementBps } from './explain';
import { PlanError } from './plan-error';
import { planOrder } from './plan-order';
import { D, ENV, TOKENS, U, VAULT, W, WU, WU3, X, amount, fixtureWorld } from './plan.fixture';

const { e18 } = amount;
const t = (a: string) => TOKENS[a]!;

/** Every hop of the tree, depth first. */
const hops = (list: readonly ExplainHop[]): ExplainHop[] => list.flatMap((h) => [h, ...hops(h.next)]);
const leaves = (list: readonly ExplainHop[]): ExplainHop[] => hops(list).filter((h) => h.next.length === 0);
const sum = (xs: readonly string[]): bigint => xs.reduce((s, x) => s + BigInt(x), 0n);

describe('explainPlan', () => {
  it('a split swap: the leaf outputs add up to the output, each hop passes on what it received, weights cover the input', () => {
    const world = fixtureWorld();
    const plan = planOrder(world, ENV, t(W), t(U), 300n * e18);
    const e = explainPlan(world, ENV, plan);
    expect(e.tokenIn).toBe(W);
    expect(e.tokenOut).toBe(U);
    expect(e.amountIn).toBe(plan.amountIn.toString());
    expect(e.amountOut).toBe(plan.amountOut.toString());
    expect(e.route.length).toBeGreaterThan(1); // deep V2 and V3 pools side by side: split
    expect(sum(leaves(e.route).map((h) => h.amountOut))).toBe(plan.amountOut);
    expect(leaves(e.route).every((h) => h.tokenOut === U)).toBe(true);
    expect(sum(e.route.map((h) => h.amountIn))).toBe(plan.amountIn);
    for (const h of hops(e.route)) {
      if (h.next.length > 0) expect(sum(h.next.map((n) => n.amountIn))).toBe(BigInt(h.amountOut));
      expect(h.priceImpactPercentage).toBeGreaterThanOrEqual(0);
      expect(Number(h.gas)).toBeGreaterThan(0);
      expect(['uniswap-v2', 'uniswap-v3']).toContain(h.protocol);
    }
    const weights = e.route.reduce((s, h) => s + h.weightBps, 0);
    expect(Math.abs(weights - 10_000)).toBeLessThanOrEqual(e.route.length);
    expect(e.route.find((h) => h.pool === WU3)).toMatchObject({ feeTier: 500, platform: 'uniswap-v3', protocol: 'uniswap-v3' });
  });

  it('the best single path is one chain of hops and the best direct pool is the exact pool maths', () => {
    const world = fixtureWorld();
    const plan = planOrder(world, ENV, t(W), t(U), 300n * e18);
    const e = explainPlan(world, ENV, plan);
    const single = e.bestSinglePath!;
    expect(single.hops.length).toBeGreaterThan(0);
    single.hops.forEach((h, i) => {
      if (i > 0) {
        expect(h.tokenIn).toBe(single.hops[i - 1]!.tokenOut);
        expect(h.amountIn).toBe(single.hops[i - 1]!.amountOut);
      }
    });
    expect(single.hops.at(-1)!.amountOut).toBe(single.amountOut);
    expect(BigInt(single.amountOut)).toBeLessThanOrEqual(plan.amountOut);
    expect(single.improvementBps).toBe(String(improvementBps(plan.amountOut, BigInt(single.amountOut))));
    const direct = e.bestDirectPool!;
    const outs = [WU, WU3].map((p) => swapExactIn(world.pools.get(p)!, W, 300n * e18).amountOut);
    expect(BigInt(direct.amountOut)).toBe(outs.reduce((a, b) => (a > b ? a : b)));
    expect(direct.hops).toHaveLength(1);
    expect(Number(direct.improvementBps)).toBeGreaterThan(0); // the split beats either pool alone
  });

  it('a multi-hop route: the tree goes through the middle token', () => {
    const world = fixtureWorld();
    const plan = planOrder(world, ENV, t(X), t(U), 2_000n * e18);
    const e = explainPlan(world, ENV, plan);
    expect(e.route.every((h) => h.tokenIn === X)).toBe(true);
    expect(hops(e.route).some((h) => h.next.length > 0)).toBe(true);
    expect(sum(leaves(e.route).map((h) => h.amountOut))).toBe(plan.amountOut);
    expect(e.bestDirectPool).toBeUndefined(); // no XYZ/USDC pool
  });

  it('a vault output: the swaps end in the vault asset, the deposit is outside the segment', () => {
    const world = fixtureWorld();
    const plan = planOrder(world, ENV, t(D), t(VAULT), 5_000n * e18);
    const e = explainPlan(world, ENV, plan);
    expect(e.tokenOut).toBe(U);
    const deposited = plan.steps.find((s) => s.action.kind === 'vault-deposit')!.outcome.spent[0]!.amount;
    expect(BigInt(e.amountOut)).toBe(deposited);
    expect(sum(leaves(e.route).map((h) => h.amountOut))).toBe(deposited);
  });

  it('LP-token zaps are not explained yet (a clear refusal)', () => {
    const world = fixtureWorld();
    const plan = planOrder(world, ENV, t(D), t(WU), 3_000n * e18);
    expect(() => explainPlan(world, ENV, plan)).toThrow(PlanError);
    expect(() => explainPlan(world, ENV, plan)).toThrow(/not available yet for orders into or out of LP tokens/);
  });

  it('apportion splits an amount exactly, in proportion', () => {
    expect(apportion(10n, [1n, 1n, 1n])).toEqual([4n, 3n, 3n]);
    expect(apportion(1_000_001n, [3n, 7n]).reduce((a, b) => a + b, 0n)).toBe(1_000_001n);
    expect(apportion(5n, [0n, 0n])).toEqual([0n, 0n]);
    expect(apportion(7n, [2n, 0n, 5n])).toEqual([2n, 0n, 5n]);
  });
});
