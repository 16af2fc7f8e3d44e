/**
 * The independent optimum: split the input over every simple path of up to 3 pools so as to
 * maximise the output. Paths share pools, so the objective simulates the paths one after the other
 * on one pool state (float maths of float-pools.ts). Greedy increments give a start; then pairwise
 * Frank-Wolfe steps move input from the active path with the lowest marginal output to the path
 * with the highest, with an exact line search, until the marginals are equal. The allocation is
 * finally evaluated with the exact bigint pool maths (`swapExactIn`), so the figure is an
 * achievable output; `upperBound` adds the Frank-Wolfe gap (an estimate of how far from the top).
 */
import { type Pool, swapExactIn } from '@tokensvc/routing';
import { type FloatPool, floatMarginal, floatSwap, toFloatPools } from './float-pools';
import { type Path, simplePaths } from './paths';

export interface OptimumOptions {
  maxHops?: number;
  /** greedy start increments */
  increments?: number;
  /** pairwise steps at most */
  iterations?: number;
  /** stop when (best - worst active marginal) / best is below this */
  tolerance?: number;
}

export interface Optimum {
  /** exact output of the solver's allocation */
  amountOut: bigint;
  /** float objective plus the Frank-Wolfe gap */
  upperBound: number;
  paths: number;
  activePaths: number;
  iterations: number;
  /** exact output of the best single path */
  bestSingle: bigint;
}

class Problem {
  readonly state: Float64Array;
  constructor(
    readonly fp: FloatPool[],
    readonly initial: Float64Array,
    readonly paths: Path[],
  ) {
    this.state = new Float64Array(initial.length);
  }

  runPath(p: number, amount: number): number {
    let x = amount;
    for (const h of this.paths[p]!) x = floatSwap(this.fp[h.pool]!, this.state, h.pool, h.zeroForOne, x);
    return x;
  }

  marginal(p: number): number {
    let m = 1;
    for (const h of this.paths[p]!) m *= floatMarginal(this.fp[h.pool]!, this.state, h.pool, h.zeroForOne);
    return m;
  }

  /**
   * Paths that use no pool against the direction an active path uses it. Opposite flows through
   * one pool only pay two fees (netting them is better), and they make the sequential objective
   * depend on the path order; the router has the same rule (each pool one way).
   */
  eligible(x: Float64Array): boolean[] {
    const dir = new Map<number, boolean>();
    x.forEach((v, p) => {
      if (v > 0) for (const h of this.paths[p]!) dir.set(h.pool, h.zeroForOne);
    });
    return this.paths.map((path) => path.every((h) => (dir.get(h.pool) ?? h.zeroForOne) === h.zeroForOne));
  }

  /** total output of an allocation, paths in index order; leaves the final state in `state` */
  value(x: Float64Array): number {
    this.state.set(this.initial);
    let out = 0;
    for (let p = 0; p < x.length; p++) if (x[p]! > 0) out += this.runPath(p, x[p]!);
    return out;
  }
}

/** max of a concave function on [0, hi] by golden-section search */
function goldenMax(f: (d: number) => number, hi: number, steps = 40): number {
  const g = (Math.sqrt(5) - 1) / 2;
  let a = 0;
  let b = hi;
  let c = b - g * (b - a);
  let d = a + g * (b - a);
  let fc = f(c);
  let fd = f(d);
  for (let i = 0; i < steps; i++) {
    if (fc >= fd) {
      b = d;
      d = c;
      fd = fc;
      c = b - g * (b - a);
      fc = f(c);
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + g * (b - a);
      fd = f(d);
    }
  }
  return (a + b) / 2;
}

function greedyStart(pr: Problem, total: number, increments: number): Float64Array {
  const x = new Float64Array(pr.paths.length);
  pr.state.set(pr.initial);
  for (let i = 0; i < increments; i++) {
    let best = 0;
    let bestM = -1;
    const ok = pr.eligible(x);
    for (let p = 0; p < pr.paths.length; p++) {
      if (!ok[p]) continue;
      const m = pr.marginal(p);
      if (m > bestM) [best, bestM] = [p, m];
    }
    x[best] = x[best]! + total / increments;
    pr.runPath(best, total / increments);
  }
  return x;
}

/** Pairwise Frank-Wolfe over the path simplex; returns the allocation and the last gap. */
function refine(
  pr: Problem,
  x: Float64Array,
  total: number,
  opts: Required<OptimumOptions>,
): { iterations: number; gap: number; value: number } {
  let value = pr.value(x);
  let gap = Infinity;
  let it = 0;
  for (; it < opts.iterations; it++) {
    const ok = pr.eligible(x);
    const m = Array.from(pr.paths, (_, p) => (ok[p] ? pr.marginal(p) : 0));
    const byMarginal = m.map((_, p) => p).sort((a, b) => m[b]! - m[a]!);
    const active = byMarginal.filter((p) => x[p]! > 0).reverse();
    const top = m[byMarginal[0]!]!;
    gap = top * total - m.reduce((s, mp, p) => s + mp * x[p]!, 0);
    if (active.length === 0 || (top - m[active[0]!]!) / top < opts.tolerance) break;
    // the steepest pair first; when its line search gains nothing, the next few pairs
    const pairs = byMarginal.slice(0, 3).flatMap((b) =>
      active
        .slice(0, 3)
        .filter((w) => w !== b)
        .map((w) => [b, w] as const),
    );
    const improved = pairs.some(([b, w]) => {
      const move = (d: number) => {
        const y = Float64Array.from(x);
        y[w] = y[w]! - d;
        y[b] = y[b]! + d;
        return y;
      };
      const step = goldenMax((d) => pr.value(move(d)), x[w]!);
      // the full move (dropping path w) is not reached by golden-section on a closed interval
      const candidates = [move(step), move(x[w]!)];
      const vals = candidates.map((y) => pr.value(y));
      const k = vals[1]! > vals[0]! ? 1 : 0;
      if (vals[k]! <= value) return false;
      x.set(candidates[k]!);
      return true;
    });
    if (!improved) break;
    value = pr.value(x);
  }
  pr.value(x);
  return { iterations: it, gap: Math.max(0, gap), value };
}

/** Exact output of running paths one after the other with the given bigint inputs. */
export function exactValue(pools: readonly Pool[], paths: readonly Path[], amounts: readonly bigint[]): bigint {
  const states = new Map<number, Pool>();
  let out = 0n;
  paths.forEach((path, p) => {
    let x = amounts[p]!;
    for (const h of path) {
      if (x <= 0n) break;
      const pool = states.get(h.pool) ?? pools[h.pool]!;
      let swap;
      try {
        swap = swapExactIn(pool, h.zeroForOne ? pool.token0 : pool.token1, x);
      } catch (e) {
        // A concentrated pool an earlier path drained to its price limit gives nothing more this way.
        if (!(e instanceof RangeError)) throw e;
        x = 0n;
        break;
      }
      states.set(h.pool, swap.after);
      x = swap.amountOut;
    }
    out += x > 0n ? x : 0n;
  });
  return out;
}

/** Float shares to bigint inputs that sum to exactly `amountIn` (the rest goes to the largest). */
export function toAmounts(x: Float64Array, amountIn: bigint): bigint[] {
  const total = x.reduce((s, v) => s + v, 0);
  const amounts = Array.from(x, (v) => (total > 0 ? BigInt(Math.floor((v / total) * Number(amountIn))) : 0n));
  const sum = amounts.reduce((s, v) => s + v, 0n);
  const largest = x.indexOf(Math.max(...x));
  if (amounts.length > 0) amounts[largest] = amounts[largest]! + amountIn - sum;
  return amounts.map((a) => (a < 0n ? 0n : a));
}

export function solveOptimum(
  pools: readonly Pool[],
  tokenIn: string,
  tokenOut: string,
  amountIn: bigint,
  options: OptimumOptions = {},
): Optimum | undefined {
  const opts: Required<OptimumOptions> = { maxHops: 3, increments: 64, iterations: 400, tolerance: 1e-9, ...options };
  const paths = simplePaths(pools, tokenIn, tokenOut, opts.maxHops);
  if (paths.length === 0) return undefined;
  const { pools: fp, initial } = toFloatPools(pools);
  const pr = new Problem(fp, initial, paths);
  const total = Number(amountIn);
  const x = greedyStart(pr, total, opts.increments);
  const { iterations, gap, value } = refine(pr, x, total, opts);
  const active = x.reduce((n, v) => n + (v > 0 ? 1 : 0), 0);
  const amountOut = exactValue(pools, paths, toAmounts(x, amountIn));
  return {
    amountOut,
    upperBound: value + gap,
    paths: paths.length,
    activePaths: active,
    iterations,
    bestSingle: bestSinglePath(pr, pools, amountIn),
  };
}

/** Ranks every path alone in floats, then takes the exact best of the top five. */
function bestSinglePath(pr: Problem, pools: readonly Pool[], amountIn: bigint): bigint {
  const total = Number(amountIn);
  const scored = pr.paths.map((_, p) => {
    pr.state.set(pr.initial);
    return { p, out: pr.runPath(p, total) };
  });
  scored.sort((a, b) => b.out - a.out);
  let best = 0n;
  for (const { p } of scored.slice(0, 5)) {
    const out = exactValue(pools, [pr.paths[p]!], [amountIn]);
    if (out > best) best = out;
  }
  return best;
}
