import { type V2Pool, getAmountOut, quoteV3ExactIn } from '@tokensvc/routing';
import { generateGraph, hopDistance } from './generator';
import { floatSwap, toFloatPools } from './float-pools';
import { solveOptimum } from './optimum';
import { simplePaths } from './paths';
import { ratio, summarizeLatency, summarizeRatios } from './stats';

const E18 = 10n ** 18n;
const v2 = (address: string, token0: string, token1: string, r0: bigint, r1: bigint, fee = 3000): V2Pool => ({
  family: 'uniswap-v2',
  shape: 'constant-product',
  address,
  token0,
  token1,
  fee,
  reserve0: r0,
  reserve1: r1,
});

describe('route bench solver', () => {
  it('float V2 and V3 maths agree with the exact pool maths', () => {
    const g = generateGraph({ trades: 3 });
    const { pools, initial } = toFloatPools(g.pools);
    const v3 = g.pools.findIndex((p) => p.shape === 'concentrated');
    const p3 = g.pools[v3]!;
    if (p3.shape !== 'concentrated') throw new Error('no v3 pool');
    for (const amount of [10n ** 15n, p3.liquidity / 10n, p3.liquidity * 3n]) {
      const exact = quoteV3ExactIn(p3, p3.token0, amount).amountOut;
      expect(floatSwap(pools[v3]!, Float64Array.from(initial), v3, true, Number(amount)) / Number(exact)).toBeCloseTo(1, 6);
    }
    const p2 = g.pools[0]!;
    if (p2.shape !== 'constant-product') throw new Error('no v2 pool');
    const amount = p2.reserve0 / 7n;
    expect(
      floatSwap(pools[0]!, Float64Array.from(initial), 0, true, Number(amount)) /
        Number(getAmountOut(amount, p2.reserve0, p2.reserve1, p2.fee)),
    ).toBeCloseTo(1, 9);
  });

  it('splits over two identical V2 pools like one pool of twice the reserves', () => {
    const pools = [v2('p', 'a', 'b', 1_000n * E18, 2_000n * E18), v2('q', 'a', 'b', 1_000n * E18, 2_000n * E18)];
    const amountIn = 700n * E18;
    const opt = solveOptimum(pools, 'a', 'b', amountIn)!;
    const closedForm = getAmountOut(amountIn, 2_000n * E18, 4_000n * E18, 3000);
    expect(ratio(opt.amountOut, closedForm)).toBeGreaterThan(0.999999);
    expect(ratio(opt.amountOut, closedForm)).toBeLessThan(1.000001);
    expect(opt.bestSingle).toBe(getAmountOut(amountIn, 1_000n * E18, 2_000n * E18, 3000));
  });

  it('enumerates simple paths up to the hop limit, without repeating a token', () => {
    const pools = [v2('1', 'a', 'b', E18, E18), v2('2', 'b', 'c', E18, E18), v2('3', 'a', 'c', E18, E18), v2('4', 'c', 'd', E18, E18)];
    expect(simplePaths(pools, 'a', 'd', 3).map((p) => p.map((h) => h.pool))).toEqual([
      [0, 1, 3],
      [2, 3],
    ]);
    expect(simplePaths(pools, 'a', 'd', 2)).toHaveLength(1);
    expect(hopDistance(pools, 'a', 'd')).toBe(2);
  });

  it('generates the same graph for the same seed, with the required sizes', () => {
    const a = generateGraph();
    const b = generateGraph();
    expect(a.trades.map((t) => t.amountIn)).toEqual(b.trades.map((t) => t.amountIn));
    expect(a.tokens.length).toBeGreaterThanOrEqual(20);
    expect(a.pools.filter((p) => p.shape === 'constant-product')).toHaveLength(150);
    const v3 = a.pools.filter((p) => p.shape === 'concentrated');
    // 50 Uniswap V3 and 30 Uniswap V4 pools: the same shape, the optimum solver reads both alike.
    expect(v3).toHaveLength(80);
    expect(v3.filter((p) => p.family === 'uniswap-v4')).toHaveLength(30);
    expect(Math.min(...v3.map((p) => (p.shape === 'concentrated' ? p.ticks.length : 0)))).toBeGreaterThanOrEqual(4);
    expect(new Set(a.trades.map((t) => t.hops))).toEqual(new Set([1, 2, 3]));
  });

  it('summarises ratios and latencies', () => {
    expect(ratio(999n, 1000n)).toBe(0.999);
    const s = summarizeRatios([1, 0.99, 1.01, 0.98, 1]);
    expect(s).toMatchObject({ n: 5, median: 1, min: 0.98, above: 1 });
    expect(summarizeLatency([1, 2, 3, 4, 5])).toMatchObject({ n: 5, p50: 3 });
  });
});
