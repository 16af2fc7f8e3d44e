/** Exact single-pool swaps over the Pool union: what the pool would pay at this state. */
import { Q96 } from './math/big';
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
  switch (pool.shape) {
    case 'constant-product': {
      const [reserveIn, reserveOut] = zeroForOne ? [pool.reserve0, pool.reserve1] : [pool.reserve1, pool.reserve0];
      const amountOut = getAmountOut(amountIn, reserveIn, reserveOut, pool.fee);
      const after = zeroForOne
        ? { ...pool, reserve0: reserveIn + amountIn, reserve1: reserveOut - amountOut }
        : { ...pool, reserve0: reserveOut - amountOut, reserve1: reserveIn + amountIn };
      return { amountIn, amountOut, after, ticksCrossed: 0 };
    }
    case 'concentrated':
      return quoteV3ExactIn(pool, tokenIn, amountIn);
  }
}

/** Output the pool's marginal price gives for `amountIn`, before its fee (the no-impact figure; a double). */
export function marginalOut(pool: Pool, tokenIn: string, amountIn: bigint): number {
  const zeroForOne = isZeroForOne(pool, tokenIn);
  switch (pool.shape) {
    case 'constant-product': {
      const [rIn, rOut] = zeroForOne ? [pool.reserve0, pool.reserve1] : [pool.reserve1, pool.reserve0];
      return rIn === 0n ? 0 : (Number(amountIn) * Number(rOut)) / Number(rIn);
    }
    case 'concentrated': {
      const price = (Number(pool.sqrtPriceX96) / Number(Q96)) ** 2; // token1 per token0
      return zeroForOne ? Number(amountIn) * price : price === 0 ? 0 : Number(amountIn) / price;
    }
  }
}
