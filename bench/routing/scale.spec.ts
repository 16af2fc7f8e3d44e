import { type Pool, type RouteLeg, buildGraph, candidatePools, findRoute, updatePool } from '@tokensvc/routing';
import { findRouteWholeGraph } from './baseline-find-route';
import { rng } from './generator';
import { generateScaleGraph } from './scale-generator';
import { ratio } from './stats';

/** The fraction of the trade's input that passes through each leg. */
function shares(legs: readonly RouteLeg[]): number[] {
  const available = new Map<string, number>([[legs[0]!.tokenIn, 1]]);
  return legs.map((leg) => {
    const held = available.get(leg.tokenIn) ?? 0;
    const share = (held * leg.bps) / 10_000;
    available.set(leg.tokenIn, held - share);
    available.set(leg.tokenOut, (available.get(leg.tokenOut) ?? 0) + share);
    return share;
  });
}

// Hubs with ~200 neighbours each, so the 24 kept per token prune most of them.
const g = generateScaleGraph({ pools: 3_000, hubs: 10, trades: 48, seed: 7 });

describe('candidate pools on a generated graph', () => {
  it("hold the pools of the whole-graph router's route, and findRoute matches its output", () => {
    const graph = buildGraph(g.pools);
    const missing: string[] = [];
    const ratios: number[] = [];
    for (const t of g.trades) {
      const request = { tokenIn: t.tokenIn, tokenOut: t.tokenOut, amountIn: t.amountIn };
      const whole = findRouteWholeGraph(graph, request)!;
      const kept = new Set(
        candidatePools(graph, graph.tokenIndex.get(t.tokenIn)!, graph.tokenIndex.get(t.tokenOut)!, 3).map((i) => graph.pools[i]!.address),
      );
      const candidates = kept.size;
      expect(candidates).toBeLessThan(graph.pools.length / 4);
      // Dust trades can take a thin tail pool whose price is off by a hair (the generator's 0.2 %
      // noise), and any trade a leg carrying under 0.1 % of its input: those may be pruned (the
      // output ratio below bounds what that costs).
      shares(whole.legs).forEach((share, i) => {
        const leg = whole.legs[i]!;
        if (!kept.has(leg.pool) && share > 1e-3 && t.depthFraction > 1e-4) missing.push(`${t.kind} ${leg.pool} ${share}`);
      });
      ratios.push(ratio(findRoute(graph, request)!.amountOut, whole.amountOut));
    }
    expect(missing).toEqual([]);
    expect(Math.min(...ratios)).toBeGreaterThan(0.9995);
    expect(ratios.filter((x) => x === 1).length).toBeGreaterThan(ratios.length * 0.9);
  });

  it('incremental updates give the candidates and routes a rebuild gives', () => {
    const r = rng(11);
    const graph = buildGraph(g.pools);
    const current = new Map(g.pools.map((p) => [p.address, p]));
    const scale = (p: Pool, f: bigint): Pool =>
      p.shape === 'constant-product'
        ? { ...p, reserve0: (p.reserve0 * f) / 10n + 1n, reserve1: (p.reserve1 * f) / 10n + 1n }
        : { ...p, liquidity: (p.liquidity * f) / 10n };
    // 300 pools deepen or thin out by up to 10x (rankings change), and 50 new pools join a hub and a tail.
    for (let i = 0; i < 300; i++) {
      const p = g.pools[Math.floor(r() * g.pools.length)]!;
      const next = scale(current.get(p.address)!, BigInt(1 + Math.floor(r() * 100)));
      current.set(p.address, next);
      updatePool(graph, next);
    }
    for (let i = 0; i < 50; i++) {
      const base = g.pools[Math.floor(r() * g.pools.length)]!;
      const fresh = { ...scale(base, 30n), address: `new-${i}` };
      current.set(fresh.address, fresh);
      updatePool(graph, fresh);
    }
    const rebuilt = buildGraph([...current.values()]);
    const addresses = (gr: typeof graph, tokenIn: string, tokenOut: string) =>
      candidatePools(gr, gr.tokenIndex.get(tokenIn)!, gr.tokenIndex.get(tokenOut)!, 3)
        .map((i) => gr.pools[i]!.address)
        .sort();
    for (const t of g.trades.slice(0, 24)) {
      expect(addresses(graph, t.tokenIn, t.tokenOut)).toEqual(addresses(rebuilt, t.tokenIn, t.tokenOut));
      const request = { tokenIn: t.tokenIn, tokenOut: t.tokenOut, amountIn: t.amountIn };
      expect(findRoute(graph, request)?.amountOut).toBe(findRoute(rebuilt, request)?.amountOut);
    }
  });
});
