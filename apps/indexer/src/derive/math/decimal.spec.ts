import { formatNumber, formatRatio, formatUnits } from './decimal';

describe('decimal strings', () => {
  it('formats base units exactly, beyond double precision', () => {
    expect(formatUnits(1_500_000n, 6)).toBe('1.5');
    expect(formatUnits(123456789012345678901234567n, 18)).toBe('123456789.012345678901234567');
    expect(formatUnits(5n, 18)).toBe('0.000000000000000005');
    expect(formatUnits(0n, 6)).toBe('0');
  });
  it('truncates ratios to the requested digits', () => {
    expect(formatRatio(1n, 3n, 6)).toBe('0.333333');
    expect(formatRatio(-3n, 2n, 2)).toBe('-1.5');
    expect(formatRatio(1n, 0n)).toBe('0');
  });
  it('writes doubles without exponent, with 15 significant digits', () => {
    expect(formatNumber(3000.123456789)).toBe('3000.123456789');
    expect(formatNumber(1e-7)).toBe('0.0000001');
    expect(formatNumber(0.0000123456789012345)).toBe('0.0000123456789012345');
    expect(formatNumber(1e22)).toBe('10000000000000000000000');
    expect(formatNumber(-2.5)).toBe('-2.5');
    expect(formatNumber(Number.NaN)).toBe('0');
  });
});
