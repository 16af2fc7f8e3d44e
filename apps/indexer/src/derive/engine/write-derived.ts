/** Writes what a batch (or a head refresh) derived, and rebuilds candles after a rollback. */
import { DAY_SECONDS, foldCandles, withVolumes, type Candle } from '../math/candles';
import { TimedAmounts } from '../math/windows';
import { loadActivityVolumesSince, writeActivities } from '../repo/activities.repo';
import { upsertCandles, type CandleKey } from '../repo/candles.repo';
import { loadPointsSince, writePoints } from '../repo/points.repo';
import type { SqlTx } from '../repo/sql';
import { loadSwapVolumesSince, writeSwapVolumes } from '../repo/swap-volumes.repo';
import { writeTokenStates } from '../repo/token-state.repo';
import type { BatchOutput } from './derive-batch';
import type { TokenState } from './model';

type VolumesOf = (tokenKey: string) => TimedAmounts | undefined;

/** The last state per token among `points`. */
export function latestPerToken(points: readonly TokenState[]): TokenState[] {
  const last = new Map<string, TokenState>();
  for (const p of points) {
    const prev = last.get(p.tokenKey);
    if (!prev || prev.blockNumber <= p.blockNumber) last.set(p.tokenKey, p);
  }
  return [...last.values()];
}

/**
 * The candles of every bucket the points touch (every activity comes with a point of its token in
 * the same block), with volumes as of the end of the batch (taken right after deriving it).
 */
export function batchCandles(out: BatchOutput, volumesOf: VolumesOf): Candle[] {
  return withVolumes(foldCandles(out.points), volumesOf);
}

/** Points, activities (`activities`: their COPY payload when built already), swap volumes, candles and each token's latest state. */
export async function writeDerived(tx: SqlTx, out: BatchOutput, candles: readonly Candle[], activities?: readonly Buffer[]): Promise<void> {
  // The statements queued at once (Postgres runs them in order).
  await Promise.all([
    writePoints(tx, out.points),
    writeActivities(tx, out.activities, activities),
    writeSwapVolumes(tx, out.swapVolumes),
    upsertCandles(tx, candles),
    writeTokenStates(tx, latestPerToken(out.points)),
  ]);
}

const keyOf = (c: CandleKey): string => `${c.tokenKey}|${c.resolution}|${c.bucket}`;

/** Recomputes the given (deleted) candles from the remaining points and activities. */
export async function rebuildCandles(tx: SqlTx, keys: readonly CandleKey[]): Promise<void> {
  if (keys.length === 0) return;
  const wanted = new Set(keys.map(keyOf));
  const tokens = [...new Set(keys.map((k) => k.tokenKey))];
  const from = keys.reduce((m, k) => Math.min(m, k.bucket), Infinity);
  // A token's volume is its activities' or (basic and native tokens) its swaps': one source each,
  // merged in time order all the same, as TimedAmounts needs.
  const amounts = [
    ...(await loadActivityVolumesSince(tx, tokens, from - DAY_SECONDS)),
    ...(await loadSwapVolumesSince(tx, tokens, from - DAY_SECONDS)),
  ];
  const volumes = new Map<string, TimedAmounts>();
  for (const a of amounts.sort((x, y) => x.time - y.time)) {
    let v = volumes.get(a.token_key);
    if (!v) volumes.set(a.token_key, (v = new TimedAmounts()));
    v.add(a.time, a.volume_usd);
  }
  const candles: Candle[] = foldCandles(await loadPointsSince(tx, tokens, from)).filter((c) => wanted.has(keyOf(c)));
  await upsertCandles(
    tx,
    withVolumes(candles, (k) => volumes.get(k)),
  );
}
