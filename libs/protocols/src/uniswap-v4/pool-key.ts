/**
 * A Uniswap V4 pool is not a contract: it is an id inside the PoolManager, keccak256 of its key
 * (currency0, currency1, fee, tickSpacing, hooks). The native coin is currency address(0), the
 * service's own name for it (ZERO_ADDRESS), so a native pool's token0 is the native token.
 */
import { AbiCoder, keccak256 } from 'ethers';
import { ZERO_ADDRESS } from '@tokensvc/domain';

export interface V4PoolKey {
  currency0: string;
  currency1: string;
  /** LP fee in pips (hundredths of a bip) */
  fee: number;
  tickSpacing: number;
  hooks: string;
}

/** The key of a hookless pool of two currencies (sorted here: currency0 < currency1 as numbers). */
export function hooklessPoolKey(a: string, b: string, fee: number, tickSpacing: number): V4PoolKey {
  const [currency0, currency1] = BigInt(a) < BigInt(b) ? [a, b] : [b, a];
  return { currency0, currency1, fee, tickSpacing, hooks: ZERO_ADDRESS };
}

/** PoolId = keccak256(abi.encode(PoolKey)), lowercase: the pool's `address` in the service. */
export function v4PoolId(key: V4PoolKey): string {
  return keccak256(
    AbiCoder.defaultAbiCoder().encode(
      ['address', 'address', 'uint24', 'int24', 'address'],
      [key.currency0, key.currency1, key.fee, key.tickSpacing, key.hooks],
    ),
  ).toLowerCase();
}

export const POOL_KEY_TUPLE = 'tuple(address currency0, address currency1, uint24 fee, int24 tickSpacing, address hooks)';
