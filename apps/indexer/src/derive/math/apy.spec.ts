import { feeApy, growthApy, YEAR_SECONDS } from './apy';

const WEEK = 7 * 86_400;

describe('APY from growth', () => {
  it('annualises share price growth with compounding', () => {
    const weekly = Math.pow(1.08, 7 / 365);
    expect(growthApy(1, weekly, WEEK)).toBeCloseTo(8, 9);
    expect(growthApy(1.2, 1.2 * 1.08, YEAR_SECONDS)).toBeCloseTo(8, 9);
  });
  it('is 0 without a usable observation', () => {
    expect(growthApy(0, 1, WEEK)).toBe(0);
    expect(growthApy(1, 2, 600)).toBe(0); // under an hour
  });
  it('can be negative when the value fell', () => {
    expect(growthApy(1, 0.99, WEEK)).toBeLessThan(0);
  });
});

describe('pool fee APY', () => {
  it('is fee income over TVL, compounded over a year', () => {
    // $10M TVL, $7M swapped in a week at 0.3 %: $21k fees a week
    const apy = feeApy(7_000_000, 0.003, 10_000_000, WEEK);
    expect(apy).toBeCloseTo((Math.pow(1 + 21_000 / 10_000_000, 365 / 7) - 1) * 100, 9);
    expect(apy).toBeGreaterThan(11);
    expect(apy).toBeLessThan(12);
  });
  it('uses the observed span for young pools', () => {
    expect(feeApy(1_000_000, 0.003, 10_000_000, 86_400)).toBeCloseTo((Math.pow(1 + 3_000 / 10_000_000, 365) - 1) * 100, 9);
  });
  it('is 0 without TVL or volume', () => {
    expect(feeApy(1_000, 0.003, 0, WEEK)).toBe(0);
    expect(feeApy(0, 0.003, 1_000, WEEK)).toBe(0);
  });
});
