import { metricString } from './token-row';

describe('metricString', () => {
  it('prints the shortest decimal that reads back as the same double', () => {
    for (const n of [0, 1, 2.391051941616224, 3038.16401706881, 0.1 + 0.2, 123456789.123456]) {
      expect(Number(metricString(n))).toBe(n);
      expect(metricString(n)).not.toMatch(/e/i);
    }
  });

  it('never uses exponent form, and turns non-numbers into 0', () => {
    expect(metricString(1e-7)).toBe('0.0000001');
    expect(metricString(1e21)).toBe('1000000000000000000000');
    expect(metricString('12.5')).toBe('12.5');
    expect(metricString(Number.NaN)).toBe('0');
    expect(metricString(undefined)).toBe('0');
  });
});
