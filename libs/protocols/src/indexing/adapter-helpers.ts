import type { PlatformDefinition } from '@tokensvc/domain';
import type { IndexingSink } from './port';
import type { Discovery, PoolState } from './registry-types';

/** Address of a platform contract by role (`factory`, `pool`, ...), or undefined. */
export function roleAddress(platform: PlatformDefinition, role: string): string | undefined {
  return platform.addresses[role];
}

/** Values of `role.0`, `role.1`, ... (lists in the manifest are flattened that way). */
export function roleList(platform: PlatformDefinition, role: string): string[] {
  const out: string[] = [];
  for (let i = 0; platform.addresses[`${role}.${i}`] !== undefined; i++) out.push(platform.addresses[`${role}.${i}`]!);
  return out;
}

/** A token found as the underlying of a pool/vault/market: registered as a basic token if new. */
export function underlyingToken(address: string): Discovery {
  return {
    kind: 'token',
    token: { address, platform: 'basic', family: 'basic', underlying: [], poolAddress: null, listed: false, metadata: {} },
  };
}

/**
 * A concentrated-liquidity position changed by `delta` over [tickLower, tickUpper): the tick map's
 * net and gross at both ends, and the pool's active liquidity when the price is inside the range.
 * The rule of the shape, shared by every family of it (Uniswap V3's Mint/Burn, V4's ModifyLiquidity).
 */
export function applyRangeLiquidity(
  acc: IndexingSink,
  pool: string,
  state: PoolState,
  range: { tickLower: number; tickUpper: number; delta: bigint; blockNumber: number },
): void {
  const { tickLower, tickUpper, delta, blockNumber } = range;
  acc.addTickDelta(pool, tickLower, blockNumber, delta, delta);
  acc.addTickDelta(pool, tickUpper, blockNumber, -delta, delta);
  if (state.tick !== null && tickLower <= state.tick && state.tick < tickUpper) state.liquidity = (state.liquidity ?? 0n) + delta;
}
