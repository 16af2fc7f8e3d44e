/**
 * Pools as plain data: what the routing maths needs to know about a pool at one block. Token
 * addresses are lowercase; amounts are base units.
 */

export type PoolFamily = 'uniswap-v2' | 'uniswap-v3';

interface PoolBase {
  address: string;
  token0: string;
  token1: string;
  /** swap fee in hundredths of a bip (V3 convention): 3000 = 0.3 % */
  fee: number;
}

export interface V2Pool extends PoolBase {
  family: 'uniswap-v2';
  reserve0: bigint;
  reserve1: bigint;
}

export interface V3Tick {
  index: number;
  liquidityNet: bigint;
}

export interface V3Pool extends PoolBase {
  family: 'uniswap-v3';
  tickSpacing: number;
  sqrtPriceX96: bigint;
  /** in-range liquidity */
  liquidity: bigint;
  tick: number;
  /**
   * Every initialized tick (liquidityGross > 0, even with liquidityNet 0: the swap stops there),
   * ascending by index. Exactness needs all of them.
   */
  ticks: readonly V3Tick[];
}

export type Pool = V2Pool | V3Pool;

/** true when `tokenIn` is token0 (the swap sells token0 for token1). */
export function isZeroForOne(pool: Pool, tokenIn: string): boolean {
  if (tokenIn === pool.token0) return true;
  if (tokenIn === pool.token1) return false;
  throw new Error(`token ${tokenIn} is not in pool ${pool.address}`);
}

export function otherToken(pool: Pool, token: string): string {
  return isZeroForOne(pool, token) ? pool.token1 : pool.token0;
}
