/** Pure figures of the route-quality bench: ratio and latency summaries, the printed report. */
import { percentile } from '../indexer/stats';

export interface TradeResult {
  hops: number;
  depthFraction: number;
  /** findRoute output (0 when it found no route) */
  routed: bigint;
  /** the independent solver's exact output (an achievable lower bound of the optimum) */
  optimum: bigint;
  /** the solver's float objective plus its Frank-Wolfe gap */
  upperBound: number;
  bestSingle: bigint;
  /** findRoute wall time, ms */
  ms: number;
  /** findRoute split the input (more than one leg out of some token) */
  split: boolean;
}

export interface RatioSummary {
  n: number;
  median: number;
  p5: number;
  min: number;
  /** cases where findRoute beat the reference */
  above: number;
}

/** a / b as a double, exact enough for ratios near 1 of amounts up to ~1e30 */
export function ratio(a: bigint, b: bigint): number {
  if (b === 0n) return a === 0n ? 1 : Infinity;
  const scale = 10n ** 12n;
  return Number((a * scale) / b) / 1e12;
}

export function summarizeRatios(values: readonly number[]): RatioSummary {
  return {
    n: values.length,
    median: percentile(values, 50),
    p5: percentile(values, 5),
    min: values.length ? Math.min(...values) : NaN,
    above: values.filter((v) => v > 1).length,
  };
}

export interface LatencySummary {
  n: number;
  p50: number;
  p95: number;
  p99: number;
}

export function summarizeLatency(ms: readonly number[]): LatencySummary {
  return { n: ms.length, p50: percentile(ms, 50), p95: percentile(ms, 95), p99: percentile(ms, 99) };
}

export interface Report {
  vsOptimum: RatioSummary;
  vsUpperBound: RatioSummary;
  vsBestSingle: RatioSummary;
  latencyAll: LatencySummary;
  latency3HopSplit: LatencySummary;
}

export function buildReport(results: readonly TradeResult[]): Report {
  const r = (f: (t: TradeResult) => number) => summarizeRatios(results.map(f));
  return {
    vsOptimum: r((t) => ratio(t.routed, t.optimum)),
    vsUpperBound: r((t) => Number(t.routed) / Math.max(t.upperBound, Number(t.optimum))),
    vsBestSingle: r((t) => ratio(t.routed, t.bestSingle)),
    latencyAll: summarizeLatency(results.map((t) => t.ms)),
    latency3HopSplit: summarizeLatency(results.filter((t) => t.hops === 3 && t.split).map((t) => t.ms)),
  };
}

const pct = (v: number) => `${(v * 100).toFixed(4)} %`;
const ratioLine = (name: string, s: RatioSummary) =>
  `${name.padEnd(34)} median ${pct(s.median)}  p5 ${pct(s.p5)}  min ${pct(s.min)}  (n ${s.n}, above 100 %: ${s.above})`;
const latencyLine = (name: string, s: LatencySummary) =>
  `${name.padEnd(34)} p50 ${s.p50.toFixed(1)} ms  p95 ${s.p95.toFixed(1)} ms  p99 ${s.p99.toFixed(1)} ms  (n ${s.n})`;

export function formatRoutingReport(rep: Report): string {
  return [
    ratioLine('findRoute / optimum (solver)', rep.vsOptimum),
    ratioLine('findRoute / solver + FW gap (estimate)', rep.vsUpperBound),
    ratioLine('findRoute / best single path', rep.vsBestSingle),
    latencyLine('latency, all trades', rep.latencyAll),
    latencyLine('latency, 3-hop pairs, split routes', rep.latency3HopSplit),
    `targets: median >= 99.9 % (${rep.vsOptimum.median >= 0.999 ? 'met' : 'MISSED'}), p5 >= 99 % (${rep.vsOptimum.p5 >= 0.99 ? 'met' : 'MISSED'}), 3-hop split p95 < 50 ms (${rep.latency3HopSplit.p95 < 50 ? 'met' : 'MISSED'})`,
  ].join('\n');
}
