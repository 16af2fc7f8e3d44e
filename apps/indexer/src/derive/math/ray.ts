/**
 * Aave's ray maths (27 decimals, half-up rounding as in WadRayMath) and rates to APY.
 * Aave rates are per-year APRs in ray; Aave's own UI compounds them per second.
 */
export const RAY = 10n ** 27n;
const HALF_RAY = RAY / 2n;
export const SECONDS_PER_YEAR = 31_536_000;

export function rayMul(a: bigint, b: bigint): bigint {
  return (a * b + HALF_RAY) / RAY;
}

export function rayDiv(a: bigint, b: bigint): bigint {
  if (b === 0n) return 0n;
  return (a * RAY + b / 2n) / b;
}

/** APY in percent of an APR given in ray, compounded every second: (1 + r/n)^n - 1. */
export function rayRateToApy(rateRay: bigint): number {
  const r = Number(rateRay) / 1e27;
  if (!(r > 0)) return 0;
  return Math.expm1(SECONDS_PER_YEAR * Math.log1p(r / SECONDS_PER_YEAR)) * 100;
}
