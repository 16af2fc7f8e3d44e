/**
 * USD prices propagated from anchors (stablecoins = $1) through pools.
 *
 * 1. Layers: tokens one pool away from a priced token get a price from all such pools at once
 *    (breadth first), so a token is priced from the shortest paths to the anchors.
 * 2. Refinement: each token is re-priced from every pool whose other side is at the same or a
 *    lower layer (so two tokens priced from the anchors also price each other, but a token is
 *    never priced back from tokens that were priced through it), a few Jacobi rounds.
 * Each quote is weighted by the pool's USD depth, seen from the priced side (2 x its reserve
 * value). Quotes below `minLiquidityUsd` are ignored (thin pools), and quotes further than
 * `maxDeviation` from the weighted median of a token's quotes are dropped (outliers).
 */
export interface GraphEdge {
  token0: string;
  token1: string;
  /** price of token0 in token1 (human units) */
  price0In1: number;
  depth0: number;
  depth1: number;
}

export interface GraphOptions {
  minLiquidityUsd: number;
  /** relative distance from the weighted median beyond which a quote is dropped, e.g. 0.2 */
  maxDeviation: number;
  /** refinement rounds */
  iterations: number;
}

export interface WeightedQuote {
  price: number;
  weight: number;
}

/** Weighted median, then the weighted mean of the quotes within maxDeviation of it. */
export function robustPrice(quotes: readonly WeightedQuote[], maxDeviation: number): number | undefined {
  const usable = quotes.filter((q) => q.price > 0 && Number.isFinite(q.price) && q.weight > 0);
  if (usable.length === 0) return undefined;
  // Fully ordered, so the result does not depend on the order pools were listed in.
  const sorted = [...usable].sort((a, b) => a.price - b.price || a.weight - b.weight);
  const total = sorted.reduce((s, q) => s + q.weight, 0);
  let acc = 0;
  let median = sorted[sorted.length - 1]!.price;
  for (const q of sorted) {
    acc += q.weight;
    if (acc >= total / 2) {
      median = q.price;
      break;
    }
  }
  const kept = sorted.filter((q) => Math.abs(q.price / median - 1) <= maxDeviation);
  const w = kept.reduce((s, q) => s + q.weight, 0);
  return kept.reduce((s, q) => s + q.price * q.weight, 0) / w;
}

interface Side {
  edge: GraphEdge;
  /** this token is token0 of the edge */
  isToken0: boolean;
  other: string;
}

function adjacency(edges: readonly GraphEdge[]): Map<string, Side[]> {
  const out = new Map<string, Side[]>();
  const add = (token: string, side: Side): void => {
    const list = out.get(token);
    if (list) list.push(side);
    else out.set(token, [side]);
  };
  for (const edge of edges) {
    if (edge.token0 === edge.token1) continue;
    add(edge.token0, { edge, isToken0: true, other: edge.token1 });
    add(edge.token1, { edge, isToken0: false, other: edge.token0 });
  }
  return out;
}

/** The quote a pool gives for `side`'s token from the other token's USD price. */
function quoteFrom(side: Side, otherPrice: number): WeightedQuote {
  const { edge } = side;
  if (side.isToken0) return { price: edge.price0In1 * otherPrice, weight: 2 * edge.depth1 * otherPrice };
  return { price: otherPrice / edge.price0In1, weight: 2 * edge.depth0 * otherPrice };
}

export function propagatePrices(anchors: ReadonlyMap<string, number>, edges: readonly GraphEdge[], opts: GraphOptions): Map<string, number> {
  const adj = adjacency(edges);
  const prices = new Map(anchors);
  const layer = new Map<string, number>([...anchors.keys()].map((k) => [k, 0]));
  const quotesFor = (token: string, accept: (other: string) => boolean, from: ReadonlyMap<string, number>): WeightedQuote[] =>
    (adj.get(token) ?? []).flatMap((side) => {
      const otherPrice = from.get(side.other);
      if (otherPrice === undefined || !accept(side.other)) return [];
      const q = quoteFrom(side, otherPrice);
      return q.weight >= opts.minLiquidityUsd ? [q] : [];
    });

  for (let depth = 1; ; depth++) {
    const found = new Map<string, number>();
    for (const token of adj.keys()) {
      if (prices.has(token)) continue;
      const price = robustPrice(quotesFor(token, () => true, prices), opts.maxDeviation);
      if (price !== undefined) found.set(token, price);
    }
    if (found.size === 0) break;
    for (const [token, price] of found) {
      prices.set(token, price);
      layer.set(token, depth);
    }
  }

  let current = prices;
  for (let round = 0; round < opts.iterations; round++) {
    const next = new Map(current);
    for (const [token, depth] of layer) {
      if (depth === 0) continue;
      const price = robustPrice(quotesFor(token, (other) => (layer.get(other) ?? Infinity) <= depth, current), opts.maxDeviation);
      if (price !== undefined) next.set(token, price);
    }
    current = next;
  }
  return current;
}
