import { formatReport, formatTable, median, percentile, speedRatio, summarizeHeadLag, type Contender } from './stats';

describe('percentile', () => {
  it('interpolates between ranks of unsorted values', () => {
    const values = [40, 10, 30, 20];
    expect(percentile(values, 0)).toBe(10);
    expect(percentile(values, 100)).toBe(40);
    expect(percentile(values, 50)).toBe(25);
    expect(percentile(values, 95)).toBeCloseTo(38.5);
    expect(median([7])).toBe(7);
  });

  it('is NaN for no values and clamps p', () => {
    expect(percentile([], 50)).toBeNaN();
    expect(percentile([1, 2], 150)).toBe(2);
    expect(percentile([1, 2], -5)).toBe(1);
  });
});

describe('summarizeHeadLag', () => {
  it('ignores blocks the cursor never reached but counts them', () => {
    const s = summarizeHeadLag([{ lagMs: 100 }, { lagMs: 300 }, {}, { lagMs: 200 }], 1000, 300);
    expect(s).toEqual({ blocks: 4, reached: 3, intervalMs: 1000, eventsPerBlock: 300, p50Ms: 200, p95Ms: 290, maxMs: 300 });
  });
});

const raw: Contender = { name: 'raw', ok: true, events: 1_000_000, blocks: 600, seconds: 10 };
const ponder: Contender = { name: 'ponder', ok: true, events: 1_000_000, blocks: 600, seconds: 400 };
const ours: Contender = { name: 'ours', ok: true, events: 1_000_000, blocks: 600, seconds: 16 };

describe('speedRatio', () => {
  it('compares events per second and is undefined when either side failed', () => {
    expect(speedRatio(ours, raw)).toBeCloseTo(0.625);
    expect(speedRatio(ours, ponder)).toBeCloseTo(25);
    expect(speedRatio({ name: 'ours', ok: false, reason: 'x' }, raw)).toBeUndefined();
    expect(speedRatio(ours, undefined)).toBeUndefined();
  });
});

describe('formatReport', () => {
  it('prints rates, ratios against the targets and head lag', () => {
    const text = formatReport({
      rows: [raw, ponder, ours],
      raw,
      ponder,
      ours,
      headLag: summarizeHeadLag([{ lagMs: 150 }, { lagMs: 250 }], 1000, 300),
    });
    expect(text).toContain('1,000,000');
    expect(text).toMatch(/ours\s+1,000,000\s+600\s+16\.00\s+62,500\s+37\.5/);
    expect(text).toContain('ours/raw    0.63  (target >= 0.5: met)');
    expect(text).toContain('ours/ponder 25.0x');
    expect(text).toContain('p50 200 ms');
    expect(text).toContain('target p50 < 1000 ms: met');
  });

  it('prints the ceilings the node allows: raw and node floor against Ponder', () => {
    const floor: Contender = { name: 'floor', ok: true, events: 1_000_000, blocks: 600, seconds: 8 };
    expect(formatReport({ rows: [raw, floor, ponder, ours], raw, floor, ponder, ours })).toContain(
      'ceilings    raw/ponder 40.0x, node floor/ponder 50.0x',
    );
    expect(formatReport({ rows: [raw, ours], raw, ours })).not.toContain('ceilings');
  });

  it('prints a failure instead of a number and marks targets n/a', () => {
    const failed: Contender = { name: 'ours', ok: false, reason: 'cursor did not reach block 600' };
    const unavailable: Contender = { name: 'ponder', ok: false, reason: 'unavailable: skipped (--no-ponder)' };
    const text = formatReport({
      rows: [raw, unavailable, failed],
      raw,
      ponder: unavailable,
      ours: failed,
      headLag: { failed: 'the indexer did not finish the backfill' },
    });
    expect(text).toContain('FAILED: cursor did not reach block 600');
    expect(text).toContain('ponder                             unavailable: skipped');
    expect(text).toContain('ours/raw    n/a');
    expect(text).toContain('head lag    FAILED');
    expect(text).not.toMatch(/ours\s+\d/);
  });

  it('does not call a head lag met when some blocks were never reached', () => {
    const text = formatReport({ rows: [], headLag: summarizeHeadLag([{ lagMs: 10 }, {}], 1000, 300) });
    expect(text).toContain('1 reached');
    expect(text).toContain('target p50 < 1000 ms: n/a');
  });
});

describe('formatTable', () => {
  it('has one line per contender under a header', () => {
    expect(formatTable([raw, ours]).split('\n')).toHaveLength(3);
  });
});
