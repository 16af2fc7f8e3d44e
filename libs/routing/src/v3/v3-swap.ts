/**
 * UniswapV3Pool.swap's loop over plain pool data: the same steps, the same rounding, so the
 * amounts equal the pool's (and QuoterV2's) to the unit. Protocol fees and oracle writes do not
 * change amounts and are left out.
 */
import { MAX_UINT128 } from '../math/big';
import { type V3Pool, isZeroForOne } from '../pool';
import { computeSwapStep } from './swap-math';
import { liquidityNetAt, nextInitializedTickWithinOneWord } from './tick-bitmap';
import { MAX_SQRT_RATIO, MAX_TICK, MIN_SQRT_RATIO, MIN_TICK, getSqrtRatioAtTick, getTickAtSqrtRatio } from './tick-math';

export interface V3SwapResult {
  /** pool deltas: positive = paid into the pool, negative = paid out (the pool's sign convention) */
  amount0: bigint;
  amount1: bigint;
  sqrtPriceX96: bigint;
  tick: number;
  liquidity: bigint;
  /** initialized ticks whose liquidity was applied */
  ticksCrossed: number;
}

/**
 * `amountSpecified` > 0: exact input, < 0: exact output. Without a price limit the swap may run
 * to the end of the liquidity (like QuoterV2 with sqrtPriceLimitX96 = 0, a partial fill).
 */
export function swapV3(pool: V3Pool, zeroForOne: boolean, amountSpecified: bigint, sqrtPriceLimitX96?: bigint): V3SwapResult {
  if (amountSpecified === 0n) throw new RangeError('AS');
  const limit = sqrtPriceLimitX96 ?? (zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n);
  const validLimit = zeroForOne ? limit < pool.sqrtPriceX96 && limit > MIN_SQRT_RATIO : limit > pool.sqrtPriceX96 && limit < MAX_SQRT_RATIO;
  if (!validLimit) throw new RangeError('SPL');
  const exactInput = amountSpecified > 0n;
  let remaining = amountSpecified;
  let calculated = 0n;
  let sqrtPriceX96 = pool.sqrtPriceX96;
  let tick = pool.tick;
  let liquidity = pool.liquidity;
  let ticksCrossed = 0;

  while (remaining !== 0n && sqrtPriceX96 !== limit) {
    const start = sqrtPriceX96;
    const step = nextInitializedTickWithinOneWord(pool.ticks, tick, pool.tickSpacing, zeroForOne);
    const tickNext = Math.min(MAX_TICK, Math.max(MIN_TICK, step.next));
    const sqrtPriceNextX96 = getSqrtRatioAtTick(tickNext);
    const target = (zeroForOne ? sqrtPriceNextX96 < limit : sqrtPriceNextX96 > limit) ? limit : sqrtPriceNextX96;
    const s = computeSwapStep(sqrtPriceX96, target, liquidity, remaining, pool.fee);
    sqrtPriceX96 = s.sqrtRatioNextX96;
    if (exactInput) {
      remaining -= s.amountIn + s.feeAmount;
      calculated -= s.amountOut;
    } else {
      remaining += s.amountOut;
      calculated += s.amountIn + s.feeAmount;
    }
    if (sqrtPriceX96 === sqrtPriceNextX96) {
      if (step.initialized) {
        const net = liquidityNetAt(pool.ticks, tickNext);
        liquidity += zeroForOne ? -net : net;
        if (liquidity < 0n || liquidity > MAX_UINT128)
          throw new RangeError(`liquidity out of range crossing tick ${tickNext} of ${pool.address}`);
        ticksCrossed++;
      }
      tick = zeroForOne ? tickNext - 1 : tickNext;
    } else if (sqrtPriceX96 !== start) {
      tick = getTickAtSqrtRatio(sqrtPriceX96);
    }
  }

  const [amount0, amount1] =
    zeroForOne === exactInput ? [amountSpecified - remaining, calculated] : [calculated, amountSpecified - remaining];
  return { amount0, amount1, sqrtPriceX96, tick, liquidity, ticksCrossed };
}

export interface V3Quote {
  /** consumed input: less than asked when the pool runs out of liquidity */
  amountIn: bigint;
  amountOut: bigint;
  after: V3Pool;
  ticksCrossed: number;
}

function toQuote(pool: V3Pool, zeroForOne: boolean, r: V3SwapResult): V3Quote {
  const [amountIn, amountOut] = zeroForOne ? [r.amount0, -r.amount1] : [r.amount1, -r.amount0];
  return {
    amountIn,
    amountOut,
    ticksCrossed: r.ticksCrossed,
    after: { ...pool, sqrtPriceX96: r.sqrtPriceX96, tick: r.tick, liquidity: r.liquidity },
  };
}

/** QuoterV2.quoteExactInputSingle without a price limit. */
export function quoteV3ExactIn(pool: V3Pool, tokenIn: string, amountIn: bigint): V3Quote {
  const zeroForOne = isZeroForOne(pool, tokenIn);
  return toQuote(pool, zeroForOne, swapV3(pool, zeroForOne, amountIn));
}

/** QuoterV2.quoteExactOutputSingle; undefined when the pool cannot pay `amountOut` in full (the quoter reverts). */
export function quoteV3ExactOut(pool: V3Pool, tokenIn: string, amountOut: bigint): V3Quote | undefined {
  const zeroForOne = isZeroForOne(pool, tokenIn);
  const quote = toQuote(pool, zeroForOne, swapV3(pool, zeroForOne, -amountOut));
  return quote.amountOut === amountOut ? quote : undefined;
}
