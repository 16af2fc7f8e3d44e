/** PoolStateChanged events and `pools` rows into the routing library's Pool union. */
import type { PoolStateChanged } from '@tokensvc/messages';
import type { PoolDescription } from '@tokensvc/persistence';
import type { Pool } from '@tokensvc/routing';
import type { PoolUpdate } from './network-graph';

export interface PoolFields extends PoolDescription {
  tickSpacing: number | null;
  reserve0: string;
  reserve1: string;
  sqrtPriceX96: string | null;
  liquidity: string | null;
  tick: number | null;
}

const big = (v: string | null | undefined): bigint => (v === null || v === undefined || v === '' ? 0n : BigInt(v));

/** undefined for families the router cannot swap through */
export function toPool(f: PoolFields): Pool | undefined {
  const base = { address: f.address.toLowerCase(), token0: f.token0.toLowerCase(), token1: f.token1.toLowerCase(), fee: f.fee };
  switch (f.family) {
    case 'uniswap-v2':
      return { ...base, family: 'uniswap-v2', reserve0: big(f.reserve0), reserve1: big(f.reserve1) };
    case 'uniswap-v3':
      if (f.tickSpacing === null || f.tickSpacing <= 0 || f.tick === null) return undefined;
      return { ...base, family: 'uniswap-v3', tickSpacing: f.tickSpacing, sqrtPriceX96: big(f.sqrtPriceX96), liquidity: big(f.liquidity), tick: f.tick, ticks: [] };
    default:
      return undefined;
  }
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
    tick: msg.family === 'uniswap-v3' ? msg.tick : null,
  });
  if (!pool) return undefined;
  return { pool, platform: msg.platform, position: { block: Number(msg.blockNumber), logIndex: msg.logIndex }, restored: msg.restored };
}
