/**
 * `explain=true`: an order's swap segment as a tree, and what the alternatives would have given
 * for the same input on the same pools (the snapshot the order was planned on).
 *
 * The segment is the swaps of the plan: from the token they start from (the input, or what a
 * vault redemption or lending withdrawal yielded) to the token they end in (the output, or the
 * asset a deposit or supply takes). The executor splits a token's balance between legs and a
 * token may receive from several legs, so the legs form a graph; the tree follows each unit of
 * input: every leg's input is taken from the branches holding that token in proportion to what
 * they hold, and its output shared in proportion to what each branch gave (largest remainders,
 * so the integer amounts add up exactly). Hence the leaf outputs add up to the segment's output,
 * and a hop's output is what its next hops take in (plus any residual a pool could not take).
 */
import { buildGraph, findRoute, marginalOut, swapExactIn, type Pool } from '@tokensvc/routing';
import type { Explain, ExplainAlternative, ExplainHop } from '@tokensvc/messages';
import { BPS, type SwapAction } from '@tokensvc/protocols';
import { ExecutorSim } from './executor-sim';
import { actionGas } from './gas';
import { PlanError } from './plan-error';
import type { OrderPlan } from './plan-order';
import type { RouteEnv } from './route-into';
import type { SimWorld } from './sim-world';

interface Swap {
  action: SwapAction;
  amountIn: bigint;
  amountOut: bigint;
  gas: number;
  priceImpact: number;
}

/** A branch of the tree: an amount of a token held, and the hop it came from (undefined: the segment input). */
interface Parcel {
  amount: bigint;
  hop: ExplainHop | undefined;
}

/** Splits `total` over `weights` exactly (largest remainders). */
export function apportion(total: bigint, weights: readonly bigint[]): bigint[] {
  const sum = weights.reduce((a, b) => a + b, 0n);
  if (sum === 0n) return weights.map(() => 0n);
  const shares = weights.map((w) => (total * w) / sum);
  let left = total - shares.reduce((a, b) => a + b, 0n);
  const order = weights.map((w, i) => ({ i, rem: (total * w) % sum })).sort((a, b) => (b.rem > a.rem ? 1 : b.rem < a.rem ? -1 : a.i - b.i));
  for (const { i } of order) {
    if (left === 0n) break;
    shares[i]! += 1n;
    left -= 1n;
  }
  return shares;
}

/** Percent the execution price is below the marginal price, fee excluded. */
function priceImpact(pool: Pool, tokenIn: string, amountIn: bigint, amountOut: bigint): number {
  const ideal = marginalOut(pool, tokenIn, amountIn) * (1 - pool.fee / 1e6);
  if (ideal <= 0) return 0;
  return Math.round(Math.max(0, (1 - Number(amountOut) / ideal) * 100) * 1e6) / 1e6;
}

function hopOf(swap: Swap, platform: string, amountIn: bigint, amountOut: bigint, weightBps: number): ExplainHop {
  const a = swap.action;
  return {
    pool: a.pool,
    protocol: a.family,
    platform,
    feeTier: a.fee,
    tokenIn: a.tokenIn,
    tokenOut: a.tokenOut,
    amountIn: amountIn.toString(),
    amountOut: amountOut.toString(),
    weightBps,
    priceImpactPercentage: swap.priceImpact,
    gas: String(swap.gas),
    next: [],
  };
}

const bpsOf = (part: bigint, whole: bigint): number => (whole === 0n ? 0 : Number((part * BigInt(BPS) + whole / 2n) / whole));

/** (route - alternative) / alternative in basis points, truncated toward zero. */
export function improvementBps(route: bigint, alternative: bigint): number {
  return alternative === 0n ? 0 : Number(((route - alternative) * BigInt(BPS)) / alternative);
}

export function explainPlan(world: SimWorld, env: RouteEnv, plan: OrderPlan): Explain {
  if (plan.steps.some((s) => s.action.kind === 'v2-burn' || s.action.kind === 'v2-add')) {
    throw new PlanError('unsupported', 'explain=true is not available yet for orders into or out of LP tokens');
  }
  // Replay the plan to see each swap with the pool as it was when the swap ran.
  const sim = new ExecutorSim(world);
  sim.credit(plan.tokenIn, plan.amountIn);
  const swaps: Swap[] = [];
  let segmentIn = plan.tokenIn;
  let amountIn = plan.amountIn;
  let segmentWorld: SimWorld | undefined;
  for (const { action } of plan.steps) {
    if (action.kind === 'swap') {
      if (!segmentWorld) {
        segmentIn = action.tokenIn;
        amountIn = sim.balance(action.tokenIn);
        segmentWorld = { ...sim.world(), pools: new Map(sim.world().pools) };
      }
      const before = sim.world().pools.get(action.pool)!;
      const outcome = sim.apply(action);
      const spent = outcome.spent.find((x) => x.token === action.tokenIn)?.amount ?? 0n;
      const received = outcome.received.find((x) => x.token === action.tokenOut)?.amount ?? 0n;
      swaps.push({
        action,
        amountIn: spent,
        amountOut: received,
        gas: actionGas(action, outcome.ticksCrossed),
        priceImpact: priceImpact(before, action.tokenIn, spent, received),
      });
    } else {
      sim.apply(action);
    }
  }
  const tokenOut = swaps.at(-1)?.action.tokenOut ?? segmentIn;
  const route: ExplainHop[] = [];
  const parcels = new Map<string, Parcel[]>([[segmentIn, [{ amount: amountIn, hop: undefined }]]]);
  for (const swap of swaps) {
    const held = (parcels.get(swap.action.tokenIn) ?? []).filter((p) => p.amount > 0n);
    const takes = apportion(
      swap.amountIn,
      held.map((p) => p.amount),
    );
    const gives = apportion(swap.amountOut, takes);
    held.forEach((parcel, i) => {
      if (takes[i]! === 0n) return;
      const whole = parcel.hop ? BigInt(parcel.hop.amountOut) : amountIn;
      const hop = hopOf(swap, env.platformOf(swap.action.pool), takes[i]!, gives[i]!, bpsOf(takes[i]!, whole));
      (parcel.hop ? parcel.hop.next : route).push(hop);
      parcel.amount -= takes[i]!;
      const list = parcels.get(swap.action.tokenOut) ?? [];
      list.push({ amount: gives[i]!, hop });
      parcels.set(swap.action.tokenOut, list);
    });
  }
  const amountOut = swaps.filter((s) => s.action.tokenOut === tokenOut).reduce((sum, s) => sum + s.amountOut, 0n);
  const out: Explain = {
    tokenIn: segmentIn,
    tokenOut,
    amountIn: amountIn.toString(),
    amountOut: amountOut.toString(),
    route,
    gas: String(swaps.reduce((g, s) => g + s.gas, 0)),
  };
  if (segmentWorld && swaps.length > 0) {
    out.bestSinglePath = singlePath(segmentWorld, env, segmentIn, tokenOut, amountIn, amountOut);
    out.bestDirectPool = directPool(segmentWorld, env, segmentIn, tokenOut, amountIn, amountOut);
  }
  return out;
}

/** The routing search with the whole input in one slice: one pool per hop, no split. */
function singlePath(
  world: SimWorld,
  env: RouteEnv,
  tokenIn: string,
  tokenOut: string,
  amountIn: bigint,
  routeOut: bigint,
): ExplainAlternative | undefined {
  const found = findRoute(buildGraph([...world.pools.values()]), {
    tokenIn,
    tokenOut,
    amountIn,
    maxHops: env.maxHops,
    outputPerGas: env.outputPerGas(tokenOut),
    chunks: 1,
    refineChunks: 1,
  });
  if (!found || found.amountOut === 0n) return undefined;
  const hops = found.legs.map((l, i) => {
    const pool = world.pools.get(l.pool)!;
    const gas = actionGas(
      { kind: 'swap', pool: l.pool, family: l.family, platform: '', fee: l.fee, tokenIn: l.tokenIn, tokenOut: l.tokenOut, bps: l.bps },
      l.ticksCrossed,
    );
    // Each pool of one path is met once, before any swap of this path changed it.
    const swap: Swap = {
      action: {
        kind: 'swap',
        pool: l.pool,
        family: l.family,
        platform: '',
        fee: l.fee,
        tokenIn: l.tokenIn,
        tokenOut: l.tokenOut,
        bps: l.bps,
      },
      amountIn: l.amountIn,
      amountOut: l.amountOut,
      gas,
      priceImpact: priceImpact(pool, l.tokenIn, l.amountIn, l.amountOut),
    };
    return hopOf(swap, env.platformOf(l.pool), l.amountIn, l.amountOut, i === 0 ? bpsOf(l.amountIn, amountIn) : BPS);
  });
  return { amountOut: found.amountOut.toString(), hops, improvementBps: String(improvementBps(routeOut, found.amountOut)) };
}

/** The single pool joining the two tokens that gives the most for the whole input. */
function directPool(
  world: SimWorld,
  env: RouteEnv,
  tokenIn: string,
  tokenOut: string,
  amountIn: bigint,
  routeOut: bigint,
): ExplainAlternative | undefined {
  let best: { pool: Pool; amountIn: bigint; amountOut: bigint; ticks: number } | undefined;
  for (const pool of world.pools.values()) {
    const joins = (pool.token0 === tokenIn && pool.token1 === tokenOut) || (pool.token1 === tokenIn && pool.token0 === tokenOut);
    if (!joins) continue;
    let swap;
    try {
      swap = swapExactIn(pool, tokenIn, amountIn);
    } catch {
      continue; // a pool without liquidity for this amount
    }
    if (!best || swap.amountOut > best.amountOut)
      best = { pool, amountIn: swap.amountIn, amountOut: swap.amountOut, ticks: swap.ticksCrossed };
  }
  if (!best || best.amountOut === 0n) return undefined;
  const action: SwapAction = {
    kind: 'swap',
    pool: best.pool.address,
    family: best.pool.family,
    platform: env.platformOf(best.pool.address),
    fee: best.pool.fee,
    tokenIn,
    tokenOut,
    bps: BPS,
  };
  const swap: Swap = {
    action,
    amountIn: best.amountIn,
    amountOut: best.amountOut,
    gas: actionGas(action, best.ticks),
    priceImpact: priceImpact(best.pool, tokenIn, best.amountIn, best.amountOut),
  };
  return {
    amountOut: best.amountOut.toString(),
    hops: [hopOf(swap, action.platform, best.amountIn, best.amountOut, bpsOf(best.amountIn, amountIn))],
    improvementBps: String(improvementBps(routeOut, best.amountOut)),
  };
}
