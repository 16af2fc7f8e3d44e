/**
 * Exact evaluation of a route the way the executor runs it: tokens in topological order, and at
 * each token every leg spends `bps` of the balance held at that moment (the last leg 10,000, i.e.
 * the rest). Amounts are bigint and swaps use the exact pool maths, so on an unchanged chain the
 * executed output equals `amountOut` to the unit.
 */
import type { Pool } from '../pool';
import { swapExactIn } from '../swap';
import type { PoolGraph } from './graph';
import type { PoolFlow } from './greedy';

export const BPS = 10_000;

export interface PlannedLeg {
  pool: Pool;
  tokenIn: string;
  tokenOut: string;
  /** share of the balance of tokenIn when the leg runs, 1..10000 */
  bps: number;
}

export interface RouteLeg {
  pool: string;
  family: Pool['family'];
  shape: Pool['shape'];
  fee: number;
  tokenIn: string;
  tokenOut: string;
  bps: number;
  amountIn: bigint;
  amountOut: bigint;
  ticksCrossed: number;
}

export interface Evaluation {
  amountOut: bigint;
  legs: RouteLeg[];
  /** tokens other than the output left over (e.g. input a V3 pool could not take) */
  residuals: Map<string, bigint>;
  /** every leg had a positive input and output (a zero-amount swap reverts on chain) */
  executable: boolean;
}

export function evaluateLegs(tokenIn: string, tokenOut: string, amountIn: bigint, legs: readonly PlannedLeg[]): Evaluation {
  const balances = new Map<string, bigint>([[tokenIn, amountIn]]);
  const states = new Map<string, Pool>();
  const out: RouteLeg[] = [];
  let executable = true;
  for (const leg of legs) {
    const balance = balances.get(leg.tokenIn) ?? 0n;
    const amount = (balance * BigInt(leg.bps)) / BigInt(BPS);
    const pool = states.get(leg.pool.address) ?? leg.pool;
    const swap = amount > 0n ? swapExactIn(pool, leg.tokenIn, amount) : undefined;
    if (!swap || swap.amountOut === 0n) executable = false;
    const consumed = swap?.amountIn ?? 0n;
    const received = swap?.amountOut ?? 0n;
    if (swap) states.set(leg.pool.address, swap.after);
    balances.set(leg.tokenIn, balance - consumed);
    balances.set(leg.tokenOut, (balances.get(leg.tokenOut) ?? 0n) + received);
    out.push({
      pool: leg.pool.address,
      family: leg.pool.family,
      shape: leg.pool.shape,
      fee: leg.pool.fee,
      tokenIn: leg.tokenIn,
      tokenOut: leg.tokenOut,
      bps: leg.bps,
      amountIn: consumed,
      amountOut: received,
      ticksCrossed: swap?.ticksCrossed ?? 0,
    });
  }
  const residuals = new Map([...balances].filter(([token, amount]) => token !== tokenOut && amount > 0n));
  return { amountOut: balances.get(tokenOut) ?? 0n, legs: out, residuals, executable };
}

/** Flows below this share of their token's outflow are folded into the others. */
const MIN_SHARE = 1e-4;

/** Orders the search's pool flows for execution and turns amounts into balance shares. */
export function planLegs(graph: PoolGraph, flows: readonly PoolFlow[]): PlannedLeg[] {
  const byToken = new Map<number, PoolFlow[]>();
  for (const f of flows) byToken.set(f.from, [...(byToken.get(f.from) ?? []), f]);
  const legs: PlannedLeg[] = [];
  for (const token of topologicalOrder(flows)) {
    const outgoing = byToken.get(token);
    if (!outgoing) continue;
    const total = outgoing.reduce((s, f) => s + f.amountIn, 0);
    const kept = outgoing.filter((f) => f.amountIn >= total * MIN_SHARE).sort((a, b) => b.amountIn - a.amountIn);
    let remaining = kept.reduce((s, f) => s + f.amountIn, 0);
    kept.forEach((f, i) => {
      const last = i === kept.length - 1;
      const bps = last ? BPS : Math.min(BPS, Math.max(1, Math.round((f.amountIn / remaining) * BPS)));
      remaining -= f.amountIn;
      legs.push({ pool: graph.pools[f.pool]!, tokenIn: graph.tokens[f.from]!, tokenOut: graph.tokens[f.to]!, bps });
    });
  }
  return legs;
}

/** Kahn's algorithm over the token flow graph (acyclic by construction of the search). */
function topologicalOrder(flows: readonly PoolFlow[]): number[] {
  const indegree = new Map<number, number>();
  for (const f of flows) {
    indegree.set(f.from, indegree.get(f.from) ?? 0);
    indegree.set(f.to, (indegree.get(f.to) ?? 0) + 1);
  }
  const ready = [...indegree].filter(([, d]) => d === 0).map(([t]) => t);
  const order: number[] = [];
  while (ready.length > 0) {
    const token = ready.shift()!;
    order.push(token);
    for (const f of flows) {
      if (f.from !== token) continue;
      const d = indegree.get(f.to)! - 1;
      indegree.set(f.to, d);
      if (d === 0) ready.push(f.to);
    }
  }
  if (order.length !== indegree.size) throw new Error('route flows contain a cycle');
  return order;
}
