/**
 * TickBitmap.nextInitializedTickWithinOneWord, answered from the sorted list of initialized ticks.
 * A swap step ends at the next initialized tick or at the edge of the current 256-tick bitmap word,
 * whichever is nearer; every step rounds, so matching the words is part of being exact.
 */
import type { V3Tick } from '../pool';

export interface NextTick {
  next: number;
  initialized: boolean;
}

/** index of the last tick with index <= `at`, or -1 */
export function lastAtOrBelow(ticks: readonly V3Tick[], at: number): number {
  let lo = 0;
  let hi = ticks.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (ticks[mid]!.index <= at) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}

export function nextInitializedTickWithinOneWord(ticks: readonly V3Tick[], tick: number, tickSpacing: number, lte: boolean): NextTick {
  const compressed = Math.floor(tick / tickSpacing);
  if (lte) {
    const wordStart = (compressed >> 8) << 8;
    const i = lastAtOrBelow(ticks, compressed * tickSpacing);
    const candidate = i >= 0 ? ticks[i]!.index : undefined;
    if (candidate !== undefined && candidate >= wordStart * tickSpacing) return { next: candidate, initialized: true };
    return { next: wordStart * tickSpacing, initialized: false };
  }
  const start = compressed + 1;
  const wordEnd = ((start >> 8) << 8) + 255;
  const i = lastAtOrBelow(ticks, start * tickSpacing - 1) + 1;
  const candidate = i < ticks.length ? ticks[i]!.index : undefined;
  if (candidate !== undefined && candidate <= wordEnd * tickSpacing) return { next: candidate, initialized: true };
  return { next: wordEnd * tickSpacing, initialized: false };
}

export function liquidityNetAt(ticks: readonly V3Tick[], index: number): bigint {
  const i = lastAtOrBelow(ticks, index);
  const tick = i >= 0 ? ticks[i] : undefined;
  if (!tick || tick.index !== index) throw new Error(`tick ${index} is not initialized`);
  return tick.liquidityNet;
}
