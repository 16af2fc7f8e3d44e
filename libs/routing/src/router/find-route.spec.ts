import fc from 'fast-check';
import type { Pool, V2Pool, V3Pool } from '../pool';
import { swapExactIn } from '../swap';
import { getSqrtRatioAtTick } from '../v3/tick-math';
import { evaluateLegs } from './evaluate';
import { findRoute } from './find-route';
import { DEFAULT_GAS_MODEL } from './gas';
import { buildGraph } from './graph';

const E18 = 10n ** 18n;
const v2 = (address: string, token0: string, token1: string, reserve0: bigint, reserve1: bigint, fee = 3000): V2Pool => ({
  family: 'uniswap-v2',
  shape: 'constant-product',
  address,
  token0,
  token1,
  fee,
  reserve0,
  reserve1,
});

/** A 0.05 % V3 pool at ~`price` (token1 per token0) with a wide and a concentrated position. */
function v3(address: string, token0: string, token1: string, price: number, liquidity: bigint): V3Pool {
  const tick = Math.floor(Math.log(price) / Math.log(1.0001));
  const at = (t: number) => Math.floor(t / 10) * 10;
  return {
    family: 'uniswap-v3',
    shape: 'concentrated',
    address,
    token0,
    token1,
    fee: 500,
    tickSpacing: 10,
    sqrtPriceX96: getSqrtRatioAtTick(tick),
    tick,
    liquidity: liquidity * 4n,
    ticks: [
      { index: at(tick - 20_000), liquidityNet: liquidity },
      { index: at(tick - 500), liquidityNet: 3n * liquidity },
      { index: at(tick + 500), liquidityNet: -3n * liquidity },
      { index: at(tick + 20_000), liquidityNet: -liquidity },
    ],
  };
}

/**
 * The optimum over independent concave paths, solved independently of the router: equal
 * marginal outputs (water-filling), by bisection on the marginal and on each path's input.
 */
function waterfill(paths: Array<(x: number) => number>, total: number): number {
  const slope = (f: (x: number) => number, x: number) => {
    const h = Math.max(total * 1e-9, 1);
    return (f(x + h) - f(x)) / h;
  };
  const inputAt = (f: (x: number) => number, lambda: number) => {
    if (slope(f, 0) <= lambda) return 0;
    let lo = 0;
    let hi = total;
    for (let i = 0; i < 100; i++) {
      const mid = (lo + hi) / 2;
      if (slope(f, mid) > lambda) lo = mid;
      else hi = mid;
    }
    return lo;
  };
  let lo = 0;
  let hi = Math.max(...paths.map((f) => slope(f, 0)));
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    const used = paths.reduce((s, f) => s + inputAt(f, mid), 0);
    if (used > total) lo = mid;
    else hi = mid;
  }
  return paths.reduce((s, f) => s + f(inputAt(f, (lo + hi) / 2)), 0);
}

/** Float V2 output, written here independently of the library. */
const v2Out = (p: V2Pool, tokenIn: string) => (x: number) => {
  const [rIn, rOut] = tokenIn === p.token0 ? [Number(p.reserve0), Number(p.reserve1)] : [Number(p.reserve1), Number(p.reserve0)];
  const g = x * (1 - p.fee / 1e6);
  return (g * rOut) / (rIn + g);
};

const SIZES = [1e-7, 1e-4, 1e-2, 0.1, 0.5, 1, 3, 20];

describe('findRoute: route quality against an independent optimum', () => {
  it('splits over parallel V2 pools within 0.01 % of water-filling, dust to pool-draining', () => {
    const pools = [
      v2('p1', 'a', 'b', 1_000n * E18, 2_000_000n * E18),
      v2('p2', 'a', 'b', 300n * E18, 601_000n * E18, 500),
      v2('p3', 'a', 'b', 5_000n * E18, 9_990_000n * E18, 10_000),
      v2('p4', 'a', 'b', 20n * E18, 40_100n * E18, 100),
    ];
    const graph = buildGraph(pools);
    const depth = 1_000 * 1e18;
    for (const size of SIZES) {
      const amountIn = BigInt(Math.floor(depth * size));
      const route = findRoute(graph, { tokenIn: 'a', tokenOut: 'b', amountIn })!;
      const optimum = waterfill(
        pools.map((p) => v2Out(p, 'a')),
        Number(amountIn),
      );
      expect({ size, ratio: Number(route.amountOut) / optimum > 0.9999 }).toEqual({ size, ratio: true });
    }
  });

  it('uses multi-hop paths and splits across independent paths within 0.1 % of the optimum', () => {
    const direct = v2('ab', 'a', 'b', 50n * E18, 100_000n * E18);
    const viaX = [v2('ax', 'a', 'x', 800n * E18, 800n * 10n ** 6n * 3_000n), v2('xb', 'x', 'b', 2_000_000n * 10n ** 6n, 1_300_000n * E18)];
    const viaY = [v2('ay', 'a', 'y', 400n * E18, 400_000n * E18, 500), v2('yb', 'b', 'y', 900_000n * E18, 450_000n * E18, 500)];
    const graph = buildGraph([direct, ...viaX, ...viaY]);
    const paths = [
      v2Out(direct, 'a'),
      (x: number) => v2Out(viaX[1]!, 'x')(v2Out(viaX[0]!, 'a')(x)),
      (x: number) => v2Out(viaY[1]!, 'y')(v2Out(viaY[0]!, 'a')(x)),
    ];
    for (const size of SIZES) {
      const amountIn = BigInt(Math.floor(400e18 * size));
      const route = findRoute(graph, { tokenIn: 'a', tokenOut: 'b', amountIn })!;
      expect({ size, ratio: Number(route.amountOut) / waterfill(paths, Number(amountIn)) > 0.999 }).toEqual({ size, ratio: true });
      if (size >= 0.1) expect(new Set(route.legs.map((l) => l.pool))).toEqual(new Set(['ab', 'ax', 'xb', 'ay', 'yb']));
    }
  });

  it('splits between a V2 and a V3 pool as well as a fine search over the exact maths', () => {
    const a = v2('v2', 'a', 'b', 1_000n * E18, 3_000_000n * 10n ** 6n);
    const b = v3('v3', 'a', 'b', 3000e-12, 10n ** 16n);
    const graph = buildGraph([a, b]);
    for (const size of [1e-3, 0.05, 0.3, 1, 5]) {
      const amountIn = BigInt(Math.floor(1_000e18 * size));
      // Exhaustive over 1/2000 steps of the split, exact bigint swaps.
      let optimum = 0n;
      for (let k = 0; k <= 2000; k++) {
        const x = (amountIn * BigInt(k)) / 2000n;
        const out =
          (x > 0n ? swapExactIn(a, 'a', x).amountOut : 0n) + (amountIn - x > 0n ? swapExactIn(b, 'a', amountIn - x).amountOut : 0n);
        if (out > optimum) optimum = out;
      }
      const route = findRoute(graph, { tokenIn: 'a', tokenOut: 'b', amountIn })!;
      expect({ size, ratio: Number(route.amountOut) / Number(optimum) > 0.9999 }).toEqual({ size, ratio: true });
    }
  });
});

describe('findRoute: gas', () => {
  const pools = [
    v2('deep', 'a', 'b', 10_000n * E18, 10_000n * E18),
    v2('other', 'a', 'b', 9_000n * E18, 9_000n * E18),
    v2('hop1', 'a', 'x', 10_000n * E18, 10_000n * E18),
    v2('hop2', 'x', 'b', 10_000n * E18, 10_000n * E18),
  ];
  const graph = buildGraph(pools);

  it('uses one pool for a small trade when each extra swap costs more than it gains', () => {
    const route = findRoute(graph, { tokenIn: 'a', tokenOut: 'b', amountIn: E18, outputPerGas: 1e9 })!;
    expect(route.legs.map((l) => l.pool)).toEqual(['deep']);
    expect(route.netOutput).toBeCloseTo(Number(route.amountOut) - route.gas * 1e9, -6);
  });

  it('splits a large trade when the extra output pays for the gas, and not when gas is dearer', () => {
    const amountIn = 2_000n * E18;
    const cheap = findRoute(graph, { tokenIn: 'a', tokenOut: 'b', amountIn, outputPerGas: 1e9 })!;
    expect(cheap.legs.length).toBeGreaterThan(1);
    const single = swapExactIn(pools[0]!, 'a', amountIn).amountOut;
    expect(cheap.netOutput).toBeGreaterThan(Number(single) - (DEFAULT_GAS_MODEL.base + DEFAULT_GAS_MODEL.constantProduct) * 1e9);
    const dear = findRoute(graph, { tokenIn: 'a', tokenOut: 'b', amountIn, outputPerGas: 1e16 })!;
    expect(dear.legs.map((l) => l.pool)).toEqual(['deep']);
  });
});

describe('findRoute: executable routes', () => {
  it('returns nothing without a path, for the same token, or for a zero amount', () => {
    const graph = buildGraph([v2('p', 'a', 'b', E18, E18), v2('q', 'c', 'd', E18, E18)]);
    expect(findRoute(graph, { tokenIn: 'a', tokenOut: 'd', amountIn: E18 })).toBeUndefined();
    expect(findRoute(graph, { tokenIn: 'a', tokenOut: 'a', amountIn: E18 })).toBeUndefined();
    expect(findRoute(graph, { tokenIn: 'a', tokenOut: 'b', amountIn: 0n })).toBeUndefined();
    expect(findRoute(graph, { tokenIn: 'a', tokenOut: 'zz', amountIn: E18 })).toBeUndefined();
  });

  it('respects maxHops', () => {
    const chain = buildGraph([
      v2('1', 'a', 'b', E18, E18),
      v2('2', 'b', 'c', E18, E18),
      v2('3', 'c', 'd', E18, E18),
      v2('4', 'd', 'e', E18, E18),
    ]);
    expect(findRoute(chain, { tokenIn: 'a', tokenOut: 'e', amountIn: 10n ** 15n })).toBeUndefined();
    expect(findRoute(chain, { tokenIn: 'a', tokenOut: 'e', amountIn: 10n ** 15n, maxHops: 4 })?.legs).toHaveLength(4);
  });

  it('on random graphs: every pool once and one way, tokens in execution order, exact amounts, last leg takes the rest', () => {
    const tokens = ['t0', 't1', 't2', 't3', 't4', 't5'];
    const poolArb = fc.record({
      a: fc.integer({ min: 0, max: 5 }),
      b: fc.integer({ min: 0, max: 5 }),
      r0: fc.bigInt({ min: 10n ** 15n, max: 10n ** 24n }),
      r1: fc.bigInt({ min: 10n ** 15n, max: 10n ** 24n }),
      fee: fc.constantFrom(100, 500, 3000, 10000),
    });
    fc.assert(
      fc.property(fc.array(poolArb, { minLength: 3, maxLength: 16 }), fc.bigInt({ min: 1000n, max: 10n ** 24n }), (specs, amountIn) => {
        const pools: Pool[] = specs
          .filter((s) => s.a !== s.b)
          .map((s, i) => v2(`p${i}`, tokens[Math.min(s.a, s.b)]!, tokens[Math.max(s.a, s.b)]!, s.r0, s.r1, s.fee));
        const route = findRoute(buildGraph(pools), { tokenIn: 't0', tokenOut: 't5', amountIn, chunks: 12, refineChunks: 60 });
        if (!route) return;
        const seen = new Set<string>();
        const available = new Set(['t0']);
        const lastLegOf = new Map(route.legs.map((l, i) => [l.tokenIn, i]));
        route.legs.forEach((leg, i) => {
          expect(seen.has(leg.pool)).toBe(false);
          seen.add(leg.pool);
          expect(available.has(leg.tokenIn)).toBe(true);
          expect(leg.tokenIn).not.toBe('t5');
          expect(leg.tokenOut).not.toBe('t0');
          expect(leg.amountIn > 0n && leg.amountOut > 0n).toBe(true);
          if (lastLegOf.get(leg.tokenIn) === i) expect(leg.bps).toBe(10_000);
          available.add(leg.tokenOut);
        });
        // Re-running the legs as the executor would gives the same amounts.
        const poolByAddress = new Map(pools.map((p) => [p.address, p]));
        const replay = evaluateLegs(
          't0',
          't5',
          amountIn,
          route.legs.map((l) => ({ pool: poolByAddress.get(l.pool)!, tokenIn: l.tokenIn, tokenOut: l.tokenOut, bps: l.bps })),
        );
        expect(replay.amountOut).toBe(route.amountOut);
        expect(replay.residuals.size).toBe(0);
      }),
      { numRuns: 200 },
    );
  });
});
