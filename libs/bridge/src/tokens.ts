/** Token helpers every bridge adapter shares. */

/** The native coin in token positions (the public interface uses address(0) the same way). */
export const NATIVE_TOKEN = '0x0000000000000000000000000000000000000000';

export function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** Same asset, other decimals (rounded down: a bridge never delivers more than it took). */
export function rescale(amount: bigint, fromDecimals: number, toDecimals: number): bigint {
  if (fromDecimals === toDecimals) return amount;
  return toDecimals > fromDecimals ? amount * 10n ** BigInt(toDecimals - fromDecimals) : amount / 10n ** BigInt(fromDecimals - toDecimals);
}
