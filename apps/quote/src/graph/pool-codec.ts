/** PoolStateChanged events and `pools` rows into the routing library's Pool union. */
import type { PoolStateChanged } from '@tokensvc/messages';
import { dexOf, type PoolRow } from '@tokensvc/protocols';
import type { Pool } from '@tokensvc/routing';
import type { PoolUpdate } from './network-graph';

/** A `pools` row or a PoolStateChanged event as the modules decode it. */
export type PoolFields = PoolRow;

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
