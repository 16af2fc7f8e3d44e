/**
 * Routes what the executor holds of one token into another over the pools as the simulator has
 * them now (earlier actions of the same order included), and appends the swaps. The routing
 * library's legs spend shares of balances that only this route holds; when the executor holds
 * more of a token (another source of the same order), the share is re-based on the real balance
 * so each leg still spends what the route planned.
 */
import { type PoolGraph, buildGraph, findRoute } from '@tokensvc/routing';
import { type Action, BPS, type SwapAction } from '@tokensvc/protocols';
import type { ExecutorSim, ActionOutcome } from './executor-sim';
import { PlanError } from './plan-error';

export interface RouteEnv {
  platformOf(pool: string): string;
  /** output-token base units one gas unit costs (0: gross output) */
  outputPerGas(token: string): number;
  symbol(token: string): string;
  maxHops: number;
}

export interface AppliedAction {
  action: Action;
  outcome: ActionOutcome;
}

function rebased(planned: bigint, held: bigint): number {
  if (held <= 0n) return BPS;
  const bps = Number((planned * BigInt(BPS) + held / 2n) / held);
  return Math.min(BPS, Math.max(1, bps));
}

/** Whether any path of at most `maxHops` pools joins the two tokens (whatever the amount). */
export function reachable(graph: PoolGraph, from: string, to: string, maxHops: number): boolean {
  const start = graph.tokenIndex.get(from);
  const goal = graph.tokenIndex.get(to);
  if (start === undefined || goal === undefined) return false;
  let frontier = new Set([start]);
  const seen = new Set([start]);
  for (let hop = 0; hop < maxHops && frontier.size > 0; hop++) {
    const next = new Set<number>();
    for (const t of frontier) {
      for (const e of graph.edges[t] ?? []) {
        if (seen.has(e.to)) continue;
        seen.add(e.to);
        next.add(e.to);
      }
    }
    if (next.has(goal)) return true;
    frontier = next;
  }
  return false;
}

export function routeInto(
  sim: ExecutorSim,
  env: RouteEnv,
  source: string,
  target: string,
  exclude: ReadonlySet<string> = new Set(),
): AppliedAction[] {
  const amount = sim.balance(source);
  if (source === target || amount === 0n) return [];
  const pools = [...sim.world().pools.values()].filter((p) => !exclude.has(p.address));
  const graph = buildGraph(pools);
  const route = findRoute(graph, {
    tokenIn: source,
    tokenOut: target,
    amountIn: amount,
    maxHops: env.maxHops,
    outputPerGas: env.outputPerGas(target),
  });
  if (!route || route.amountOut === 0n) {
    if (reachable(graph, source, target, env.maxHops))
      throw new PlanError('too-small', `${amount} base units of ${env.symbol(source)} buy no ${env.symbol(target)} in any pool`);
    throw new PlanError('no-route', `no pools connect ${env.symbol(source)} to ${env.symbol(target)} within ${env.maxHops} hops`);
  }
  const local = new Map<string, bigint>([[source, amount]]);
  const applied: AppliedAction[] = [];
  for (const leg of route.legs) {
    const mine = local.get(leg.tokenIn) ?? 0n;
    const held = sim.balance(leg.tokenIn);
    const bps = held === mine ? leg.bps : rebased((mine * BigInt(leg.bps)) / BigInt(BPS), held);
    const pool = sim.world().pools.get(leg.pool);
    // A concentrated pool's tick spacing: part of the key of a pool that is an id inside a singleton (its module's calls need it).
    const spacing = pool?.shape === 'concentrated' ? { tickSpacing: pool.tickSpacing } : {};
    const platform = env.platformOf(leg.pool);
    const { tokenIn, tokenOut } = leg;
    const action: SwapAction = {
      kind: 'swap',
      pool: leg.pool,
      family: leg.family,
      platform,
      fee: leg.fee,
      tokenIn,
      tokenOut,
      bps,
      ...spacing,
    };
    const outcome = sim.apply(action);
    for (const s of outcome.spent) local.set(s.token, (local.get(s.token) ?? 0n) - s.amount);
    for (const r of outcome.received) local.set(r.token, (local.get(r.token) ?? 0n) + r.amount);
    applied.push({ action, outcome });
  }
  return applied;
}
