import fc from 'fast-check';
import { AdaptiveRange } from './adaptive-range';

describe('AdaptiveRange', () => {
  it('takes the range a refusal names: a cap becomes the ceiling, a suggestion only the next size, a result cap lowers the target', () => {
    const r = new AdaptiveRange({ max: 10_000, initial: 1000, targetLogs: 20_000 });
    expect(r.onTooLarge(1000, { range: 300 })).toBe(true);
    expect([r.size, r.max]).toEqual([300, 300]);
    r.onSuccess(300, 0);
    expect(r.size).toBe(300);
    const s = new AdaptiveRange({ max: 10_000, initial: 1000, targetLogs: 20_000 });
    s.onTooLarge(1000, { range: 120, results: 10_000 });
    expect([s.size, s.max, s.targetLogs]).toEqual([120, 10_000, 8_000]);
    // Nothing named (or a "cap" above the refused range): halved.
    s.onTooLarge(120, { range: 5000 });
    expect(s.size).toBe(60);
  });

  it('starts at min(max, initial) and doubles while responses stay small', () => {
    const r = new AdaptiveRange({ max: 1000, initial: 100, targetLogs: 10_000 });
    expect(r.size).toBe(100);
    r.onSuccess(100, 0);
    expect(r.size).toBe(200);
    r.onSuccess(200, 10);
    expect(r.size).toBe(400);
    r.onSuccess(400, 10);
    r.onSuccess(800, 10);
    expect(r.size).toBe(1000);
  });

  it('aims at the target log count: shrinks after a heavy range, never below half at once', () => {
    const r = new AdaptiveRange({ max: 10_000, initial: 1000, targetLogs: 10_000 });
    r.onSuccess(1000, 40_000);
    expect(r.size).toBe(500);
    r.onSuccess(500, 12_500);
    expect(r.size).toBe(400);
  });

  it('does not grow from a short final range', () => {
    const r = new AdaptiveRange({ max: 10_000, initial: 1000 });
    r.onSuccess(3, 0);
    expect(r.size).toBe(1000);
  });

  it('halves on "too large" and reports when it cannot shrink any more', () => {
    const r = new AdaptiveRange({ max: 2000, initial: 2000 });
    expect(r.onTooLarge(2000)).toBe(true);
    expect(r.size).toBe(1000);
    expect(r.onTooLarge(2)).toBe(true);
    expect(r.size).toBe(1);
    expect(r.onTooLarge(1)).toBe(false);
  });

  it('always stays within [1, max]', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50_000 }),
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 0, max: 1_000_000 }))),
        (max, steps) => {
          const r = new AdaptiveRange({ max, initial: 100 });
          for (const [ok, blocks, logs] of steps) {
            if (ok) r.onSuccess(blocks, logs);
            else r.onTooLarge(blocks);
            expect(r.size).toBeGreaterThanOrEqual(1);
            expect(r.size).toBeLessThanOrEqual(max);
          }
        },
      ),
    );
  });
});
