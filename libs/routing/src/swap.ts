/** Exact single-pool swaps over the Pool union: what the pool would pay at this state. */
import { type Pool, isZeroForOne } from './pool';
import { getAmountOut } from './v2/v2-math';
import { quoteV3ExactIn } from './v3/v3-swap';

export interface PoolSwap {
  /** consumed input (a V3 pool may run out of liquidity and take less) */
  amountIn: bigint;
  amountOut: bigint;
  /** the pool after the swap */
  after: Pool;
  /** V3 initialized ticks crossed (gas), 0 for V2 */
  ticksCrossed: number;
}

export function swapExactIn(pool: Pool, tokenIn: string, amountIn: bigint): PoolSwap {
  const zeroForOne = isZeroForOne(pool, tokenIn);
  switch (pool.family) {
    case 'uniswap-v2': {
      const [reserveIn, reserveOut] = zeroForOne ? [pool.reserve0, pool.reserve1] : [pool.reserve1, pool.reserve0];
      const amountOut = getAmountOut(amountIn, reserveIn, reserveOut, pool.fee);
      const after = zeroForOne ? { ...pool, reserve0: reserveIn + amountIn, reserve1: reserveOut - amountOut } : { ...pool, reserve0: reserveOut - amountOut, reserve1: reserveIn + amountIn };
      return { amountIn, amountOut, after, ticksCrossed: 0 };
    }
    case 'uniswap-v3':
      return quoteV3ExactIn(pool, tokenIn, amountIn);
  }
}
