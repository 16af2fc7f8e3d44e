import type { PlatformFamily } from '@tokensvc/domain';

/** A family whose pools route swaps (its protocol module has a DEX facet: checked where a pool is registered). */
export type PoolFamily = PlatformFamily;

/** Static facts of a pool, known from its creation event. */
export interface PoolInfo {
  address: string;
  platform: string;
  family: PoolFamily;
  token0: string;
  token1: string;
  /** hundredths of a bip (V2: 3000) */
  fee: number;
  tickSpacing: number | null;
  createdBlock: number;
}

/**
 * A pool's state after the last change applied: V2 reserves from Sync; V3 reserves are the pool's
 * token balances (from Transfers), price/tick/liquidity from Initialize, Swap, Mint and Burn.
 */
export interface PoolState {
  reserve0: bigint;
  reserve1: bigint;
  sqrtPriceX96: bigint | null;
  liquidity: bigint | null;
  tick: number | null;
  blockNumber: number;
  logIndex: number;
}

/** A token the pipeline registers (its ERC-20 metadata is read once, in the batch that finds it). */
export interface TokenSeed {
  address: string;
  platform: string;
  family: PlatformFamily;
  /** lowercase addresses of the tokens it is made of */
  underlying: string[];
  poolAddress: string | null;
  /** listed in the manifest/config token list (verified) */
  listed: boolean;
  metadata: Record<string, unknown>;
  /**
   * it existed before the block it is registered in, whose earlier events are not read: a
   * configured token added to a network already indexed (an underlying found mid-history is
   * partial anyway: family basic, not listed). See TokenRow.historyFromBlock
   */
  partial?: boolean;
}

export type Discovery =
  | { kind: 'pool'; pool: PoolInfo }
  | { kind: 'token'; token: TokenSeed }
  /** an Aave-style market contract whose events are read from now on */
  | { kind: 'market'; address: string; platform: string };

/** A change of a V3 pool's liquidity at one tick in one block (net and gross deltas). */
export interface TickDelta {
  pool: string;
  tick: number;
  blockNumber: number;
  net: bigint;
  gross: bigint;
}
