/**
 * Best route from one token to another over a pool graph, maximising the output net of gas.
 * The search (greedy.ts) maximises the gross output; gas then decides how many pools are worth
 * using: the least-used pool is dropped and the search re-run while the net output improves.
 * Everything runs over the request's candidate pools (candidates.ts), never the whole graph.
 */
import { type Evaluation, type PlannedLeg, type RouteLeg, evaluateLegs, planLegs } from './evaluate';
import { DEFAULT_GAS_MODEL, type GasModel, type LegGas, routeGas } from './gas';
import { candidateGraph } from './candidates';
import { type PoolGraph, buildGraph } from './graph';
import { greedyRoute } from './greedy';

export interface RouteRequest {
  tokenIn: string;
  tokenOut: string;
  amountIn: bigint;
  /** pools per path, default 3 */
  maxHops?: number;
  /**
   * Output-token base units one unit of gas costs (gas price × native price in output units).
   * 0 (default) maximises the gross output.
   */
  outputPerGas?: number;
  gasModel?: GasModel;
  /** gas of one swap by its protocol (the quote service's protocol modules); the model's figure by shape otherwise */
  legGas?: LegGas;
  /** search granularity: the input is routed in this many slices (default 40) */
  chunks?: number;
  /** pruning rounds at most (default 8) */
  maxPrunes?: number;
  /** slices of the final re-split over the chosen pools (default 400) */
  refineChunks?: number;
  /** neighbours per token a path may use (candidates.ts; default DEFAULT_TOP_K) */
  topK?: number;
}

export interface Route {
  tokenIn: string;
  tokenOut: string;
  amountIn: bigint;
  amountOut: bigint;
  /** in execution order */
  legs: RouteLeg[];
  gas: number;
  /** amountOut minus the gas cost, in output units (a double: for ranking, not for amounts) */
  netOutput: number;
  residuals: Map<string, bigint>;
}

interface Candidate {
  evaluation: Evaluation;
  gas: number;
  net: number;
}

export function findRoute(whole: PoolGraph, req: RouteRequest): Route | undefined {
  if (req.tokenIn === req.tokenOut || req.amountIn <= 0n) return undefined;
  const maxHops = req.maxHops ?? 3;
  const graph = candidateGraph(whole, req.tokenIn, req.tokenOut, maxHops, req.topK);
  const chunks = req.chunks ?? 40;
  const outputPerGas = req.outputPerGas ?? 0;
  const model = req.gasModel ?? DEFAULT_GAS_MODEL;
  const amount = Number(req.amountIn);

  const search = (g: PoolGraph, slices: number, excluded?: ReadonlySet<number>): Candidate | undefined => {
    const tokenIn = g.tokenIndex.get(req.tokenIn);
    const tokenOut = g.tokenIndex.get(req.tokenOut);
    if (tokenIn === undefined || tokenOut === undefined) return undefined;
    const result = greedyRoute(g, tokenIn, tokenOut, amount, { maxHops, chunks: slices, excluded });
    const evaluation = result && executableEvaluation(req, planLegs(g, result.flows));
    if (!evaluation) return undefined;
    const gas = routeGas(evaluation.legs, model, req.legGas);
    return { evaluation, gas, net: Number(evaluation.amountOut) - gas * outputPerGas };
  };
  const better = (a: Candidate | undefined, b: Candidate | undefined): Candidate | undefined => (!a ? b : !b ? a : b.net > a.net ? b : a);

  const split = search(graph, chunks);
  let best = better(split, search(graph, 1));
  if (split && outputPerGas > 0) {
    // Drop the pool carrying the smallest share of the input while that pays for its gas.
    const excluded = new Set<number>();
    let current: Candidate | undefined = split;
    for (let round = 0; round < (req.maxPrunes ?? 8) && current.evaluation.legs.length > 1; round++) {
      excluded.add(smallestLeg(graph, current.evaluation.legs));
      const next = search(graph, chunks, excluded);
      if (!next || next.net <= current.net) break;
      current = next;
      best = better(best, current);
    }
  }
  if (!best) return undefined;
  // Re-split over the chosen token pairs in much finer slices: cheap on the small subgraph, it
  // removes most of the error of the coarse slicing on large trades, and parallel pools the
  // coarse slices were too big for (small pools next to deep ones) get their share.
  // With gas priced in, a re-split over exactly the chosen pools keeps their gas.
  const refineChunks = req.refineChunks ?? 400;
  const pairs = new Set(best.evaluation.legs.map((l) => pairKey(l.tokenIn, l.tokenOut)));
  const chosen = best;
  best = better(best, search(buildGraph(graph.pools.filter((p) => pairs.has(pairKey(p.token0, p.token1)))), refineChunks))!;
  if (outputPerGas > 0) {
    const used = new Set(chosen.evaluation.legs.map((l) => l.pool));
    best = better(best, search(buildGraph(graph.pools.filter((p) => used.has(p.address))), refineChunks))!;
  }
  const { evaluation, gas, net } = best;
  return {
    tokenIn: req.tokenIn,
    tokenOut: req.tokenOut,
    amountIn: req.amountIn,
    amountOut: evaluation.amountOut,
    legs: evaluation.legs,
    gas,
    netOutput: net,
    residuals: evaluation.residuals,
  };
}

function pairKey(a: string, b: string): string {
  return a < b ? `${a}/${b}` : `${b}/${a}`;
}

/** Legs whose share rounds to nothing would revert on chain: drop them until every leg swaps. */
function executableEvaluation(req: RouteRequest, planned: PlannedLeg[]): Evaluation | undefined {
  let legs = planned;
  for (let attempt = 0; attempt <= planned.length && legs.length > 0; attempt++) {
    const evaluation = evaluateLegs(req.tokenIn, req.tokenOut, req.amountIn, legs);
    if (evaluation.executable) return evaluation.amountOut > 0n ? evaluation : undefined;
    const failing = new Set(evaluation.legs.filter((l) => l.amountIn === 0n || l.amountOut === 0n).map((l) => l.pool));
    legs = rebalance(legs.filter((l) => !failing.has(l.pool.address)));
  }
  return undefined;
}

/** After removing legs, the last remaining leg of each token must take the rest again. */
function rebalance(legs: PlannedLeg[]): PlannedLeg[] {
  const lastOf = new Map<string, number>();
  legs.forEach((l, i) => lastOf.set(l.tokenIn, i));
  return legs.map((l, i) => (lastOf.get(l.tokenIn) === i ? { ...l, bps: 10_000 } : l));
}

/** The pool (graph index) whose leg carries the smallest fraction of the input. */
function smallestLeg(graph: PoolGraph, legs: readonly RouteLeg[]): number {
  // Fraction of the input that passes each token and leg, propagated in execution order.
  const tokenShare = new Map<string, number>();
  const first = legs[0]!;
  tokenShare.set(first.tokenIn, 1);
  const remaining = new Map<string, number>();
  let smallest = { pool: first.pool, share: Infinity };
  for (const leg of legs) {
    const available = remaining.get(leg.tokenIn) ?? tokenShare.get(leg.tokenIn) ?? 0;
    const share = (available * leg.bps) / 10_000;
    remaining.set(leg.tokenIn, available - share);
    tokenShare.set(leg.tokenOut, (tokenShare.get(leg.tokenOut) ?? 0) + share);
    if (share < smallest.share) smallest = { pool: leg.pool, share };
  }
  return graph.pools.findIndex((p) => p.address === smallest.pool);
}
