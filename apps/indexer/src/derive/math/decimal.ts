/** Exact decimal strings for ratios of base-unit integers (doubles: `decimalString` of @tokensvc/domain). */

/** num/den as a decimal string, truncated to `digits` fractional digits, trailing zeros removed. */
export function formatRatio(num: bigint, den: bigint, digits = 18): string {
  if (den === 0n) return '0';
  const negative = num < 0n !== den < 0n && num !== 0n;
  const n = num < 0n ? -num : num;
  const d = den < 0n ? -den : den;
  const scaled = (n * 10n ** BigInt(digits)) / d;
  const text = scaled.toString().padStart(digits + 1, '0');
  const whole = text.slice(0, text.length - digits);
  const frac = text.slice(text.length - digits).replace(/(?<!0)0+$/, '');
  return `${negative ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

/** Base units as a human decimal string, exact: formatUnits(1500000n, 6) = "1.5". */
export function formatUnits(raw: bigint, decimals: number): string {
  return formatRatio(raw, 10n ** BigInt(decimals), decimals);
}
