import type { V2Pool } from '../pool';
import { candidateGraph, candidatePools, updatePool } from './candidates';
import { findRoute } from './find-route';
import { buildGraph, type PoolGraph } from './graph';

const E18 = 10n ** 18n;
const v2 = (address: string, token0: string, token1: string, reserve0: bigint, reserve1: bigint): V2Pool => ({
  family: 'uniswap-v2',
  shape: 'constant-product',
  address,
  token0,
  token1,
  fee: 3000,
  reserve0,
  reserve1,
});
const addresses = (graph: PoolGraph, tokenIn: string, tokenOut: string, maxHops = 3, k?: number) =>
  candidatePools(graph, graph.tokenIndex.get(tokenIn)!, graph.tokenIndex.get(tokenOut)!, maxHops, k)
    .map((i) => graph.pools[i]!.address)
    .sort();

/** Hubs a and b, a deep path a-x-b, and 40 tails each with a pool to a and to b, deeper with the tail's number. */
function hubs(): V2Pool[] {
  const pools = [
    v2('ab', 'a', 'b', 1_000n * E18, 1_000n * E18),
    v2('ax', 'a', 'x', 5_000n * E18, 5_000n * E18),
    v2('xb', 'b', 'x', 5_000n * E18, 5_000n * E18),
  ];
  for (let i = 0; i < 40; i++) {
    const depth = BigInt(i + 1) * E18;
    pools.push(v2(`a-t${i}`, 'a', `t${i}`, depth, depth), v2(`b-t${i}`, 'b', `t${i}`, depth, depth));
  }
  pools.push(v2('lone', 'y', 'z', E18, E18));
  return pools;
}

describe('candidate pools', () => {
  it("keeps the direct pair, and paths through each end's k deepest neighbours only", () => {
    const graph = buildGraph(hubs());
    // a's 4 deepest: x, b (direct), t39, t38; b's likewise: the paths via x, t39 and t38.
    expect(addresses(graph, 'a', 'b', 3, 4)).toEqual(['a-t38', 'a-t39', 'ab', 'ax', 'b-t38', 'b-t39', 'xb']);
    // Unpruned, every tail is a 2-hop path.
    expect(addresses(graph, 'a', 'b', 3, 100)).toHaveLength(83);
  });

  it('finds a thin tail through its own ranking, not the hub’s', () => {
    const graph = buildGraph(hubs());
    // t0 is a's and b's thinnest neighbour, yet the paths into t0 are found from t0's side (a-t0, a-b-t0, a-x-b-t0).
    expect(addresses(graph, 'a', 't0', 3, 2)).toEqual(['a-t0', 'ab', 'ax', 'b-t0', 'xb']);
    expect(addresses(graph, 'a', 't0', 2, 2)).toEqual(['a-t0', 'ab', 'b-t0']);
    expect(addresses(graph, 't0', 'x', 3, 2)).toEqual(['a-t0', 'ab', 'ax', 'b-t0', 'xb']);
  });

  it('respects maxHops and leaves unconnected tokens out', () => {
    const graph = buildGraph(hubs());
    expect(addresses(graph, 'x', 't5', 1)).toEqual([]);
    expect(addresses(graph, 'x', 't5', 2, 100)).toEqual(['a-t5', 'ax', 'b-t5', 'xb']);
    // Three hops add x-a-b-t5 and x-b-a-t5, and through other tails nothing (t5 has two neighbours).
    expect(addresses(graph, 'x', 't5', 3, 100)).toEqual(['a-t5', 'ab', 'ax', 'b-t5', 'xb']);
    expect(addresses(graph, 'a', 'y')).toEqual([]);
    expect(candidateGraph(graph, 'a', 'unknown', 3).pools).toEqual([]);
  });

  it('an incremental update gives the candidates a rebuild gives', () => {
    const pools = hubs();
    const graph = buildGraph(pools);
    expect(addresses(graph, 'a', 'b', 3, 4)).not.toContain('a-t0');
    // t0 becomes a's deepest neighbour, t1's pools go to nothing, a new token joins both hubs deeply.
    const updates = [
      v2('a-t0', 'a', 't0', 9_000n * E18, 9_000n * E18),
      v2('b-t0', 'b', 't0', 8_000n * E18, 8_000n * E18),
      v2('a-t39', 'a', 't39', 1n, 1n),
      v2('a-new', 'a', 'new', 7_000n * E18, E18),
      v2('b-new', 'b', 'new', 7_000n * E18, E18),
    ];
    for (const u of updates) updatePool(graph, u);
    const byAddress = new Map(pools.map((p) => [p.address, p]));
    for (const u of updates) byAddress.set(u.address, u);
    const rebuilt = buildGraph([...byAddress.values()]);
    for (const [from, to] of [
      ['a', 'b'],
      ['t0', 'b'],
      ['new', 't3'],
      ['t39', 'x'],
    ] as const) {
      expect({ from, to, pools: addresses(graph, from, to, 3, 4) }).toEqual({ from, to, pools: addresses(rebuilt, from, to, 3, 4) });
    }
    expect(addresses(graph, 'a', 'b', 3, 4)).toEqual(expect.arrayContaining(['a-t0', 'b-t0', 'a-new', 'b-new']));
    const amountIn = 500n * E18;
    expect(findRoute(graph, { tokenIn: 'a', tokenOut: 'b', amountIn })?.amountOut).toBe(
      findRoute(rebuilt, { tokenIn: 'a', tokenOut: 'b', amountIn })?.amountOut,
    );
  });

  it('refuses an update that changes a pool’s tokens', () => {
    const graph = buildGraph(hubs());
    expect(() => updatePool(graph, v2('ab', 'a', 'x', E18, E18))).toThrow(/changed its tokens/);
  });
});
