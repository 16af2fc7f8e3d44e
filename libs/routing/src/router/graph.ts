/** Tokens and directed swap edges over a set of pools; tokens are numbered for the search loops. */
import type { Pool } from '../pool';

export interface Edge {
  pool: number;
  from: number;
  to: number;
  zeroForOne: boolean;
}

export interface PoolGraph {
  pools: readonly Pool[];
  tokens: readonly string[];
  tokenIndex: ReadonlyMap<string, number>;
  /** outgoing edges by token number */
  edges: readonly (readonly Edge[])[];
}

export function hasLiquidity(pool: Pool): boolean {
  switch (pool.shape) {
    case 'constant-product':
      return pool.reserve0 > 0n && pool.reserve1 > 0n;
    case 'concentrated':
      return pool.liquidity > 0n || pool.ticks.length > 0;
  }
}

/** Empty pools are left out: nothing can be routed through them. */
export function buildGraph(allPools: readonly Pool[]): PoolGraph {
  const pools = allPools.filter(hasLiquidity);
  const tokenIndex = new Map<string, number>();
  const tokens: string[] = [];
  const id = (token: string): number => {
    let i = tokenIndex.get(token);
    if (i === undefined) {
      i = tokens.length;
      tokens.push(token);
      tokenIndex.set(token, i);
    }
    return i;
  };
  const edges: Edge[][] = [];
  pools.forEach((pool, index) => {
    const t0 = id(pool.token0);
    const t1 = id(pool.token1);
    while (edges.length < tokens.length) edges.push([]);
    edges[t0]!.push({ pool: index, from: t0, to: t1, zeroForOne: true });
    edges[t1]!.push({ pool: index, from: t1, to: t0, zeroForOne: false });
  });
  return { pools, tokens, tokenIndex, edges };
}
