/**
 * Floating-point pool simulators for the route search. The search evaluates thousands of
 * candidate hops per quote, so it works in doubles (relative error ~1e-15); the chosen route is
 * then evaluated exactly in bigint (evaluate.ts).
 */
import type { Pool, V2Pool, V3Pool } from '../pool';
import { getSqrtRatioAtTick, MAX_SQRT_RATIO, MIN_SQRT_RATIO } from '../v3/tick-math';
import { lastAtOrBelow } from '../v3/tick-bitmap';

export interface SimPool {
  /** output for `amountIn` without changing the state */
  quote(zeroForOne: boolean, amountIn: number): number;
  /** swaps: changes the state; returns the output and the input the pool took (less when it runs dry) */
  apply(zeroForOne: boolean, amountIn: number): { out: number; consumed: number };
  clone(): SimPool;
}

const Q96 = 2 ** 96;

/**
 * A V2 pool used by several chunks is executed as one swap of their total, and V2 fees stay in
 * the reserves, so chunk outputs are differences of the one-swap output from the original
 * reserves (not sequential swaps, which would overstate high-fee pools on large trades).
 */
class V2Sim implements SimPool {
  constructor(
    private readonly r0: number,
    private readonly r1: number,
    private readonly gamma: number,
    /** total input so far and its direction */
    private routed = 0,
    private zeroForOne = true,
  ) {}

  private total(zeroForOne: boolean, amountIn: number): number {
    const [rIn, rOut] = zeroForOne ? [this.r0, this.r1] : [this.r1, this.r0];
    const x = amountIn * this.gamma;
    return (x * rOut) / (rIn + x);
  }

  quote(zeroForOne: boolean, amountIn: number): number {
    if (this.routed === 0) return this.total(zeroForOne, amountIn);
    if (zeroForOne !== this.zeroForOne) return 0;
    return this.total(zeroForOne, this.routed + amountIn) - this.total(zeroForOne, this.routed);
  }

  apply(zeroForOne: boolean, amountIn: number): { out: number; consumed: number } {
    const out = this.quote(zeroForOne, amountIn);
    this.routed += amountIn;
    this.zeroForOne = zeroForOne;
    return { out, consumed: amountIn };
  }

  clone(): SimPool {
    return new V2Sim(this.r0, this.r1, this.gamma, this.routed, this.zeroForOne);
  }
}

/** Static per-pool tick data shared by all clones. */
interface V3Ticks {
  sqrt: Float64Array;
  net: Float64Array;
}

const MIN_SQRT = Number(MIN_SQRT_RATIO) / Q96;
const MAX_SQRT = Number(MAX_SQRT_RATIO) / Q96;

class V3Sim implements SimPool {
  constructor(
    private readonly t: V3Ticks,
    private readonly gamma: number,
    private sqrtP: number,
    private liquidity: number,
    /** index of the last initialized tick at or below the current tick (-1: none) */
    private below: number,
  ) {}

  quote(zeroForOne: boolean, amountIn: number): number {
    return this.run(zeroForOne, amountIn, false).out;
  }

  apply(zeroForOne: boolean, amountIn: number): { out: number; consumed: number } {
    return this.run(zeroForOne, amountIn, true);
  }

  clone(): SimPool {
    return new V3Sim(this.t, this.gamma, this.sqrtP, this.liquidity, this.below);
  }

  /** Constant-liquidity ranges between initialized ticks: x = L/√P, y = L·√P within a range. */
  private run(zeroForOne: boolean, amountIn: number, commit: boolean): { out: number; consumed: number } {
    const { sqrt, net } = this.t;
    let rem = amountIn * this.gamma;
    let sp = this.sqrtP;
    let L = this.liquidity;
    let i = this.below;
    let out = 0;
    for (;;) {
      if (zeroForOne) {
        const bound = i >= 0 ? sqrt[i]! : MIN_SQRT;
        const need = L > 0 ? L * (1 / bound - 1 / sp) : 0;
        if (L > 0 && rem <= need) {
          const next = 1 / (1 / sp + rem / L);
          out += L * (sp - next);
          sp = next;
          rem = 0;
          break;
        }
        out += L * (sp - bound);
        rem -= need;
        sp = bound;
        if (i < 0) break;
        L = Math.max(0, L - net[i]!);
        i--;
      } else {
        const bound = i + 1 < sqrt.length ? sqrt[i + 1]! : MAX_SQRT;
        const need = L > 0 ? L * (bound - sp) : 0;
        if (L > 0 && rem <= need) {
          const next = sp + rem / L;
          out += L * (1 / sp - 1 / next);
          sp = next;
          rem = 0;
          break;
        }
        out += L * (1 / sp - 1 / bound);
        rem -= need;
        sp = bound;
        if (i + 1 >= sqrt.length) break;
        L = Math.max(0, L + net[i + 1]!);
        i++;
      }
    }
    if (commit) {
      this.sqrtP = sp;
      this.liquidity = L;
      this.below = i;
    }
    return { out, consumed: amountIn - rem / this.gamma };
  }
}

const tickCache = new WeakMap<readonly unknown[], V3Ticks>();

function v3Ticks(pool: V3Pool): V3Ticks {
  let t = tickCache.get(pool.ticks);
  if (!t) {
    t = {
      sqrt: Float64Array.from(pool.ticks, (k) => Number(getSqrtRatioAtTick(k.index)) / Q96),
      net: Float64Array.from(pool.ticks, (k) => Number(k.liquidityNet)),
    };
    tickCache.set(pool.ticks, t);
  }
  return t;
}

function v2Sim(pool: V2Pool): SimPool {
  return new V2Sim(Number(pool.reserve0), Number(pool.reserve1), 1 - pool.fee / 1e6);
}

function v3Sim(pool: V3Pool): SimPool {
  return new V3Sim(
    v3Ticks(pool),
    1 - pool.fee / 1e6,
    Number(pool.sqrtPriceX96) / Q96,
    Number(pool.liquidity),
    lastAtOrBelow(pool.ticks, pool.tick),
  );
}

export function simulator(pool: Pool): SimPool {
  switch (pool.shape) {
    case 'constant-product':
      return v2Sim(pool);
    case 'concentrated':
      return v3Sim(pool);
  }
}
