/**
 * Token amounts are bigint in code and base-unit decimal strings on the wire. Never a JS number.
 */
const UINT_RE = /^[0-9]+$/;
export const MAX_UINT256 = (1n << 256n) - 1n;
const MAX_UINT256_DIGITS = 78;

export class InvalidAmountError extends Error {}

/** Parses a base-unit decimal string (no sign, no decimals, no exponent) into a bigint. */
export function parseAmount(input: string, name = 'amount'): bigint {
  if (typeof input !== 'string' || !UINT_RE.test(input)) {
    throw new InvalidAmountError(`${name} must be a non-negative integer in base units (digits only), got "${String(input).slice(0, 96)}"`);
  }
  // 2^256-1 has 78 digits: a longer string is refused before BigInt reads it
  const value = input.length > MAX_UINT256_DIGITS ? undefined : BigInt(input);
  if (value === undefined || value > MAX_UINT256) throw new InvalidAmountError(`${name} must fit in uint256`);
  return value;
}

/** An amount to trade: a uint256 that is not zero (the one home of that rule: the gateway's `q.uint256({ positive })` and quote use it). */
export function parsePositiveAmount(input: string, name = 'amount'): bigint {
  const value = parseAmount(input, name);
  if (value === 0n) throw new InvalidAmountError(`${name} must be greater than zero`);
  return value;
}

export function formatAmount(value: bigint): string {
  if (value < 0n) throw new InvalidAmountError('amount cannot be negative');
  return value.toString(10);
}

/** Human units (for display and USD maths only), e.g. toUnits(1500000n, 6) = 1.5 */
export function toUnits(raw: bigint, decimals: number): number {
  if (decimals === 0) return Number(raw);
  const base = 10n ** BigInt(decimals);
  const whole = raw / base;
  const frac = raw % base;
  return Number(whole) + Number(frac) / Number(base);
}

/** Human decimal string to base units, exact: fromUnits('1.5', 6) = 1500000n */
export function fromUnits(human: string, decimals: number): bigint {
  const m = /^([0-9]+)(?:\.([0-9]*))?$/.exec(human.trim());
  if (!m) throw new InvalidAmountError(`"${human}" is not a decimal number`);
  const frac = (m[2] ?? '').padEnd(decimals, '0');
  if (frac.length > decimals) throw new InvalidAmountError(`"${human}" has more than ${decimals} decimals`);
  return BigInt(m[1] ?? '0') * 10n ** BigInt(decimals) + BigInt(frac === '' ? '0' : frac);
}

/**
 * A double as the interface's decimal string: the shortest decimal that reads back as the same
 * double (so a figure shown can be sent back as a filter bound and match itself), never in exponent
 * form, "0" for a non-finite value. The one number formatter: the indexer writes stored figures
 * with it and token-data prints computed ones with it, so both finality modes print a figure alike.
 */
export function decimalString(x: number): string {
  if (!Number.isFinite(x) || x === 0) return '0';
  const shortest = String(x);
  const e = shortest.indexOf('e');
  if (e < 0) return shortest;
  const negative = shortest.startsWith('-');
  const mantissa = shortest.slice(negative ? 1 : 0, e);
  const exponent = Number(shortest.slice(e + 1));
  const point = mantissa.indexOf('.');
  const digits = mantissa.replace('.', '');
  // the position of the decimal point within `digits` once the exponent is applied
  const at = (point < 0 ? mantissa.length : point) + exponent;
  const plain =
    at <= 0
      ? `0.${'0'.repeat(-at)}${digits}`
      : at >= digits.length
        ? digits + '0'.repeat(at - digits.length)
        : `${digits.slice(0, at)}.${digits.slice(at)}`;
  return negative ? `-${plain}` : plain;
}
