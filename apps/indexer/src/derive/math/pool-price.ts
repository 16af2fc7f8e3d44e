/**
 * Spot prices and depths of constant-product (V2) and concentrated-liquidity (V3) pools, in human
 * units (decimals applied). Doubles are fine here: prices only need ~1e-12 relative precision.
 */
import { toUnits } from '@tokensvc/domain';
import type { PoolShape } from '@tokensvc/routing';

const Q96 = 2 ** 96;

export interface PoolSnapshot {
  /** the pool's invariant (its protocol module's shape) */
  shape: PoolShape;
  reserve0: bigint;
  reserve1: bigint;
  sqrtPriceX96?: bigint;
  liquidity?: bigint;
}

/** A pool as the price graph sees it: the price of token0 in token1 and each side's depth. */
export interface PoolQuote {
  price0In1: number;
  depth0: number;
  depth1: number;
}

/** Price of token0 in token1 from V2 reserves (base units) and decimals. */
export function v2Price(reserve0: bigint, reserve1: bigint, decimals0: number, decimals1: number): number {
  const h0 = toUnits(reserve0, decimals0);
  return h0 > 0 ? toUnits(reserve1, decimals1) / h0 : 0;
}

/** Price of token0 in token1 from a V3 sqrtPriceX96: (sqrtP / 2^96)^2 * 10^(d0 - d1). */
export function v3Price(sqrtPriceX96: bigint, decimals0: number, decimals1: number): number {
  const sp = Number(sqrtPriceX96) / Q96;
  return sp * sp * 10 ** (decimals0 - decimals1);
}

/** The in-range ("virtual") reserves of a V3 pool in base units: L / sqrtP and L * sqrtP. */
export function v3VirtualReserves(sqrtPriceX96: bigint, liquidity: bigint): { reserve0: number; reserve1: number } {
  const sp = Number(sqrtPriceX96) / Q96;
  const l = Number(liquidity);
  return sp > 0 ? { reserve0: l / sp, reserve1: l * sp } : { reserve0: 0, reserve1: 0 };
}

/**
 * The graph quote of a pool, or undefined when it has no usable price (empty V2 pool, V3 pool not
 * initialised or without in-range liquidity). V3 depth is the pool's token balances when the
 * pipeline reports them (reserve0/1), else its virtual reserves.
 */
export function poolQuote(pool: PoolSnapshot, decimals0: number, decimals1: number): PoolQuote | undefined {
  switch (pool.shape) {
    case 'constant-product': {
      const price0In1 = v2Price(pool.reserve0, pool.reserve1, decimals0, decimals1);
      if (!(price0In1 > 0) || pool.reserve1 === 0n) return undefined;
      return { price0In1, depth0: toUnits(pool.reserve0, decimals0), depth1: toUnits(pool.reserve1, decimals1) };
    }
    case 'concentrated':
      return concentratedQuote(pool, decimals0, decimals1);
  }
}

function concentratedQuote(pool: PoolSnapshot, decimals0: number, decimals1: number): PoolQuote | undefined {
  if (!pool.sqrtPriceX96 || !pool.liquidity) return undefined;
  const price0In1 = v3Price(pool.sqrtPriceX96, decimals0, decimals1);
  if (!(price0In1 > 0) || !Number.isFinite(price0In1)) return undefined;
  if (pool.reserve0 > 0n || pool.reserve1 > 0n) {
    return { price0In1, depth0: toUnits(pool.reserve0, decimals0), depth1: toUnits(pool.reserve1, decimals1) };
  }
  const v = v3VirtualReserves(pool.sqrtPriceX96, pool.liquidity);
  return { price0In1, depth0: v.reserve0 / 10 ** decimals0, depth1: v.reserve1 / 10 ** decimals1 };
}
