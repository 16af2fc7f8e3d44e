/** Uniswap V3 SqrtPriceMath, bit for bit (including the overflow fallbacks that change rounding). */
import { MAX_UINT160, MAX_UINT256, Q96, divRoundingUp, mulDiv, mulDivRoundingUp } from '../math/big';

function toUint160(x: bigint): bigint {
  if (x > MAX_UINT160) throw new RangeError('uint160 overflow');
  return x;
}

export function getNextSqrtPriceFromAmount0RoundingUp(sqrtPX96: bigint, liquidity: bigint, amount: bigint, add: boolean): bigint {
  if (amount === 0n) return sqrtPX96;
  const numerator1 = liquidity << 96n;
  const product = amount * sqrtPX96;
  if (add) {
    // The contract takes the precise path only when neither the product nor the sum overflows.
    if (product <= MAX_UINT256 && numerator1 + product <= MAX_UINT256) {
      return mulDivRoundingUp(numerator1, sqrtPX96, numerator1 + product);
    }
    const sum = numerator1 / sqrtPX96 + amount;
    if (sum > MAX_UINT256) throw new RangeError('add overflow');
    return divRoundingUp(numerator1, sum);
  }
  if (product > MAX_UINT256 || numerator1 <= product) throw new RangeError('price underflow');
  return toUint160(mulDivRoundingUp(numerator1, sqrtPX96, numerator1 - product));
}

export function getNextSqrtPriceFromAmount1RoundingDown(sqrtPX96: bigint, liquidity: bigint, amount: bigint, add: boolean): bigint {
  // (amount << 96) / L and FullMath.mulDiv(amount, Q96, L) are the same exact quotient.
  if (add) return toUint160(sqrtPX96 + mulDiv(amount, Q96, liquidity));
  const quotient = mulDivRoundingUp(amount, Q96, liquidity);
  if (sqrtPX96 <= quotient) throw new RangeError('price underflow');
  return sqrtPX96 - quotient;
}

export function getNextSqrtPriceFromInput(sqrtPX96: bigint, liquidity: bigint, amountIn: bigint, zeroForOne: boolean): bigint {
  if (sqrtPX96 <= 0n || liquidity <= 0n) throw new RangeError('no price or liquidity');
  return zeroForOne
    ? getNextSqrtPriceFromAmount0RoundingUp(sqrtPX96, liquidity, amountIn, true)
    : getNextSqrtPriceFromAmount1RoundingDown(sqrtPX96, liquidity, amountIn, true);
}

export function getNextSqrtPriceFromOutput(sqrtPX96: bigint, liquidity: bigint, amountOut: bigint, zeroForOne: boolean): bigint {
  if (sqrtPX96 <= 0n || liquidity <= 0n) throw new RangeError('no price or liquidity');
  return zeroForOne
    ? getNextSqrtPriceFromAmount1RoundingDown(sqrtPX96, liquidity, amountOut, false)
    : getNextSqrtPriceFromAmount0RoundingUp(sqrtPX96, liquidity, amountOut, false);
}

export function getAmount0Delta(sqrtA: bigint, sqrtB: bigint, liquidity: bigint, roundUp: boolean): bigint {
  const [lower, upper] = sqrtA > sqrtB ? [sqrtB, sqrtA] : [sqrtA, sqrtB];
  if (lower <= 0n) throw new RangeError('sqrt price must be positive');
  const numerator1 = liquidity << 96n;
  const numerator2 = upper - lower;
  return roundUp ? divRoundingUp(mulDivRoundingUp(numerator1, numerator2, upper), lower) : mulDiv(numerator1, numerator2, upper) / lower;
}

export function getAmount1Delta(sqrtA: bigint, sqrtB: bigint, liquidity: bigint, roundUp: boolean): bigint {
  const [lower, upper] = sqrtA > sqrtB ? [sqrtB, sqrtA] : [sqrtA, sqrtB];
  return roundUp ? mulDivRoundingUp(liquidity, upper - lower, Q96) : mulDiv(liquidity, upper - lower, Q96);
}
