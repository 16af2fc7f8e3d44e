/**
 * What a V4 position change moves: the PoolManager holds every pool's tokens together, so a pool's
 * reserves are not a balance anyone can read; they are counted from its events. The amounts of a
 * liquidity change are v4-core's Pool.modifyLiquidity: SqrtPriceMath over the range and the price
 * before the change, rounded up when liquidity is added and down when it is removed.
 */
import { getAmount0Delta, getAmount1Delta, getSqrtRatioAtTick } from '@tokensvc/routing';

/** Token amounts (positive: into the pool; negative: out) of adding `liquidityDelta` (signed) over [tickLower, tickUpper). */
export function liquidityAmounts(
  sqrtPriceX96: bigint,
  tick: number,
  tickLower: number,
  tickUpper: number,
  liquidityDelta: bigint,
): { amount0: bigint; amount1: bigint } {
  const add = liquidityDelta >= 0n;
  const l = add ? liquidityDelta : -liquidityDelta;
  const sqrtLower = getSqrtRatioAtTick(tickLower);
  const sqrtUpper = getSqrtRatioAtTick(tickUpper);
  let amount0 = 0n;
  let amount1 = 0n;
  if (tick < tickLower) amount0 = getAmount0Delta(sqrtLower, sqrtUpper, l, add);
  else if (tick < tickUpper) {
    amount0 = getAmount0Delta(sqrtPriceX96, sqrtUpper, l, add);
    amount1 = getAmount1Delta(sqrtLower, sqrtPriceX96, l, add);
  } else amount1 = getAmount1Delta(sqrtLower, sqrtUpper, l, add);
  return add ? { amount0, amount1 } : { amount0: -amount0, amount1: -amount1 };
}
