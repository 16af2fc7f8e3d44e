import { createRng } from './prng';

describe('createRng', () => {
  it('repeats the same sequence for the same seed and differs for another', () => {
    const a = createRng('seed');
    const b = createRng('seed');
    const c = createRng('other');
    const seqA = Array.from({ length: 20 }, () => a.next());
    expect(Array.from({ length: 20 }, () => b.next())).toEqual(seqA);
    expect(Array.from({ length: 20 }, () => c.next())).not.toEqual(seqA);
  });

  it('keeps values in range', () => {
    const rng = createRng('range');
    for (let i = 0; i < 2000; i++) {
      const x = rng.next();
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
      const n = rng.int(3, 7);
      expect(n).toBeGreaterThanOrEqual(3);
      expect(n).toBeLessThanOrEqual(7);
      const l = rng.logUniform(10, 1000);
      expect(l).toBeGreaterThanOrEqual(10);
      expect(l).toBeLessThanOrEqual(1000);
    }
  });

  it('forks independently of how much the parent was consumed', () => {
    const a = createRng('p');
    const b = createRng('p');
    b.next();
    b.next();
    expect(a.fork('x').next()).toBe(b.fork('x').next());
  });

  it('produces roughly standard normals', () => {
    const rng = createRng('normal');
    const xs = Array.from({ length: 5000 }, () => rng.normal());
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    const variance = xs.reduce((s, x) => s + (x - mean) ** 2, 0) / xs.length;
    expect(Math.abs(mean)).toBeLessThan(0.05);
    expect(Math.abs(variance - 1)).toBeLessThan(0.1);
  });
});
