/**
 * Trailing windows over time-ordered observations (unix seconds). Amounts are summed as integer
 * cents (exact below 2^53 cents), so a sum does not depend on how the window was built up: a
 * state reloaded from the database after a restart or rollback derives bit-identical figures.
 */
export const toCents = (amount: number): number => Math.round(amount * 100);

/** Sum of values with time in [t - span, t], for non-decreasing t; older entries are dropped. */
export class TrailingSum {
  private readonly times: number[] = [];
  private readonly values: number[] = [];
  private head = 0;
  private total = 0;

  constructor(readonly spanSeconds: number) {}

  add(time: number, value: number): void {
    const cents = toCents(value);
    this.times.push(time);
    this.values.push(cents);
    this.total += cents;
  }

  sumAt(t: number): number {
    const from = t - this.spanSeconds;
    while (this.head < this.times.length && this.times[this.head]! < from) {
      this.total -= this.values[this.head]!;
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.times.length) {
      this.times.splice(0, this.head);
      this.values.splice(0, this.head);
      this.head = 0;
    }
    return this.total / 100;
  }
}

/** A step function: the last value pushed at or before t. */
export class TrailingSeries {
  private readonly times: number[] = [];
  private readonly values: number[] = [];

  push(time: number, value: number): void {
    const last = this.times.length - 1;
    if (last >= 0 && this.times[last] === time) this.values[last] = value;
    else {
      this.times.push(time);
      this.values.push(value);
    }
  }

  /** The value at t, or undefined before the first observation. */
  valueAt(t: number): number | undefined {
    let lo = 0;
    let hi = this.times.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.times[mid]! <= t) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found < 0 ? undefined : this.values[found];
  }

  first(): { time: number; value: number } | undefined {
    return this.times.length === 0 ? undefined : { time: this.times[0]!, value: this.values[0]! };
  }

  /** Drops observations no longer needed to answer valueAt(t) for any t >= keepFrom. */
  prune(keepFrom: number): void {
    let i = 0;
    while (i + 1 < this.times.length && this.times[i + 1]! <= keepFrom) i++;
    if (i > 0) {
      this.times.splice(0, i);
      this.values.splice(0, i);
    }
  }
}

/**
 * Time-ordered amounts with prefix sums: the total in any [from, to) in O(log n). Entries before
 * a cut-off can be pruned (prefix sums are rebased on the first kept entry).
 */
export class TimedAmounts {
  private times: number[] = [];
  /** prefix[i] = sum of the first i amounts */
  private prefix: number[] = [0];

  add(time: number, amount: number): void {
    this.times.push(time);
    this.prefix.push(this.prefix[this.prefix.length - 1]! + toCents(amount));
  }

  /** index of the first entry with time >= t */
  private lowerBound(t: number): number {
    let lo = 0;
    let hi = this.times.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.times[mid]! < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  sum(from: number, to: number): number {
    return (this.prefix[this.lowerBound(to)]! - this.prefix[this.lowerBound(from)]!) / 100;
  }

  prune(before: number): void {
    const cut = this.lowerBound(before);
    if (cut === 0) return;
    const base = this.prefix[cut]!;
    this.times = this.times.slice(cut);
    this.prefix = this.prefix.slice(cut).map((x) => x - base);
  }
}
