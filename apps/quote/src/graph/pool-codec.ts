/** PoolStateChanged events and `pools` rows into the routing library's Pool union. */
import type { PoolStateChanged } from '@tokensvc/messages';
import { dexOf, type PoolRow } from '@tokensvc/protocols';
import type { Pool } from '@tokensvc/routing';
import { ZERO_ADDRESS } from '@tokensvc/domain';
import type { PoolUpdate } from './network-graph';

/** A `pools` row or a PoolStateChanged event as the modules decode it. */
export type PoolFields = PoolRow;

/**
 * A pool with the native coin as a token (address(0): a Uniswap V4 currency) is routed with the
 * network's wrapped native token in its place: inside the executor native amounts are always held
 * wrapped (plan-order.ts wraps a native input first and unwraps a native output last), and the
 * pool's module unwraps and wraps around its swap (it recognises the pool by its id).
 */
export function nativeAsWrapped(pool: Pool, wrappedNative: string): Pool {
  if (pool.token0 === ZERO_ADDRESS) return { ...pool, token0: wrappedNative };
  if (pool.token1 === ZERO_ADDRESS) return { ...pool, token1: wrappedNative };
  return pool;
}

/** undefined for families the router cannot swap through, and for pools not routable yet (each module's rule) */
export function toPool(f: PoolFields): Pool | undefined {
  return dexOf(f.family)?.toPool(f);
}

export function updateFromEvent(msg: PoolStateChanged): PoolUpdate | undefined {
  const pool = toPool({
    address: msg.pool,
    platform: msg.platform,
    family: msg.family,
    token0: msg.token0,
    token1: msg.token1,
    fee: msg.fee,
    tickSpacing: msg.tickSpacing || null,
    reserve0: msg.reserve0,
    reserve1: msg.reserve1,
    sqrtPriceX96: msg.sqrtPriceX96,
    liquidity: msg.liquidity,
    // proto3 has no null: a pool without a tick (constant product) publishes 0 and no tick spacing.
    tick: msg.tickSpacing ? msg.tick : null,
  });
  if (!pool) return undefined;
  return { pool, platform: msg.platform, position: { block: Number(msg.blockNumber), logIndex: msg.logIndex }, restored: msg.restored };
}
