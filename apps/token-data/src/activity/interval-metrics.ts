import type { IntervalVolumeMetrics } from '@tokensvc/messages';
import { metricString } from '../read-model/token-row';

/** The eight windows of GET /v3/tokens/metrics, in seconds. */
export const METRIC_WINDOWS: ReadonlyArray<readonly [string, number]> = [
  ['15m', 900],
  ['30m', 1800],
  ['1h', 3600],
  ['2h', 7200],
  ['4h', 14400],
  ['8h', 28800],
  ['1d', 86400],
  ['2d', 172800],
];

export interface FlowEvent {
  type: string;
  /** swaps: 0 = token0 -> token1 (selling token0), 1 = token1 -> token0 (buying token0) */
  direction: number;
  timeMs: number;
  volumeUsd: number;
  /** events this one stands for (an aggregated bucket: `flowEdges` intervals); 1 when absent */
  count?: number;
}

/**
 * The interval edges of the windows ending at `nowMs`, ascending: every window and the one before
 * it start on an edge, so per-interval sums add up to each window exactly.
 */
export function flowEdges(nowMs: number): number[] {
  const offsets = new Set<number>();
  for (const [, seconds] of METRIC_WINDOWS) offsets.add(seconds * 1000).add(2 * seconds * 1000);
  return [...offsets].sort((a, b) => b - a).map((o) => nowMs - o);
}

interface Totals {
  deposit: number;
  withdraw: number;
  swap: number;
  swapBuy: number;
  swaps: number;
  buys: number;
  sells: number;
  deposits: number;
  withdraws: number;
}

function totals(events: readonly FlowEvent[], from: number, to: number): Totals {
  const t: Totals = { deposit: 0, withdraw: 0, swap: 0, swapBuy: 0, swaps: 0, buys: 0, sells: 0, deposits: 0, withdraws: 0 };
  for (const e of events) {
    if (e.timeMs < from || e.timeMs >= to) continue;
    const n = e.count ?? 1;
    if (e.type === 'deposit') {
      t.deposit += e.volumeUsd;
      t.deposits += n;
    } else if (e.type === 'withdraw') {
      t.withdraw += e.volumeUsd;
      t.withdraws += n;
    } else if (e.type === 'swap') {
      t.swap += e.volumeUsd;
      t.swaps += n;
      if (e.direction === 1) {
        t.swapBuy += e.volumeUsd;
        t.buys += n;
      } else t.sells += n;
    }
  }
  return t;
}

/** Percentage change versus the prior window; 0 when the prior window had nothing. */
export function change(current: number, prior: number): number {
  if (prior === 0) return 0;
  return Number((((current - prior) / prior) * 100).toFixed(6));
}

/**
 * Deposits, withdrawals and swaps aggregated over each window ending at `nowMs`, each compared with
 * the window of the same length just before it. Borrows and repays are not flows of the token's
 * volume and are left out (they are in dailyDebtFlow).
 */
export function intervalMetrics(events: readonly FlowEvent[], nowMs: number): Record<string, IntervalVolumeMetrics> {
  const out: Record<string, IntervalVolumeMetrics> = {};
  for (const [name, seconds] of METRIC_WINDOWS) {
    const span = seconds * 1000;
    const cur = totals(events, nowMs - span, nowMs + 1);
    const prior = totals(events, nowMs - 2 * span, nowMs - span);
    const gross = cur.deposit + cur.withdraw + cur.swap;
    const priorGross = prior.deposit + prior.withdraw + prior.swap;
    out[name] = {
      netVolumeUsd: metricString(cur.deposit - cur.withdraw),
      grossVolumeUsd: metricString(gross),
      depositVolumeUsd: metricString(cur.deposit),
      withdrawVolumeUsd: metricString(cur.withdraw),
      swapVolumeUsd: metricString(cur.swap),
      swapBuyVolumeUsd: metricString(cur.swapBuy),
      grossVolumeUsdChange: change(gross, priorGross),
      swapVolumeUsdChange: change(cur.swap, prior.swap),
      eventCount: cur.deposits + cur.withdraws + cur.swaps,
      swapCount: cur.swaps,
      swapBuyCount: cur.buys,
      swapSellCount: cur.sells,
      depositCount: cur.deposits,
      withdrawCount: cur.withdraws,
    };
  }
  return out;
}
