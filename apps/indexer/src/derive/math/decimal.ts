/** Exact decimal strings for ratios of base-unit integers, and plain (exponent-free) numbers. */

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

/** A double as a decimal string without exponent (15 significant digits), "0" for non-finite. */
export function formatNumber(x: number): string {
  if (!Number.isFinite(x) || x === 0) return '0';
  if (Math.abs(x) >= 1e21) return BigInt(x).toString();
  const text = x.toPrecision(15);
  if (!text.includes('e')) return trimZeros(text);
  const digits = Math.max(0, 14 - Math.floor(Math.log10(Math.abs(x))));
  return trimZeros(x.toFixed(Math.min(digits, 100)));
}

function trimZeros(text: string): string {
  return text.includes('.') ? text.replace(/(?<!0)0+$/, '').replace(/\.$/, '') : text;
}
