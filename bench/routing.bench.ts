/**
 * Route quality: findRoute against an independent optimum solver and the best single path on a
 * seeded generated graph (24 tokens, 150 V2 + 50 V3 + 30 V4 pools, 300 trades over 1-3 hop pairs from
 * dust to pool-draining sizes), plus findRoute's latency. Pure CPU, no services.
 */
import { buildGraph, findRoute } from '@tokensvc/routing';
import { generateGraph } from './routing/generator';
import { solveOptimum } from './routing/optimum';
import { type Report, type TradeResult, buildReport } from './routing/stats';

export async function runRoutingBench(log: (s: string) => void): Promise<Report> {
  const g = generateGraph();
  const graph = buildGraph(g.pools);
  const count = (family: string): number => g.pools.filter((p) => p.family === family).length;
  log(
    `routing: ${g.tokens.length} tokens, ${count('uniswap-v2')} V2 + ${count('uniswap-v3')} V3 + ${count('uniswap-v4')} V4 pools, ${g.trades.length} trades`,
  );
  const route = (t: (typeof g.trades)[number]) => findRoute(graph, { tokenIn: t.tokenIn, tokenOut: t.tokenOut, amountIn: t.amountIn });
  for (const t of g.trades.slice(0, 30)) route(t); // warm-up (JIT)
  const results: TradeResult[] = [];
  const started = performance.now();
  for (const [i, t] of g.trades.entries()) {
    const t0 = performance.now();
    const r = route(t);
    const ms = performance.now() - t0;
    const opt = solveOptimum(g.pools, t.tokenIn, t.tokenOut, t.amountIn);
    if (!opt) throw new Error(`no path for trade ${i}`);
    const optimum = opt.amountOut > opt.bestSingle ? opt.amountOut : opt.bestSingle;
    results.push({
      hops: t.hops,
      depthFraction: t.depthFraction,
      routed: r?.amountOut ?? 0n,
      optimum,
      upperBound: opt.upperBound,
      bestSingle: opt.bestSingle,
      ms,
      split:
        (r?.legs.filter((l) => l.tokenIn === t.tokenIn).length ?? 0) > 1 ||
        new Set(r?.legs.map((l) => l.tokenIn)).size < (r?.legs.length ?? 0),
    });
    if ((i + 1) % 100 === 0) log(`  ${i + 1} trades, ${((performance.now() - started) / 1000).toFixed(1)} s`);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return buildReport(results);
}
