/** Pure helpers of the indexer bench: percentiles, rates, ratios and the printed report. */

/** Linear-interpolated percentile (p in [0, 100]) of unsorted values; NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (Math.min(100, Math.max(0, p)) / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (rank - lo);
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

export type Contender =
  { name: string; ok: true; events: number; blocks: number; seconds: number; note?: string } | { name: string; ok: false; reason: string };

export interface HeadLagSummary {
  blocks: number;
  reached: number;
  intervalMs: number;
  eventsPerBlock: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

export function summarizeHeadLag(samples: ReadonlyArray<{ lagMs?: number }>, intervalMs: number, eventsPerBlock: number): HeadLagSummary {
  const lags = samples.map((s) => s.lagMs).filter((l): l is number => l !== undefined);
  return {
    blocks: samples.length,
    reached: lags.length,
    intervalMs,
    eventsPerBlock,
    p50Ms: percentile(lags, 50),
    p95Ms: percentile(lags, 95),
    maxMs: lags.length ? Math.max(...lags) : NaN,
  };
}

const perSecond = (n: number, s: number): number => (s > 0 ? n / s : NaN);

/** ours / other in events per second, or undefined when either did not finish. */
export function speedRatio(ours: Contender | undefined, other: Contender | undefined): number | undefined {
  if (!ours?.ok || !other?.ok) return undefined;
  return perSecond(ours.events, ours.seconds) / perSecond(other.events, other.seconds);
}

const int = (n: number): string => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a');

export function formatTable(rows: readonly Contender[]): string {
  const head = [
    'contender'.padEnd(34),
    'events'.padStart(11),
    'blocks'.padStart(7),
    'seconds'.padStart(9),
    'events/s'.padStart(10),
    'blocks/s'.padStart(9),
  ].join(' ');
  const lines = rows.map((r) =>
    r.ok
      ? [
          r.name.padEnd(34),
          int(r.events).padStart(11),
          int(r.blocks).padStart(7),
          r.seconds.toFixed(2).padStart(9),
          int(perSecond(r.events, r.seconds)).padStart(10),
          perSecond(r.blocks, r.seconds).toFixed(1).padStart(9),
        ].join(' ') + (r.note ? `  ${r.note}` : '')
      : `${r.name.padEnd(34)} ${r.reason.startsWith('unavailable') ? r.reason : `FAILED: ${r.reason}`}`,
  );
  return [head, ...lines].join('\n');
}

function verdict(value: number | undefined, target: number, higherIsBetter: boolean): string {
  if (value === undefined || !Number.isFinite(value)) return 'n/a';
  return (higherIsBetter ? value >= target : value < target) ? 'met' : 'MISSED';
}

export interface IndexerBenchReport {
  rows: Contender[];
  ours?: Contender;
  raw?: Contender;
  /** the node serving the same eth_getLogs requests, nothing parsed: the floor under every contender */
  floor?: Contender;
  ponder?: Contender;
  headLag?: HeadLagSummary | { failed: string };
  /** `--remote`: the emulator's plan */
  remote?: string;
  /** per contender run: the load average around it and (`--remote`) what the emulator counted */
  traffic?: Array<[string, string]>;
}

export function formatReport(r: IndexerBenchReport): string {
  const vsRaw = speedRatio(r.ours, r.raw);
  const vsPonder = speedRatio(r.ours, r.ponder);
  const lines = r.remote
    ? [`every contender through the hosted-provider emulator: ${r.remote}`, formatTable(r.rows), '']
    : [formatTable(r.rows), ''];
  lines.push(`ours/raw    ${vsRaw === undefined ? 'n/a' : vsRaw.toFixed(2)}  (target >= 0.5: ${verdict(vsRaw, 0.5, true)})`);
  lines.push(
    `ours/ponder ${vsPonder === undefined ? 'n/a' : `${vsPonder.toFixed(1)}x`}  (target >= 20x, Envio publishes 32-43x: ${verdict(vsPonder, 20, true)})`,
  );
  // What the node allows at all: an indexer as fast as the raw baseline, or as the node floor.
  const rawVsPonder = speedRatio(r.raw, r.ponder);
  const floorVsPonder = speedRatio(r.floor, r.ponder);
  if (rawVsPonder !== undefined)
    lines.push(
      `ceilings    raw/ponder ${rawVsPonder.toFixed(1)}x${floorVsPonder === undefined ? '' : `, node floor/ponder ${floorVsPonder.toFixed(1)}x`} (${r.remote ? "readers that do nothing else, at the raw baseline's requests in flight" : 'no indexer reading this node beats these'})`,
    );
  for (const [name, line] of r.traffic ?? []) lines.push(`${r.remote ? 'emulator' : 'run'.padEnd(8)}    ${name}: ${line}`);
  const h = r.headLag;
  if (!h) lines.push('head lag    skipped');
  else if ('failed' in h) lines.push(`head lag    FAILED: ${h.failed}`);
  else {
    lines.push(
      `head lag    ${h.blocks} blocks every ${h.intervalMs} ms with ${h.eventsPerBlock} events each, ${h.reached} reached: p50 ${int(h.p50Ms)} ms, p95 ${int(h.p95Ms)} ms, max ${int(h.maxMs)} ms (target p50 < ${h.intervalMs} ms: ${verdict(h.reached === h.blocks ? h.p50Ms : undefined, h.intervalMs, false)})`,
    );
  }
  return lines.join('\n');
}
