/**
 * How much of which token to swap through a V2 pair before adding liquidity with everything held,
 * so that what is left and what the swap returns are in the pair's new ratio. Generalises the
 * single-sided zap (routing's optimalZapSwapAmount) to holding both tokens: the largest swap that
 * does not overshoot the ratio, found by bisection over the exact V2 output.
 */
import { getAmountOut, type V2Pool } from '@tokensvc/routing';

export interface DepositSwap {
  /** token to sell through the pair, or undefined when the holdings are already in ratio */
  tokenIn?: string;
  amount: bigint;
}

export function depositSwap(pair: V2Pool, held0: bigint, held1: bigint): DepositSwap {
  const { reserve0, reserve1 } = pair;
  if (reserve0 === 0n || reserve1 === 0n) return { amount: 0n };
  // Excess side: the one worth more than the pair's ratio can take together with the other.
  const sellZero = held0 * reserve1 > held1 * reserve0;
  const [heldIn, heldOther, reserveIn, reserveOut] = sellZero ? [held0, held1, reserve0, reserve1] : [held1, held0, reserve1, reserve0];
  // f(s) >= 0 while (heldIn - s) / (heldOther + out) is still above (reserveIn + s) / (reserveOut - out).
  const balanced = (s: bigint): boolean => {
    const out = s === 0n ? 0n : getAmountOut(s, reserveIn, reserveOut, pair.fee);
    return (heldIn - s) * (reserveOut - out) >= (heldOther + out) * (reserveIn + s);
  };
  let lo = 0n;
  let hi = heldIn;
  while (lo < hi) {
    const mid = (lo + hi + 1n) / 2n;
    if (balanced(mid)) lo = mid;
    else hi = mid - 1n;
  }
  return lo === 0n ? { amount: 0n } : { tokenIn: sellZero ? pair.token0 : pair.token1, amount: lo };
}
