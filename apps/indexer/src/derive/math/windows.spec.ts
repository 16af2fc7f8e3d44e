import { TimedAmounts, TrailingSeries, TrailingSum } from './windows';

describe('trailing sum', () => {
  it('sums the last span and forgets older entries', () => {
    const w = new TrailingSum(100);
    w.add(0, 1);
    w.add(50, 2);
    w.add(120, 4);
    expect(w.sumAt(120)).toBe(6);
    expect(w.sumAt(151)).toBe(4);
    expect(w.sumAt(500)).toBe(0);
  });
});

describe('trailing series', () => {
  it('answers the value at a time as the last one at or before it', () => {
    const s = new TrailingSeries();
    s.push(10, 1);
    s.push(20, 2);
    s.push(20, 3);
    s.push(30, 4);
    expect(s.valueAt(5)).toBeUndefined();
    expect(s.valueAt(10)).toBe(1);
    expect(s.valueAt(25)).toBe(3);
    s.prune(25);
    expect(s.valueAt(25)).toBe(3);
    expect(s.first()).toEqual({ time: 20, value: 3 });
  });
});

describe('timed amounts', () => {
  it('sums any [from, to) and stays right after pruning', () => {
    const a = new TimedAmounts();
    [1, 2, 2, 5, 9].forEach((t, i) => a.add(t, 10 ** i));
    expect(a.sum(2, 6)).toBe(10 + 100 + 1000);
    expect(a.sum(0, 100)).toBe(11111);
    a.prune(3);
    expect(a.sum(0, 100)).toBe(11000);
    expect(a.sum(5, 9)).toBe(1000);
  });
});
