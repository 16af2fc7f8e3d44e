/**
 * Pools as plain data: what the routing maths needs to know about a pool at one block. Token
 * addresses are lowercase; amounts are base units.
 *
 * The maths is chosen by the pool's `shape` (the invariant), never by its protocol: every
 * protocol whose pools follow the constant product (Uniswap V2 and its forks) or concentrated
 * liquidity (Uniswap V3 and V4, their forks) shares one implementation. `family` names the
 * protocol module that issued the pool (gas, calls and labels are the module's, see
 * libs/protocols), and is never switched on here.
 */
import type { PlatformFamily } from '@tokensvc/domain';

/** The invariants the routing maths implements; a switch over them is exhaustive. */
export const POOL_SHAPES = ['constant-product', 'concentrated'] as const;
export type PoolShape = (typeof POOL_SHAPES)[number];

interface PoolBase {
  /** the pool's address, or its id inside a singleton (lowercase) */
  address: string;
  /** the protocol module the pool belongs to (labels, gas and calls; not the maths) */
  family: PlatformFamily;
  token0: string;
  token1: string;
  /** swap fee in hundredths of a bip (V3 convention): 3000 = 0.3 % */
  fee: number;
}

/** x·y = k with the fee taken from the input (Uniswap V2 and its forks). */
export interface V2Pool extends PoolBase {
  shape: 'constant-product';
  reserve0: bigint;
  reserve1: bigint;
}

export interface V3Tick {
  index: number;
  liquidityNet: bigint;
}

/** Concentrated liquidity over ticks (Uniswap V3 and its forks). */
export interface V3Pool extends PoolBase {
  shape: 'concentrated';
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
