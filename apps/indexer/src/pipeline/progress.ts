/**
 * Backfill progress of one network: blocks/s and events/s over a recent window of committed
 * batches, and the ETA to the head at that rate. Pure (the caller passes the clock), fed once per
 * committed batch, so it costs nothing per event.
 */
export interface ProgressReport {
  cursor: number;
  head: number;
  /** head - cursor (0 when the cursor is at or above the head) */
  blocksLeft: number;
  blocksPerSecond: number;
  eventsPerSecond: number;
  /** blocksLeft / blocksPerSecond, rounded up; null when nothing was indexed in the window (rate 0) or the head is unknown */
  etaSeconds: number | null;
  /** indexed share of [startBlock, head], 0..100 with one decimal */
  percent: number;
}

interface Sample {
  at: number;
  cursor: number;
  events: number;
}

export class BackfillProgress {
  private samples: Sample[] = [];
  private events = 0;

  /** @param windowMs rates are taken over the samples of the last windowMs (at least the last two) */
  constructor(
    private readonly startBlock: number,
    private readonly windowMs = 30_000,
  ) {}

  /** a committed batch moved the cursor to `cursor` with `events` more events (logs) */
  record(now: number, cursor: number, events: number): void {
    this.events += events;
    this.samples.push({ at: now, cursor, events: this.events });
    // Keep one sample older than the window as its left edge.
    while (this.samples.length > 2 && this.samples[1]!.at <= now - this.windowMs) this.samples.shift();
  }

  /** the cursor moved back (a rollback) or the state was reloaded: rates start over from here */
  reset(now: number, cursor: number): void {
    this.samples = [{ at: now, cursor, events: this.events }];
  }

  report(now: number, cursor: number, head: number): ProgressReport {
    const blocksLeft = head >= 0 ? Math.max(0, head - cursor) : 0;
    let blocksPerSecond = 0;
    let eventsPerSecond = 0;
    const first = this.samples[0];
    const last = this.samples.at(-1);
    // A window that ended long ago says nothing about now: the rate counts up to `now`.
    if (first && last && last !== first && now > first.at) {
      const seconds = (now - first.at) / 1000;
      blocksPerSecond = Math.max(0, last.cursor - first.cursor) / seconds;
      eventsPerSecond = (last.events - first.events) / seconds;
    }
    const etaSeconds = head < 0 ? null : blocksLeft === 0 ? 0 : blocksPerSecond > 0 ? Math.ceil(blocksLeft / blocksPerSecond) : null;
    const span = head - this.startBlock + 1;
    const done = cursor - this.startBlock + 1;
    const percent = head < 0 || span <= 0 ? 0 : Math.min(100, Math.max(0, Math.floor((done / span) * 1000) / 10));
    return {
      cursor,
      head,
      blocksLeft,
      blocksPerSecond: round(blocksPerSecond),
      eventsPerSecond: round(eventsPerSecond),
      etaSeconds,
      percent,
    };
  }
}

const round = (x: number): number => Math.round(x * 10) / 10;
