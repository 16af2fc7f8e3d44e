/**
 * Writes ~30 days of history: one block per simulated hour (timestamps jump between blocks),
 * each holding oracle rounds, harvests, arbitrage and a random batch of user actions.
 */
import { type DevnetAction, type DevnetHistory, plannedDevnetFacets } from '@tokensvc/protocols/devnet';
import { DEVNET_PLANS, SIMULATION } from '../config';
import { queueArbitrage, readPools, tradablePools } from './arbitrage';
import { syncBalances } from './balances';
import { queueNativeTransfer, queueTransfer, queueWrap } from './trading';
import type { World } from './world';
import type { Rng } from '../math/prng';

export interface Timeline {
  /** genesis block timestamp: deployment and liquidity happen in the day before the activity */
  genesis: number;
  activityStart: number;
  end: number;
  days: number;
  blocksPerDay: number;
  steps: number;
}

export function planTimeline(now: number, days: number = SIMULATION.days, blocksPerDay: number = SIMULATION.blocksPerDay): Timeline {
  const end = Math.floor(now);
  const activityStart = end - days * 86_400;
  return { genesis: activityStart - 86_400, activityStart, end, days, blocksPerDay, steps: days * blocksPerDay };
}

/** Step k lands at a random moment inside its own interval, so timestamps strictly increase. */
export function blockTime(t: Timeline, step: number, rng: Rng): number {
  const interval = 86_400 / t.blocksPerDay;
  return Math.floor(t.activityStart + (step - 1) * interval + interval * (0.25 + 0.75 * rng.next()));
}

/**
 * The weighted table of user actions: each family's (its devnet facet's history) and the transfers
 * and wraps of any token, ordered by their slots (the table's order decides which action a draw
 * picks, so it stays the order the history has always been written in).
 */
export function actionTable(world: World, histories: readonly DevnetHistory[]): Array<[weight: number, action: DevnetAction]> {
  const own: Array<{ slot: number; weight: number; run: DevnetAction }> = [
    { slot: 2, weight: 12, run: (t, _s, step) => queueTransfer(world, t, step) },
    { slot: 3, weight: 3, run: (t, _s, step) => queueNativeTransfer(world, t, step) },
    { slot: 4, weight: 4, run: (t, _s, step) => queueWrap(world, t, step) },
  ];
  const entries = [...histories.flatMap((h) => h.actions ?? []), ...own].sort((a, b) => a.slot - b.slot);
  const slots = new Set(entries.map((e) => e.slot));
  if (slots.size !== entries.length) throw new Error('two actions of the history share a slot');
  return entries.map((e) => [e.weight, e.run]);
}

function pickWeighted<T>(rng: Rng, table: ReadonlyArray<[number, T]>): T {
  const total = table.reduce((s, [w]) => s + w, 0);
  let x = rng.next() * total;
  for (const [w, item] of table) {
    x -= w;
    if (x < 0) return item;
  }
  return table[table.length - 1]![1];
}

export async function simulateHistory(world: World, timeline: Timeline): Promise<void> {
  const { rng, ctx } = world;
  const facets = plannedDevnetFacets(DEVNET_PLANS);
  const refs = tradablePools(world, facets);
  const histories = facets.map((f) => f.history(world));
  const actions = actionTable(world, histories);
  const traders = world.actors.traders;
  const [minActions, maxActions] = SIMULATION.actionsPerBlock;
  const bots = world.actors.arbitrageurs.map((a) => a.address);
  for (let step = 1; step <= timeline.steps; step++) {
    const dayBoundary = step % timeline.blocksPerDay === 0;
    // Bots trade every block, traders less: resync bots each block and everyone once a day.
    const [states] = await Promise.all([
      readPools(world, refs),
      syncBalances(world, dayBoundary ? [...bots, ...traders.map((t) => t.address)] : bots),
    ]);
    for (const h of histories) await h.upkeep?.(step, dayBoundary);
    queueArbitrage(world, states, step);
    const n = rng.int(minActions, maxActions);
    for (let i = 0; i < n; i++) {
      // A few accounts do most of the trading, as on real chains.
      const trader = traders[Math.floor(traders.length * rng.next() ** 2)]!.address;
      pickWeighted(rng, actions)(trader, states, step);
    }
    await ctx.writer.mine(blockTime(timeline, step, rng));
    const day = step / timeline.blocksPerDay;
    if (dayBoundary && (day === 1 || day % 5 === 0))
      ctx.log(`seeding history day ${day}/${timeline.days} (${ctx.writer.transactionCount} txs so far)`);
  }
}
