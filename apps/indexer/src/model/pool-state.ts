/** Pool states the pipeline creates itself. */
import { shapeOf } from '@tokensvc/protocols';
import type { PoolFamily, PoolState } from './registry.types';

/** A pool's state before its first event: concentrated liquidity starts with 0 active liquidity, constant product with none. */
export function emptyPoolState(family: PoolFamily): Pick<PoolState, 'reserve0' | 'reserve1' | 'sqrtPriceX96' | 'liquidity' | 'tick'> {
  switch (shapeOf(family)) {
    case 'constant-product':
      return { reserve0: 0n, reserve1: 0n, sqrtPriceX96: null, liquidity: null, tick: null };
    case 'concentrated':
      return { reserve0: 0n, reserve1: 0n, sqrtPriceX96: null, liquidity: 0n, tick: null };
  }
}
