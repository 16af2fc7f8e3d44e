/**
 * Candidate pools of one request: the search runs over a small subgraph instead of the whole
 * graph, so its cost follows the neighbourhood of the two tokens, not the number of pools.
 *
 * A hub token has a pool with thousands of tail tokens, and a hop-limited search from it touches
 * every one of them in every slice. Most of those pools are far too thin to matter for a path
 * through the hub, so each token keeps its neighbours ranked by the depth of its own side of
 * their pools (in its own units, so the ranking needs no price), and a path may only leave a token
 * towards one of its `k` deepest neighbours, or enter a token from one of its own `k` deepest. The
 * direct pair is always a candidate. Paths are found from both ends and meet in the middle, so a
 * tail token reached from a hub is found through the tail's own ranking, not the hub's.
 *
 * Bounds for `maxHops` h: at most k^ceil((h-1)/2) tokens per side, and pair look-ups between the
 * two sides; with h = 3, at most k² + 2k² paths. Every pool of a candidate pair is a candidate
 * (parallel pools are what the search splits over).
 */
import type { Pool } from '../pool';
import { type Edge, type PoolGraph, buildGraph, hasLiquidity } from './graph';

/** Neighbours kept per token; chosen on the route-quality and scale benches (bench/README.md). */
export const DEFAULT_TOP_K = 24;

interface Ranking {
  /** neighbour tokens, deepest first (at most k) */
  top: number[];
}

interface Index {
  k: number;
  /** pools of each unordered token pair, by pair key */
  pairs: Map<number, number[]>;
  /** per token, computed on first use; cleared for a token when one of its pools changes */
  rankings: (Ranking | undefined)[];
}

const indexes = new WeakMap<PoolGraph, Index>();

/** Token numbers fit 26 bits (67 M tokens): a pair is one safe integer. */
const PAIR = 2 ** 26;
const pairKey = (a: number, b: number): number => (a < b ? a * PAIR + b : b * PAIR + a);

/** The amount of `token`'s side a pool holds near its price (V3: the in-range virtual amount). */
export function sideDepth(pool: Pool, token: string): number {
  const zero = pool.token0 === token;
  switch (pool.shape) {
    case 'constant-product':
      return Number(zero ? pool.reserve0 : pool.reserve1);
    case 'concentrated': {
      const sqrtP = Number(pool.sqrtPriceX96) / 2 ** 96;
      const l = Number(pool.liquidity);
      return sqrtP > 0 ? (zero ? l / sqrtP : l * sqrtP) : 0;
    }
  }
}

function indexOf(graph: PoolGraph, k: number): Index {
  let index = indexes.get(graph);
  if (!index || index.k !== k) {
    const pairs = new Map<number, number[]>();
    graph.pools.forEach((pool, i) => {
      const key = pairKey(graph.tokenIndex.get(pool.token0)!, graph.tokenIndex.get(pool.token1)!);
      const list = pairs.get(key);
      if (list) list.push(i);
      else pairs.set(key, [i]);
    });
    index = { k, pairs, rankings: [] };
    indexes.set(graph, index);
  }
  return index;
}

/** The k deepest neighbours of a token: one pass over its edges keeping a sorted list of k. */
function ranking(graph: PoolGraph, index: Index, token: number): Ranking {
  const held = index.rankings[token];
  if (held) return held;
  const address = graph.tokens[token]!;
  const depth = new Map<number, number>();
  for (const e of graph.edges[token] ?? []) depth.set(e.to, (depth.get(e.to) ?? 0) + sideDepth(graph.pools[e.pool]!, address));
  const top: Array<[number, number]> = [];
  for (const [to, d] of depth) {
    if (top.length === index.k && d <= top[top.length - 1]![1]) continue;
    let at = top.length;
    while (at > 0 && top[at - 1]![1] < d) at--;
    top.splice(at, 0, [to, d]);
    if (top.length > index.k) top.pop();
  }
  const r = { top: top.map(([to]) => to) };
  index.rankings[token] = r;
  return r;
}

/** These tokens' pools changed: their rankings are recomputed on next use. */
function invalidate(graph: PoolGraph, tokens: readonly number[], newPair?: { pool: number; a: number; b: number }): void {
  const index = indexes.get(graph);
  if (!index) return;
  for (const t of tokens) index.rankings[t] = undefined;
  if (newPair) {
    const key = pairKey(newPair.a, newPair.b);
    const list = index.pairs.get(key);
    if (list) list.push(newPair.pool);
    else index.pairs.set(key, [newPair.pool]);
  }
}

/**
 * Pool numbers (of `graph`) on the candidate paths of up to `maxHops` pools from one token to the
 * other, ascending.
 */
export function candidatePools(graph: PoolGraph, tokenIn: number, tokenOut: number, maxHops: number, k = DEFAULT_TOP_K): number[] {
  const index = indexOf(graph, k);
  const adjacent = (a: number, b: number) => index.pairs.get(pairKey(a, b));
  // Layers from each end: forward through each token's own top neighbours (selling its side),
  // backward likewise (buying its side). Paths stay simple: a token is not revisited.
  const forwardDepth = Math.floor((maxHops - 1) / 2) + ((maxHops - 1) % 2);
  const backwardDepth = Math.floor((maxHops - 1) / 2);
  const forward = layers(graph, index, tokenIn, tokenOut, forwardDepth);
  const backward = layers(graph, index, tokenOut, tokenIn, backwardDepth);
  const pairs = new Set<number>();
  const add = (path: number[]) => {
    for (let i = 1; i < path.length; i++) pairs.add(pairKey(path[i - 1]!, path[i]!));
  };
  // Every split of the hops between the two sides: prefix of i hops, a middle pool, suffix of j.
  for (let i = 0; i < forward.length; i++)
    for (let j = 0; j < backward.length && i + j + 1 <= maxHops; j++)
      for (const head of forward[i]!)
        for (const tail of backward[j]!) {
          const a = head[head.length - 1]!;
          const b = tail[tail.length - 1]!;
          if (a === b || !adjacent(a, b)) continue;
          if (tail.some((t) => head.includes(t))) continue;
          add(head);
          add([a, b]);
          add(tail);
        }
  const pools: number[] = [];
  for (const key of pairs) pools.push(...index.pairs.get(key)!);
  return pools.sort((x, y) => x - y);
}

/** Simple paths from `start` of 0..depth hops, each step to one of the token's top neighbours. */
function layers(graph: PoolGraph, index: Index, start: number, avoid: number, depth: number): number[][][] {
  const out: number[][][] = [[[start]]];
  for (let d = 1; d <= depth; d++) {
    const next: number[][] = [];
    for (const path of out[d - 1]!) {
      const last = path[path.length - 1]!;
      for (const to of ranking(graph, index, last).top) if (to !== avoid && !path.includes(to)) next.push([...path, to]);
    }
    out.push(next);
  }
  return out;
}

/** The request's subgraph: the candidate pools only (none when a token is unknown). */
export function candidateGraph(graph: PoolGraph, tokenIn: string, tokenOut: string, maxHops: number, k = DEFAULT_TOP_K): PoolGraph {
  const a = graph.tokenIndex.get(tokenIn);
  const b = graph.tokenIndex.get(tokenOut);
  if (a === undefined || b === undefined) return buildGraph([]);
  return buildGraph(candidatePools(graph, a, b, maxHops, k).map((i) => graph.pools[i]!));
}

const addresses = new WeakMap<PoolGraph, Map<string, number>>();

/**
 * Applies one pool's new state to a graph in place, as the quote service's events arrive: the
 * pool keeps its number (or is appended with its edges), and only its two tokens' rankings are
 * recomputed on next use, so an update costs the same whatever the graph's size. A new pool with
 * no liquidity is not added (buildGraph leaves those out); a held pool that empties stays (its
 * depth is 0 and the search gets no output from it).
 */
export function updatePool(graph: PoolGraph, pool: Pool): void {
  let byAddress = addresses.get(graph);
  if (!byAddress) {
    byAddress = new Map(graph.pools.map((p, i) => [p.address, i]));
    addresses.set(graph, byAddress);
  }
  const pools = graph.pools as Pool[];
  const held = byAddress.get(pool.address);
  if (held !== undefined) {
    const old = pools[held]!;
    if (old.token0 !== pool.token0 || old.token1 !== pool.token1) throw new Error(`pool ${pool.address} changed its tokens`);
    pools[held] = pool;
    invalidate(graph, [graph.tokenIndex.get(pool.token0)!, graph.tokenIndex.get(pool.token1)!]);
    return;
  }
  if (!hasLiquidity(pool)) return;
  const tokens = graph.tokens as string[];
  const tokenIndex = graph.tokenIndex as Map<string, number>;
  const edges = graph.edges as Edge[][];
  const id = (token: string): number => {
    let i = tokenIndex.get(token);
    if (i === undefined) {
      i = tokens.length;
      tokens.push(token);
      tokenIndex.set(token, i);
      edges.push([]);
    }
    return i;
  };
  const t0 = id(pool.token0);
  const t1 = id(pool.token1);
  const number = pools.length;
  pools.push(pool);
  byAddress.set(pool.address, number);
  edges[t0]!.push({ pool: number, from: t0, to: t1, zeroForOne: true });
  edges[t1]!.push({ pool: number, from: t1, to: t0, zeroForOne: false });
  invalidate(graph, [t0, t1], { pool: number, a: t0, b: t1 });
}
