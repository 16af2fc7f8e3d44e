/** Uniswap V2 liquidity maths: Router02._addLiquidity, UniswapV2Pair.mint/burn (with _mintFee). */
import { min, sqrt } from '../math/big';
import type { V2Pool } from '../pool';
import { quote } from './v2-math';

export const MINIMUM_LIQUIDITY = 1000n;

/** A V2 pair with what its LP token maths needs besides the reserves. */
export interface V2Pair extends V2Pool {
  totalSupply: bigint;
  /** reserve0*reserve1 at the last mint/burn; only when the factory's protocol fee (feeTo) is on */
  kLast?: bigint;
}

/** What Router02.addLiquidity deposits out of the desired amounts (the rest stays with the caller). */
export function addLiquidityAmounts(
  amountADesired: bigint,
  amountBDesired: bigint,
  reserveA: bigint,
  reserveB: bigint,
): { amountA: bigint; amountB: bigint } {
  if (reserveA === 0n && reserveB === 0n) return { amountA: amountADesired, amountB: amountBDesired };
  const amountBOptimal = quote(amountADesired, reserveA, reserveB);
  if (amountBOptimal <= amountBDesired) return { amountA: amountADesired, amountB: amountBOptimal };
  return { amountA: quote(amountBDesired, reserveB, reserveA), amountB: amountBDesired };
}

/** totalSupply after _mintFee: the protocol's share of fee growth is minted before any mint or burn. */
export function supplyAfterProtocolFee(pair: V2Pair): bigint {
  if (pair.kLast === undefined || pair.kLast === 0n) return pair.totalSupply;
  const rootK = sqrt(pair.reserve0 * pair.reserve1);
  const rootKLast = sqrt(pair.kLast);
  if (rootK <= rootKLast) return pair.totalSupply;
  const minted = (pair.totalSupply * (rootK - rootKLast)) / (rootK * 5n + rootKLast);
  return pair.totalSupply + minted;
}

/** LP tokens UniswapV2Pair.mint gives for depositing amount0/amount1. */
export function mintLiquidity(pair: V2Pair, amount0: bigint, amount1: bigint): bigint {
  const supply = supplyAfterProtocolFee(pair);
  if (supply === 0n) {
    const liquidity = sqrt(amount0 * amount1) - MINIMUM_LIQUIDITY;
    return liquidity > 0n ? liquidity : 0n;
  }
  return min((amount0 * supply) / pair.reserve0, (amount1 * supply) / pair.reserve1);
}

/** Tokens UniswapV2Pair.burn pays for `liquidity` LP tokens (reserves equal balances). */
export function burnLiquidity(pair: V2Pair, liquidity: bigint): { amount0: bigint; amount1: bigint } {
  const supply = supplyAfterProtocolFee(pair);
  if (supply === 0n) throw new RangeError('pair has no liquidity');
  return { amount0: (liquidity * pair.reserve0) / supply, amount1: (liquidity * pair.reserve1) / supply };
}
