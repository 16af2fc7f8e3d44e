import type { UsageRow } from '@tokensvc/persistence';
import { nextMonth } from './headers';
import { UsageRecorder, type UsageSink } from './usage-recorder';

class FakeSink implements UsageSink {
  readonly batches: UsageRow[][] = [];
  failNext = false;
  async recordUsage(rows: readonly UsageRow[]): Promise<void> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('db down');
    }
    this.batches.push(rows.map((r) => ({ ...r })));
  }
}

describe('UsageRecorder', () => {
  it('writes one row per key and UTC day per flush', async () => {
    const sink = new FakeSink();
    const rec = new UsageRecorder(sink, 60_000, () => undefined);
    for (let i = 0; i < 1000; i++) rec.count('a', Date.parse('2025-03-31T23:59:59Z'));
    rec.count('a', Date.parse('2025-04-01T00:00:00Z'));
    rec.count('b', Date.parse('2025-04-01T00:00:00Z'));
    await rec.flush();
    expect(sink.batches).toEqual([
      [
        { keyId: 'a', day: '2025-03-31', calls: 1000 },
        { keyId: 'a', day: '2025-04-01', calls: 1 },
        { keyId: 'b', day: '2025-04-01', calls: 1 },
      ],
    ]);
    await rec.flush();
    expect(sink.batches).toHaveLength(1);
  });

  it('keeps the counts of a failed write for the next one', async () => {
    const sink = new FakeSink();
    const errors: unknown[] = [];
    const rec = new UsageRecorder(sink, 60_000, (e) => errors.push(e));
    const day = Date.parse('2025-01-02T03:04:05Z');
    rec.count('a', day);
    sink.failNext = true;
    await rec.flush();
    rec.count('a', day);
    await rec.close();
    expect(errors).toHaveLength(1);
    expect(sink.batches).toEqual([[{ keyId: 'a', day: '2025-01-02', calls: 2 }]]);
  });
});

describe('nextMonth', () => {
  it('gives the seconds to the next UTC month and the current period', () => {
    expect(nextMonth(new Date('2025-12-31T23:59:00Z'))).toEqual({ seconds: 60, at: new Date('2026-01-01T00:00:00Z'), period: '2025-12' });
  });
});
