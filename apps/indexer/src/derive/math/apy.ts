/**
 * Yields from observed growth, in percent, compounded over a 365-day year:
 * a value that grew from `start` to `end` over `span` seconds has APY (end/start)^(year/span) - 1.
 */
export const YEAR_SECONDS = 365 * 86_400;
/** Shorter observation spans give no APY (one noisy block would annualise to nonsense). */
export const MIN_APY_SPAN_SECONDS = 3_600;

export function growthApy(start: number, end: number, spanSeconds: number): number {
  if (!(start > 0) || !(end > 0) || spanSeconds < MIN_APY_SPAN_SECONDS) return 0;
  return Math.expm1((YEAR_SECONDS / spanSeconds) * Math.log(end / start)) * 100;
}

/**
 * Pool fee APY: fees earned over the span (fee tier x swap volume) as a return on the pool's TVL,
 * compounded: ((tvl + fees) / tvl)^(year/span) - 1.
 */
export function feeApy(swapVolumeUsd: number, feeFraction: number, tvlUsd: number, spanSeconds: number): number {
  if (!(tvlUsd > 0) || !(swapVolumeUsd > 0)) return 0;
  return growthApy(tvlUsd, tvlUsd + swapVolumeUsd * feeFraction, spanSeconds);
}
