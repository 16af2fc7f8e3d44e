import type { UsageRow } from '@tokensvc/persistence';

export interface UsageSink {
  recordUsage(rows: readonly UsageRow[]): Promise<void>;
}

/**
 * Counts admitted calls per key and UTC day in memory and writes them in one statement every
 * `flushMs` (and on shutdown), so usage costs no database write per request. A failed write keeps
 * the counts for the next attempt.
 */
export class UsageRecorder {
  private pending = new Map<string, UsageRow>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly sink: UsageSink,
    private readonly flushMs: number,
    private readonly onError: (e: unknown) => void,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.flush(), this.flushMs);
    this.timer.unref();
  }

  private day = '';
  private dayEndsAt = 0;

  count(keyId: string, at: number = Date.now()): void {
    // The UTC day string changes once a day; recompute it only then (this runs per request).
    if (at >= this.dayEndsAt || at < this.dayEndsAt - 86_400_000) {
      this.day = new Date(at).toISOString().slice(0, 10);
      this.dayEndsAt = Date.parse(`${this.day}T00:00:00Z`) + 86_400_000;
    }
    const day = this.day;
    const id = `${keyId}|${day}`;
    const row = this.pending.get(id);
    if (row) row.calls += 1;
    else this.pending.set(id, { keyId, day, calls: 1 });
  }

  /** Writes what is pending; concurrent calls share one write. */
  flush(): Promise<void> {
    this.flushing ??= this.write().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    try {
      await this.sink.recordUsage(batch);
    } catch (e) {
      for (const r of batch) {
        const id = `${r.keyId}|${r.day}`;
        const row = this.pending.get(id);
        if (row) row.calls += r.calls;
        else this.pending.set(id, r);
      }
      this.onError(e);
    }
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}
