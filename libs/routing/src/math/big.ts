/** Fixed-width integer helpers with the rounding of Uniswap's FullMath/UnsafeMath, over bigint. */
import { MAX_UINT256 } from '@tokensvc/domain';

export const Q96 = 1n << 96n;
export const Q128 = 1n << 128n;
export const MAX_UINT128 = (1n << 128n) - 1n;
export const MAX_UINT160 = (1n << 160n) - 1n;
// One definition of 2^256-1 in the code base: libs/domain's amount module.
export { MAX_UINT256 };

/** floor(a * b / d); FullMath.mulDiv (which reverts where the result exceeds 256 bits). */
export function mulDiv(a: bigint, b: bigint, d: bigint): bigint {
  if (d === 0n) throw new RangeError('mulDiv by zero');
  const result = (a * b) / d;
  if (result > MAX_UINT256) throw new RangeError('mulDiv overflow');
  return result;
}

/** ceil(a * b / d); FullMath.mulDivRoundingUp. */
export function mulDivRoundingUp(a: bigint, b: bigint, d: bigint): bigint {
  const product = a * b;
  if (d === 0n) throw new RangeError('mulDiv by zero');
  const result = product / d + (product % d === 0n ? 0n : 1n);
  if (result > MAX_UINT256) throw new RangeError('mulDiv overflow');
  return result;
}

/** ceil(a / d) for a >= 0; UnsafeMath.divRoundingUp. */
export function divRoundingUp(a: bigint, d: bigint): bigint {
  return a / d + (a % d === 0n ? 0n : 1n);
}

/** floor(sqrt(n)) by Newton's method from above (Uniswap V2's Math.sqrt returns the same). */
export function sqrt(n: bigint): bigint {
  if (n < 0n) throw new RangeError('sqrt of a negative number');
  if (n < 2n) return n;
  // 2^ceil(bits/2) >= sqrt(n): from above, the iteration decreases monotonically to the floor.
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

export function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}
