/**
 * Float pool maths for the independent optimum solver, written here from the AMM formulas (not
 * the router's code): V2 constant product, V3 across initialized ticks. State lives in a flat
 * Float64Array (3 slots per pool) so the solver can reset it cheaply.
 * V2 slots: reserve0, reserve1. V3 slots: sqrtPrice (sqrt of token1 per token0), liquidity,
 * index of the last initialized tick at or below the current tick.
 */
import type { Pool } from '@tokensvc/routing';

export const SLOTS = 3;

export interface FloatPool {
  v3: boolean;
  gamma: number;
  /** V3: initialized ticks' sqrt prices and net liquidity, ascending */
  tickSqrt: Float64Array;
  tickNet: Float64Array;
}

export function toFloatPools(pools: readonly Pool[]): { pools: FloatPool[]; initial: Float64Array } {
  const initial = new Float64Array(pools.length * SLOTS);
  const out = pools.map((p, i): FloatPool => {
    const gamma = 1 - p.fee / 1e6;
    if (p.shape === 'constant-product') {
      initial[i * SLOTS] = Number(p.reserve0);
      initial[i * SLOTS + 1] = Number(p.reserve1);
      return { v3: false, gamma, tickSqrt: new Float64Array(0), tickNet: new Float64Array(0) };
    }
    initial[i * SLOTS] = Number(p.sqrtPriceX96) / 2 ** 96;
    initial[i * SLOTS + 1] = Number(p.liquidity);
    initial[i * SLOTS + 2] = p.ticks.filter((t) => t.index <= p.tick).length - 1;
    return {
      v3: true,
      gamma,
      tickSqrt: Float64Array.from(p.ticks, (t) => Math.pow(1.0001, t.index / 2)),
      tickNet: Float64Array.from(p.ticks, (t) => Number(t.liquidityNet)),
    };
  });
  return { pools: out, initial };
}

/** Swaps `amount` in and updates `state`; returns the output (input a V3 pool cannot take is lost). */
export function floatSwap(pool: FloatPool, state: Float64Array, i: number, zeroForOne: boolean, amount: number): number {
  const o = i * SLOTS;
  if (!pool.v3) {
    const [inSlot, outSlot] = zeroForOne ? [o, o + 1] : [o + 1, o];
    const x = amount * pool.gamma;
    const out = (x * state[outSlot]!) / (state[inSlot]! + x);
    state[inSlot] = state[inSlot]! + amount;
    state[outSlot] = state[outSlot]! - out;
    return out;
  }
  let rem = amount * pool.gamma;
  let sp = state[o]!;
  let l = state[o + 1]!;
  let k = state[o + 2]!;
  let out = 0;
  const n = pool.tickSqrt.length;
  while (rem > 0) {
    if (zeroForOne) {
      if (k < 0) break;
      const lo = pool.tickSqrt[k]!;
      const need = l > 0 ? l * (1 / lo - 1 / sp) : 0;
      if (l > 0 && rem < need) {
        const next = 1 / (1 / sp + rem / l);
        out += l * (sp - next);
        sp = next;
        rem = 0;
        break;
      }
      out += l * (sp - lo);
      rem -= need;
      sp = lo;
      l -= pool.tickNet[k]!;
      k--;
    } else {
      if (k + 1 >= n) break;
      const hi = pool.tickSqrt[k + 1]!;
      const need = l * (hi - sp);
      if (l > 0 && rem < need) {
        const next = sp + rem / l;
        out += l * (1 / sp - 1 / next);
        sp = next;
        rem = 0;
        break;
      }
      out += l * (1 / sp - 1 / hi);
      rem -= need;
      sp = hi;
      l += pool.tickNet[k + 1]!;
      k++;
    }
  }
  state[o] = sp;
  state[o + 1] = Math.max(0, l);
  state[o + 2] = k;
  return out;
}

/** d(out)/d(in) at the current state; a V3 pool in a liquidity gap quotes the next range's edge. */
export function floatMarginal(pool: FloatPool, state: Float64Array, i: number, zeroForOne: boolean): number {
  const o = i * SLOTS;
  if (!pool.v3) return zeroForOne ? (pool.gamma * state[o + 1]!) / state[o]! : (pool.gamma * state[o]!) / state[o + 1]!;
  const l = state[o + 1]!;
  const k = state[o + 2]!;
  // past the last initialized tick the liquidity is 0 (float rounding may leave a residue)
  if (zeroForOne ? k < 0 : k + 1 >= pool.tickSqrt.length) return 0;
  let sp = state[o]!;
  if (l <= 0) {
    const edge = zeroForOne ? k : k + 1;
    if (edge < 0 || edge >= pool.tickSqrt.length) return 0;
    sp = pool.tickSqrt[edge]!;
  }
  return zeroForOne ? pool.gamma * sp * sp : pool.gamma / (sp * sp);
}
