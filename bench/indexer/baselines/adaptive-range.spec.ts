import { AdaptiveRange } from './adaptive-range';

describe('AdaptiveRange', () => {
  it('covers the range contiguously, once', () => {
    const r = new AdaptiveRange(10, 1000, 7, 100);
    const spans: Array<[number, number]> = [];
    for (let s = r.next(); s; s = r.next()) {
      spans.push(s);
      r.observe(s, (s[1] - s[0] + 1) * 30);
    }
    expect(spans[0]![0]).toBe(10);
    expect(spans.at(-1)![1]).toBe(1000);
    spans.slice(1).forEach((s, i) => expect(s[0]).toBe(spans[i]![1] + 1));
  });

  it('moves towards the target density, at most doubling or halving per step', () => {
    const r = new AdaptiveRange(0, 1_000_000, 10, 1000, 500);
    r.observe([0, 9], 10); // 1 log per block: ideal 1000 blocks, capped at doubling
    expect(r.currentWidth).toBe(20);
    r.observe([10, 29], 20);
    expect(r.currentWidth).toBe(40);
    r.observe([30, 69], 40_000); // 1000 logs per block: ideal 1, capped at halving
    expect(r.currentWidth).toBe(20);
    for (let i = 0; i < 20; i++) r.observe([0, r.currentWidth - 1], 0);
    expect(r.currentWidth).toBe(500); // maxWidth
  });
});
