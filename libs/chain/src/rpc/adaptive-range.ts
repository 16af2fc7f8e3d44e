import type { LogCapHint } from './errors';

/**
 * The eth_getLogs block range, adapted to the node: grows while responses stay under the target
 * log count, halves when the node refuses ("range too large", response size, timeout), never
 * above the network's known limit. Pure state; the fetch loop drives it.
 */
export interface AdaptiveRangeOptions {
  /** the node's (or network's) largest accepted range */
  max: number;
  /** first range tried; default min(max, 100) */
  initial?: number;
  /** aim for about this many logs per response */
  targetLogs?: number;
}

export class AdaptiveRange {
  /** lowered when a node names its cap ("exceed maximum block range: 5000") */
  max: number;
  /** lowered when a node names its result cap ("more than 10000 results") */
  targetLogs: number;
  private current: number;

  constructor(opts: AdaptiveRangeOptions) {
    if (opts.max < 1) throw new Error('max log range must be at least 1');
    this.max = opts.max;
    this.targetLogs = opts.targetLogs ?? 20_000;
    this.current = Math.max(1, Math.min(this.max, opts.initial ?? 100));
  }

  get size(): number {
    return this.current;
  }

  /** A range of `blocks` blocks answered with `logs` logs. */
  onSuccess(blocks: number, logs: number): void {
    // Scale towards the target log count, at most doubling; a short final range says nothing.
    const factor = logs === 0 ? 2 : Math.min(2, Math.max(0.5, this.targetLogs / logs));
    if (factor > 1 && blocks < this.current) return;
    this.current = clamp(Math.floor(blocks * factor), 1, this.max);
  }

  /**
   * The node refused a range of `blocks` blocks; returns false when it cannot shrink further.
   * A range the refusal names (its cap, or the provider's suggestion for this request) is used
   * as is; a named cap also becomes the ceiling, and a named result cap lowers the log target
   * (to 80 %, so ranges stop growing into it). Otherwise the range is halved.
   */
  onTooLarge(blocks: number, hint: LogCapHint = {}): boolean {
    if (blocks <= 1) return false;
    if (hint.results !== undefined && hint.results >= 1)
      this.targetLogs = Math.min(this.targetLogs, Math.max(1, Math.floor(hint.results * 0.8)));
    if (hint.range !== undefined && hint.range >= 1 && hint.range < blocks) {
      if (hint.results === undefined) this.max = Math.min(this.max, hint.range);
      this.current = clamp(hint.range, 1, this.max);
      return true;
    }
    this.current = clamp(Math.floor(blocks / 2), 1, this.max);
    return true;
  }
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}
