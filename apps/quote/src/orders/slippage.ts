/** Slippage maths and the gas buffer (percentages are numbers of percent, amounts base units). */
import { AUTO_SLIPPAGE_CAP } from './request-parsing';

const PPM = 1_000_000n;

/** The worst-case output: `amount` less `percent`, rounded down (what the Router enforces). */
export function minOutput(amount: bigint, percent: number): bigint {
  const kept = PPM - BigInt(Math.round(percent * 10_000));
  return (amount * kept) / PPM;
}

/**
 * Auto slippage: a base for prices moving while the user signs, more for trades with a large
 * price impact (other trades on the same pools move their output more), plus any drift already
 * seen between the quote and an on-chain simulation. Rounded up to 0.01 %.
 */
export function autoSlippage(priceImpact: number | undefined, driftPercent = 0): number {
  const raw = 0.5 + (priceImpact ?? 0) / 4 + Math.max(0, driftPercent);
  return Math.ceil(raw * 100) / 100;
}

export function autoSlippageExceeded(required: number): string {
  return `auto slippage exceeded: this order needs about ${required}% slippage, above the ${AUTO_SLIPPAGE_CAP}% auto slippage cap; set slippageTolerancePercentage explicitly (0.1 to 10)`;
}

/** How much less the chain pays than the quote, in percent (0 when it pays as much or more). */
export function driftPercent(quoted: bigint, actual: bigint): number {
  if (quoted <= 0n || actual >= quoted) return 0;
  return (Number(quoted - actual) / Number(quoted)) * 100;
}

/** Gas limit with a 20 % buffer over the estimate. */
export function bufferedGas(gas: bigint | number): bigint {
  const g = BigInt(gas);
  return (g * 12n + 9n) / 10n;
}

export const round6 = (n: number): number => Math.round(n * 1e6) / 1e6;
