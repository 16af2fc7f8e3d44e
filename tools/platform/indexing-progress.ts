/**
 * `npm start`'s progress lines while the indexer backfills: read from the indexer's health port
 * (`GET /status`, see apps/indexer/README.md) every few seconds until every network is caught up.
 */
import type { IndexingProgress } from '@tokensvc/api';

/** One network's progress as the indexer's status port reports it (the shape GET /v3/indexing/status forwards). */
export type IndexingStatus = IndexingProgress;

export function formatProgress(s: IndexingStatus): string {
  if (s.caughtUp) return `${s.network}: caught up at block ${s.cursor}`;
  if (s.head === null || s.cursor === null) return `${s.network}: starting (no head or cursor yet)`;
  const eta = s.etaSeconds === null ? 'ETA unknown' : `ETA ${formatSeconds(s.etaSeconds)}`;
  return `${s.network}: block ${s.cursor} of ${s.head} (${s.percent}%), ${s.lag} behind, ${s.blocksPerSecond} blocks/s, ${s.eventsPerSecond} events/s, ${eta}`;
}

const formatSeconds = (s: number): string =>
  s < 60
    ? `${s}s`
    : s < 3600
      ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`
      : `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;

/**
 * Prints each network's progress every `intervalMs` until all are caught up, then says so once.
 * Returns when caught up or `stopped()`; a failed read is retried at the next tick.
 */
export async function followIndexing(
  read: () => Promise<IndexingStatus[]>,
  say: (line: string) => void,
  o: { intervalMs?: number; stopped?: () => boolean } = {},
): Promise<void> {
  const intervalMs = o.intervalMs ?? 3_000;
  let lastError = '';
  while (!o.stopped?.()) {
    try {
      const all = await read();
      if (all.length > 0 && all.every((s) => s.caughtUp)) {
        say(`indexing: every network caught up (${all.map((s) => `${s.network} at block ${s.cursor}`).join(', ')})`);
        return;
      }
      for (const s of all.filter((x) => !x.caughtUp)) say(`indexing: ${formatProgress(s)}`);
    } catch (e) {
      const message = (e as Error).message;
      if (message !== lastError) say(`indexing: status not readable yet (${message})`);
      lastError = message;
    }
    await new Promise((r) => setTimeout(r, intervalMs).unref());
  }
}

/** reads the indexer's `/status` (its health port) */
export function indexerStatusReader(url: string): () => Promise<IndexingStatus[]> {
  return async () => {
    const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
    return ((await res.json()) as { networks: IndexingStatus[] }).networks;
  };
}
