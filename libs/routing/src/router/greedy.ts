/**
 * Route search: the input is split into equal chunks and each chunk takes the best path (up to
 * `maxHops` pools) given the pool states the earlier chunks left behind. Because later chunks see
 * the price impact of earlier ones, parallel pools end up at equal marginal prices (water-filling)
 * and multi-hop paths share pools consistently. The best path for a chunk is a hop-limited
 * Bellman-Ford over the whole graph, so no path enumeration is needed.
 *
 * Constraints that keep the result executable: a pool is used in one direction only, token flows
 * stay acyclic (the executor processes tokens in topological order), the input token is never
 * re-entered and the output token is never left.
 */
import type { Edge, PoolGraph } from './graph';
import { type SimPool, simulator } from './sim';

export interface GreedyOptions {
  maxHops: number;
  chunks: number;
  /** pool numbers the search must not use */
  excluded?: ReadonlySet<number>;
}

export interface PoolFlow {
  pool: number;
  from: number;
  to: number;
  zeroForOne: boolean;
  /** input routed through the pool (simulation units: base units as a double) */
  amountIn: number;
}

export interface GreedyResult {
  flows: PoolFlow[];
  /** simulated output (double) */
  amountOut: number;
}

interface Label {
  token: number;
  amount: number;
  edge?: Edge;
  prev?: Label;
}

function onPath(label: Label, token: number, pool: number): boolean {
  for (let l: Label | undefined = label; l; l = l.prev) {
    if (l.token === token) return true;
    if (l.edge && l.edge.pool === pool) return true;
  }
  return false;
}

/** Descendants per token in the used-flow graph, for the acyclicity check. */
class FlowDag {
  constructor(private readonly reach = new Map<number, Set<number>>()) {}

  clone(): FlowDag {
    return new FlowDag(new Map([...this.reach].map(([k, v]) => [k, new Set(v)])));
  }

  has(from: number, to: number): boolean {
    return this.reach.get(from)?.has(to) ?? false;
  }

  wouldCycle(from: number, to: number): boolean {
    return from === to || (this.reach.get(to)?.has(from) ?? false);
  }

  add(from: number, to: number): void {
    const gained = new Set([to, ...(this.reach.get(to) ?? [])]);
    for (const [node, set] of this.reach) if (node === from || set.has(from)) for (const g of gained) set.add(g);
    if (!this.reach.has(from)) this.reach.set(from, new Set(gained));
  }
}

export function greedyRoute(
  graph: PoolGraph,
  tokenIn: number,
  tokenOut: number,
  amountIn: number,
  o: GreedyOptions,
): GreedyResult | undefined {
  const sims: SimPool[] = graph.pools.map(simulator);
  const flowIn = new Float64Array(graph.pools.length);
  const direction = new Int8Array(graph.pools.length); // 0 unused, 1 zeroForOne, -1 oneForZero
  const dag = new FlowDag();
  const banned = new Uint8Array(graph.pools.length * 2); // pool*2 + (zeroForOne ? 1 : 0)
  const chunk = amountIn / o.chunks;
  let amountOut = 0;

  const usable = (e: Edge): boolean => {
    if (banned[e.pool * 2 + (e.zeroForOne ? 1 : 0)] || o.excluded?.has(e.pool)) return false;
    const d = direction[e.pool];
    if (d !== 0 && d !== (e.zeroForOne ? 1 : -1)) return false;
    return e.to !== tokenIn && !dag.wouldCycle(e.from, e.to);
  };

  for (let c = 0; c < o.chunks; c++) {
    const best = bestPath(graph, sims, tokenIn, tokenOut, chunk, o.maxHops, usable);
    if (!best) break;
    const path: Edge[] = [];
    for (let l: Label | undefined = best; l?.edge; l = l.prev) path.unshift(l.edge);
    // Two or more new token edges of one path can close a cycle together with older flows
    // (each alone was checked): refuse the path and retry the chunk.
    const fresh = path.filter((e) => !dag.has(e.from, e.to));
    if (fresh.length > 1) {
      const trial = dag.clone();
      const cyclic = fresh.find((e) => {
        if (trial.wouldCycle(e.from, e.to)) return true;
        trial.add(e.from, e.to);
        return false;
      });
      if (cyclic) {
        banned[cyclic.pool * 2 + (cyclic.zeroForOne ? 1 : 0)] = 1;
        c--;
        continue;
      }
    }
    let amount = chunk;
    for (const e of path) {
      // A pool that runs dry takes only part of the slice; only that part is routed through it.
      const { out, consumed } = sims[e.pool]!.apply(e.zeroForOne, amount);
      flowIn[e.pool]! += consumed;
      direction[e.pool] = e.zeroForOne ? 1 : -1;
      dag.add(e.from, e.to);
      amount = out;
    }
    amountOut += amount;
  }
  if (amountOut <= 0) return undefined;
  const flows: PoolFlow[] = [];
  flowIn.forEach((amount, pool) => {
    if (amount <= 0) return;
    const p = graph.pools[pool]!;
    const zeroForOne = direction[pool] === 1;
    const from = graph.tokenIndex.get(zeroForOne ? p.token0 : p.token1)!;
    const to = graph.tokenIndex.get(zeroForOne ? p.token1 : p.token0)!;
    flows.push({ pool, from, to, zeroForOne, amountIn: amount });
  });
  return { flows, amountOut };
}

/** Hop-limited Bellman-Ford: the best amount of each token reachable in h hops, h = 1..maxHops. */
function bestPath(
  graph: PoolGraph,
  sims: readonly SimPool[],
  tokenIn: number,
  tokenOut: number,
  amount: number,
  maxHops: number,
  usable: (e: Edge) => boolean,
): Label | undefined {
  let layer = new Map<number, Label>([[tokenIn, { token: tokenIn, amount }]]);
  let best: Label | undefined;
  for (let hop = 1; hop <= maxHops && layer.size > 0; hop++) {
    const next = new Map<number, Label>();
    for (const label of layer.values()) {
      if (label.token === tokenOut) continue;
      for (const e of graph.edges[label.token] ?? []) {
        if (hop === maxHops && e.to !== tokenOut) continue;
        if (!usable(e) || onPath(label, e.to, e.pool)) continue;
        const out = sims[e.pool]!.quote(e.zeroForOne, label.amount);
        if (!(out > 0)) continue;
        const current = next.get(e.to);
        if (!current || out > current.amount) next.set(e.to, { token: e.to, amount: out, edge: e, prev: label });
      }
    }
    const arrived = next.get(tokenOut);
    if (arrived && (!best || arrived.amount > best.amount)) best = arrived;
    layer = next;
  }
  return best;
}
