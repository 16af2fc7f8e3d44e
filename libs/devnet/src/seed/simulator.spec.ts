import { createRng } from '../math/prng';
import { blockTime, planTimeline } from './simulator';

describe('timeline', () => {
  const now = 1_800_000_000;
  const t = planTimeline(now, 30, 24);

  it('covers 30 days of activity ending now, after a day for deployment', () => {
    expect(t.end).toBe(now);
    expect(t.end - t.activityStart).toBe(30 * 86_400);
    expect(t.activityStart - t.genesis).toBe(86_400);
    expect(t.steps).toBe(720);
  });

  it('gives strictly increasing block times inside the window', () => {
    const rng = createRng('t');
    let previous = t.activityStart;
    for (let step = 1; step <= t.steps; step++) {
      const ts = blockTime(t, step, rng);
      expect(ts).toBeGreaterThan(previous);
      previous = ts;
    }
    expect(previous).toBeLessThanOrEqual(t.end);
    expect(previous).toBeGreaterThan(t.end - 3_600);
  });
});
