import { formatRatio, formatUnits } from './decimal';

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
});
