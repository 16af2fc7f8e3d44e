import { RAY, rayDiv, rayMul, rayRateToApy } from './ray';

describe('ray maths', () => {
  it('multiplies and divides with half-up rounding like WadRayMath', () => {
    expect(rayMul(3n, RAY / 2n)).toBe(2n); // 1.5 rounds up
    expect(rayMul(10n ** 18n, (RAY * 105n) / 100n)).toBe(105n * 10n ** 16n);
    expect(rayDiv(3n, 2n * RAY)).toBe(2n); // 1.5 rounds up
    expect(rayDiv(10n ** 18n, (RAY * 11n) / 10n)).toBe(909090909090909091n);
    expect(rayDiv(1n, 0n)).toBe(0n);
  });
  it('compounds a ray APR per second into an APY in percent', () => {
    // 5 % APR -> e^0.05 - 1 = 5.127 %
    expect(rayRateToApy((RAY * 5n) / 100n)).toBeCloseTo(5.12711, 4);
    expect(rayRateToApy(0n)).toBe(0);
    // 100 % APR -> e - 1
    expect(rayRateToApy(RAY)).toBeCloseTo((Math.E - 1) * 100, 4);
  });
});
