/**
 * Writes ~30 days of history: one block per simulated hour (timestamps jump between blocks),
 * each holding oracle rounds, harvests, arbitrage and a random batch of user actions.
 */
import { SIMULATION } from '../config';
import { OracleKeeper, queueHarvests } from './admin';
import { queueArbitrage, readPools, tradablePools } from './arbitrage';
import { syncBalances } from './balances';
import { queueNativeTransfer, queueTransfer, queueV2Swap, queueV3Swap, queueWrap } from './trading';
import { YieldBook, queueLendingAction, queueVaultAction } from './yield';
import type { World } from './world';
import type { PoolState } from './arbitrage';
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

type Action = (world: World, trader: string, states: readonly PoolState[], step: number) => boolean;

export function actionTable(book: YieldBook): Array<[weight: number, action: Action]> {
  return [
    [30, (w, t, s, step) => queueV2Swap(w, t, s, step)],
    [30, (w, t, s, step) => queueV3Swap(w, t, s, step)],
    [12, (w, t, _s, step) => queueTransfer(w, t, step)],
    [3, (w, t, _s, step) => queueNativeTransfer(w, t, step)],
    [4, (w, t, _s, step) => queueWrap(w, t, step)],
    [8, (w, t, _s, step) => queueVaultAction(w, book, t, step)],
    [13, (w, t, _s, step) => queueLendingAction(w, book, t, step)],
  ];
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
  const refs = tradablePools(world);
  const keeper = new OracleKeeper(world);
  const actions = actionTable(new YieldBook());
  const traders = world.actors.traders;
  const [minActions, maxActions] = SIMULATION.actionsPerBlock;
  const bots = world.actors.arbitrageurs.map((a) => a.address);
  for (let step = 1; step <= timeline.steps; step++) {
    const dayBoundary = step % timeline.blocksPerDay === 0;
    // Bots trade every block, traders less: resync bots each block and everyone once a day.
    const [states] = await Promise.all([readPools(world, refs), syncBalances(world, dayBoundary ? [...bots, ...traders.map((t) => t.address)] : bots)]);
    keeper.queueUpdates(step, dayBoundary);
    if (dayBoundary) await queueHarvests(world);
    queueArbitrage(world, states, step);
    const n = rng.int(minActions, maxActions);
    for (let i = 0; i < n; i++) {
      // A few accounts do most of the trading, as on real chains.
      const trader = traders[Math.floor(traders.length * rng.next() ** 2)]!.address;
      pickWeighted(rng, actions)(world, trader, states, step);
    }
    await ctx.writer.mine(blockTime(timeline, step, rng));
    const day = step / timeline.blocksPerDay;
    if (dayBoundary && (day === 1 || day % 5 === 0)) ctx.log(`seeding history day ${day}/${timeline.days} (${ctx.writer.transactionCount} txs so far)`);
  }
}
