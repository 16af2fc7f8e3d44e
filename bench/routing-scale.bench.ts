/**
 * Routing at a network's scale (issue 34): findRoute on a seeded generated graph of ~50,000 pools
 * (15 hubs, tail tokens with one to three pools each, constant-product and concentrated), a few
 * hundred trades between random token pairs; latency, the heap the graph takes, and as the
 * baseline in the same run the whole-graph router this replaced (bench/routing/baseline-find-route.ts)
 * on a share of the same trades, with the ratio of the two outputs per trade.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { DEFAULT_TOP_K, type PoolGraph, type Route, buildGraph, candidatePools, findRoute } from '@tokensvc/routing';
import { percentile } from './indexer/stats';
import { findRouteWholeGraph } from './routing/baseline-find-route';
import { generateScaleGraph, type ScaleTrade } from './routing/scale-generator';
import { ratio } from './routing/stats';

export interface ScaleOptions {
  pools: number;
  trades: number;
  /** the baseline runs every n-th trade (it takes ~100x longer) */
  baselineEvery: number;
  seed?: number;
}

export function parseScaleOptions(args: readonly string[]): ScaleOptions {
  const value = (name: string, fallback: number): number => {
    const i = args.indexOf(`--${name}`);
    const v = i >= 0 ? Number(args[i + 1]) : fallback;
    if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} wants a positive number`);
    return v;
  };
  const seed = args.includes('--seed') ? value('seed', 1) : undefined;
  return { pools: value('pools', 50_000), trades: value('trades', 300), baselineEvery: value('baseline-every', 3), seed };
}

interface Timed {
  ms: number[];
  /** CPU time of the process per request: on a loaded machine steadier than the wall time */
  cpuMs: number[];
  routes: (Route | undefined)[];
}

function run(graph: PoolGraph, trades: readonly ScaleTrade[], route: (g: PoolGraph, t: ScaleTrade) => Route | undefined): Timed {
  const out: Timed = { ms: [], cpuMs: [], routes: [] };
  for (const t of trades) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    out.routes.push(route(graph, t));
    out.ms.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    out.cpuMs.push((c.user + c.system) / 1000);
  }
  return out;
}

const request = (t: ScaleTrade) => ({ tokenIn: t.tokenIn, tokenOut: t.tokenOut, amountIn: t.amountIn });
const latency = (ms: readonly number[]) =>
  `p50 ${percentile(ms, 50).toFixed(1)} ms  p95 ${percentile(ms, 95).toFixed(1)} ms  max ${Math.max(...ms).toFixed(1)} ms  (n ${ms.length})`;
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

/** A heap figure needs a collection first; the bench process was not started with --expose-gc. */
function collector(): () => number {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  return () => {
    gc();
    gc();
    return process.memoryUsage().heapUsed;
  };
}

export async function runRoutingScaleBench(log: (s: string) => void, o: ScaleOptions): Promise<string> {
  const heap = collector();
  const h0 = heap();
  const g = generateScaleGraph({ pools: o.pools, trades: o.trades, seed: o.seed });
  const h1 = heap();
  let t0 = performance.now();
  const graph = buildGraph(g.pools);
  const buildMs = performance.now() - t0;
  const h2 = heap();
  const concentrated = g.pools.filter((p) => p.shape === 'concentrated').length;
  log(`routing-scale: ${g.tokens.length} tokens, ${g.pools.length} pools (${concentrated} concentrated), ${g.trades.length} trades`);
  // The first request pays for the index of the tokens it touches; then warm up the JIT.
  t0 = performance.now();
  findRoute(graph, request(g.trades[0]!));
  const firstMs = performance.now() - t0;
  for (const t of g.trades.slice(0, 30)) findRoute(graph, request(t));
  const candidate = run(graph, g.trades, (gr, t) => findRoute(gr, request(t)));
  const h3 = heap();
  await new Promise((resolve) => setImmediate(resolve));
  const sampled = g.trades.filter((_, i) => i % o.baselineEvery === 0);
  log(`  baseline (whole-graph router) on ${sampled.length} of the trades...`);
  findRouteWholeGraph(graph, request(sampled[0]!));
  const baseline = run(graph, sampled, (gr, t) => findRouteWholeGraph(gr, request(t)));
  const mine = g.trades.map((_, i) => i).filter((i) => i % o.baselineEvery === 0);
  const ratios = mine.map((i, j) => ratio(candidate.routes[i]?.amountOut ?? 0n, baseline.routes[j]?.amountOut ?? 0n));
  const sameMs = mine.map((i) => candidate.ms[i]!);
  const p95 = percentile(candidate.ms, 95);
  const counts = g.trades.map((t) => candidatePools(graph, graph.tokenIndex.get(t.tokenIn)!, graph.tokenIndex.get(t.tokenOut)!, 3).length);
  const count = (xs: readonly number[]) => `p50 ${percentile(xs, 50)}  max ${Math.max(...xs)}`;
  const speedUp = (p: number) => percentile(baseline.ms, p) / percentile(sameMs, p);
  const pct = (v: number) => `${(v * 100).toFixed(4)} %`;
  return [
    `graph: ${g.pools.length} pools, ${g.tokens.length} tokens; heap: pool objects ${mb(h1 - h0)}, ` +
      `buildGraph ${mb(h2 - h1)} (${buildMs.toFixed(0)} ms), candidate index and the run's routes ${mb(h3 - h2)}`,
    `findRoute (candidate pools), all trades        ${latency(candidate.ms)}; first request (cold index) ${firstMs.toFixed(1)} ms`,
    `  CPU time                                     ${latency(candidate.cpuMs)}`,
    ...(['tail-tail', 'hub-tail', 'tail-hub', 'hub-hub'] as const).map((k) => {
      const mineOf = (xs: readonly number[]) => xs.filter((_, i) => g.trades[i]!.kind === k);
      return `  ${k.padEnd(44)} ${latency(mineOf(candidate.ms))}; candidate pools ${count(mineOf(counts))}`;
    }),
    `findRoute (candidate pools), baseline's trades ${latency(sameMs)}`,
    `baseline: whole-graph router, same trades      ${latency(baseline.ms)}`,
    `  CPU time                                     ${latency(baseline.cpuMs)}`,
    `speed-up (baseline / candidate): p50 ${speedUp(50).toFixed(1)}x, p95 ${speedUp(95).toFixed(1)}x (k = ${DEFAULT_TOP_K})`,
    `output candidate / baseline: median ${pct(percentile(ratios, 50))}  p5 ${pct(percentile(ratios, 5))}  min ${pct(Math.min(...ratios))}  ` +
      `(n ${ratios.length}, above 100 %: ${ratios.filter((r) => r > 1).length}, below: ${ratios.filter((r) => r < 1).length})`,
    `target: findRoute p95 <= 25 ms at ${g.pools.length} pools (${p95 <= 25 ? 'met' : 'MISSED'}: ${p95.toFixed(1)} ms)`,
  ].join('\n');
}
