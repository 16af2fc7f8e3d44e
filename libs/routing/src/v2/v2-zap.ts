/**
 * Single-sided V2 zaps. Zap in: swap part of one token in the same pair, then add liquidity with
 * the rest and the proceeds. The part to swap solves g·s² + r(1e6 + g)·s − 1e6·a·r = 0 (g = 1e6 − fee,
 * r = reserve of the input token, a = amount): after the swap the remaining input and the proceeds
 * are exactly in the pool's new ratio, so almost nothing is left over.
 */
import { sqrt } from '../math/big';
import { isZeroForOne } from '../pool';
import { addLiquidityAmounts, burnLiquidity, mintLiquidity, type V2Pair } from './v2-liquidity';
import { getAmountOut } from './v2-math';

const FEE_DENOMINATOR = 1_000_000n;

/** How much of `amountIn` to swap before adding liquidity (rounded down). */
export function optimalZapSwapAmount(amountIn: bigint, reserveIn: bigint, fee = 3000): bigint {
  if (amountIn <= 0n || reserveIn <= 0n) throw new RangeError('amount and reserve must be positive');
  const g = FEE_DENOMINATOR - BigInt(fee);
  const b = reserveIn * (FEE_DENOMINATOR + g);
  const discriminant = b * b + 4n * g * FEE_DENOMINATOR * amountIn * reserveIn;
  return (sqrt(discriminant) - b) / (2n * g);
}

export interface V2ZapIn {
  swapAmount: bigint;
  swapOutput: bigint;
  /** deposited, in tokenIn and in the pair's other token */
  depositIn: bigint;
  depositOther: bigint;
  liquidity: bigint;
  /** left with the zapper (to be returned to the user) */
  residualIn: bigint;
  residualOther: bigint;
}

/** Swap through the pair, then Router02.addLiquidity with what the zapper holds. */
export function zapInV2(pair: V2Pair, tokenIn: string, amountIn: bigint): V2ZapIn {
  const zeroForOne = isZeroForOne(pair, tokenIn);
  const [reserveIn, reserveOther] = zeroForOne ? [pair.reserve0, pair.reserve1] : [pair.reserve1, pair.reserve0];
  const swapAmount = optimalZapSwapAmount(amountIn, reserveIn, pair.fee);
  const swapOutput = swapAmount > 0n ? getAmountOut(swapAmount, reserveIn, reserveOther, pair.fee) : 0n;
  const afterIn = reserveIn + swapAmount;
  const afterOther = reserveOther - swapOutput;
  const { amountA: depositIn, amountB: depositOther } = addLiquidityAmounts(amountIn - swapAmount, swapOutput, afterIn, afterOther);
  const afterSwap: V2Pair = zeroForOne
    ? { ...pair, reserve0: afterIn, reserve1: afterOther }
    : { ...pair, reserve0: afterOther, reserve1: afterIn };
  const liquidity = zeroForOne ? mintLiquidity(afterSwap, depositIn, depositOther) : mintLiquidity(afterSwap, depositOther, depositIn);
  return {
    swapAmount,
    swapOutput,
    depositIn,
    depositOther,
    liquidity,
    residualIn: amountIn - swapAmount - depositIn,
    residualOther: swapOutput - depositOther,
  };
}

export interface V2ZapOut {
  amount0: bigint;
  amount1: bigint;
  /** the other token's amount swapped into tokenOut, in the same pair after the burn */
  swapAmount: bigint;
  amountOut: bigint;
}

/** Burn `liquidity`, then swap the other token into `tokenOut` through the same pair. */
export function zapOutV2(pair: V2Pair, liquidity: bigint, tokenOut: string): V2ZapOut {
  const { amount0, amount1 } = burnLiquidity(pair, liquidity);
  const reserve0 = pair.reserve0 - amount0;
  const reserve1 = pair.reserve1 - amount1;
  const outIsZero = isZeroForOne(pair, tokenOut);
  const [kept, swapAmount, reserveIn, reserveOut] = outIsZero
    ? [amount0, amount1, reserve1, reserve0]
    : [amount1, amount0, reserve0, reserve1];
  const swapped = swapAmount > 0n && reserveIn > 0n && reserveOut > 0n ? getAmountOut(swapAmount, reserveIn, reserveOut, pair.fee) : 0n;
  return { amount0, amount1, swapAmount, amountOut: kept + swapped };
}
