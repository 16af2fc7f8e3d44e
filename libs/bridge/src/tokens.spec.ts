import { rescale, sameAddress } from './tokens';

describe('bridge token helpers', () => {
  it('rescales the same asset between decimals, rounding down', () => {
    expect(rescale(123_456_789_000_000n, 18, 6)).toBe(123n);
    expect(rescale(123n, 6, 18)).toBe(123n * 10n ** 12n);
    expect(rescale(5n, 6, 6)).toBe(5n);
  });

  it('compares addresses whatever their case', () => {
    expect(sameAddress('0xAbC0000000000000000000000000000000000001', '0xabc0000000000000000000000000000000000001')).toBe(true);
    expect(sameAddress('0xabc0000000000000000000000000000000000001', '0xabc0000000000000000000000000000000000002')).toBe(false);
  });
});
