/**
 * USD prices propagated from anchors (stablecoins = $1) through pools.
 *
 * 1. Layers: tokens one pool away from a priced token get a price from all such pools at once
 *    (breadth first), so a token is priced from the shortest paths to the anchors.
 * 2. Refinement: each token is re-priced from every pool whose other side is at the same or a
 *    lower layer (so two tokens priced from the anchors also price each other, but a token is
 *    never priced back from tokens that were priced through it), a few Jacobi rounds.
 * Each quote is weighted by the pool's USD depth, seen from the priced side (2 x its reserve
 * value), and by no more than the liquidity behind the other token's own price (its support: the
 * weight of the quotes that priced it; anchors are unbounded): a deep pool against a token that is
 * itself priced by a thin pool is only as good as that thin pool, so prices follow the deepest paths
 * to the anchors. Quotes whose weight is below `minLiquidityUsd` are ignored (thin pools), and so are
 * pools whose own side, at the token's current price, is below it (a pool holding $100 of WETH
 * against a heap of a token the attacker minted is a $100 pool). Quotes further than `maxDeviation`
 * from the weighted median of a token's quotes are dropped (outliers). A token with no quote left
 * has no price: the floor is per pool, so a token reachable only through thin pools stays unpriced.
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

/** A robust price and the weight of the quotes that made it (the liquidity behind it, USD). */
export interface RobustQuote {
  price: number;
  weight: number;
}

/** Weighted median, then the weighted mean of the quotes within maxDeviation of it, and their weight. */
export function robustQuote(quotes: readonly WeightedQuote[], maxDeviation: number): RobustQuote | undefined {
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
  return { price: kept.reduce((s, q) => s + q.price * q.weight, 0) / w, weight: w };
}

/** Weighted median, then the weighted mean of the quotes within maxDeviation of it. */
export function robustPrice(quotes: readonly WeightedQuote[], maxDeviation: number): number | undefined {
  return robustQuote(quotes, maxDeviation)?.price;
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

/**
 * The quote a pool gives for `side`'s token from the other token's USD price, its weight capped by
 * the other token's support; undefined when the pool is thin, seen from either side (`ownPrice`:
 * the token's current price, unknown while it is first priced).
 */
function quoteFrom(
  side: Side,
  otherPrice: number,
  otherSupport: number,
  ownPrice: number | undefined,
  minLiquidityUsd: number,
): WeightedQuote | undefined {
  const { edge } = side;
  const [ownDepth, otherDepth] = side.isToken0 ? [edge.depth0, edge.depth1] : [edge.depth1, edge.depth0];
  if (ownPrice !== undefined && 2 * ownDepth * ownPrice < minLiquidityUsd) return undefined;
  const weight = Math.min(2 * otherDepth * otherPrice, otherSupport);
  if (!(weight >= minLiquidityUsd)) return undefined;
  return { price: side.isToken0 ? edge.price0In1 * otherPrice : otherPrice / edge.price0In1, weight };
}

/** USD prices and, per priced token, its support (USD weight of the quotes that back its price; anchors: Infinity). */
export interface GraphPrices {
  prices: Map<string, number>;
  support: Map<string, number>;
}

export function priceGraph(anchors: ReadonlyMap<string, number>, edges: readonly GraphEdge[], opts: GraphOptions): GraphPrices {
  const adj = adjacency(edges);
  const prices = new Map(anchors);
  const support = new Map<string, number>([...anchors.keys()].map((k) => [k, Infinity]));
  const layer = new Map<string, number>([...anchors.keys()].map((k) => [k, 0]));
  type Prices = ReadonlyMap<string, number>;
  const quotesFor = (token: string, accept: (other: string) => boolean, from: Prices, backing: Prices): WeightedQuote[] => {
    const own = from.get(token);
    const out: WeightedQuote[] = [];
    for (const side of adj.get(token) ?? []) {
      const otherPrice = from.get(side.other);
      if (otherPrice === undefined || !accept(side.other)) continue;
      const q = quoteFrom(side, otherPrice, backing.get(side.other) ?? 0, own, opts.minLiquidityUsd);
      if (q) out.push(q);
    }
    return out;
  };

  for (let depth = 1; ; depth++) {
    const found = new Map<string, RobustQuote>();
    for (const token of adj.keys()) {
      if (prices.has(token)) continue;
      const q = robustQuote(
        quotesFor(token, () => true, prices, support),
        opts.maxDeviation,
      );
      if (q !== undefined) found.set(token, q);
    }
    if (found.size === 0) break;
    for (const [token, q] of found) {
      prices.set(token, q.price);
      support.set(token, q.weight);
      layer.set(token, depth);
    }
  }

  // Supports settled once the layers are known: a token's support counts its quotes from tokens at
  // the same or a lower layer (so two tokens priced from the anchors back each other, as WBTC and
  // WETH do), each capped by that token's support from the layer pass (so a chain of tokens minted
  // for an attack is no better backed than its first link). The refinement keeps them fixed.
  const backing = new Map(support);
  for (const [token, depth] of layer) {
    if (depth === 0) continue;
    const q = robustQuote(
      quotesFor(token, (other) => (layer.get(other) ?? Infinity) <= depth, prices, support),
      opts.maxDeviation,
    );
    if (q !== undefined) backing.set(token, q.weight);
  }

  let current = prices;
  for (let round = 0; round < opts.iterations; round++) {
    const next = new Map(current);
    for (const [token, depth] of layer) {
      if (depth === 0) continue;
      const q = robustQuote(
        quotesFor(token, (other) => (layer.get(other) ?? Infinity) <= depth, current, backing),
        opts.maxDeviation,
      );
      if (q !== undefined) next.set(token, q.price);
    }
    current = next;
  }
  return { prices: current, support: backing };
}

export function propagatePrices(
  anchors: ReadonlyMap<string, number>,
  edges: readonly GraphEdge[],
  opts: GraphOptions,
): Map<string, number> {
  return priceGraph(anchors, edges, opts).prices;
}
