/**
 * The events a protocol module's indexer facet decodes from logs (into the IndexingSink), in chain
 * order (block number, then log index). Addresses are lowercase 0x strings; amounts bigint base
 * units. The indexer's DecodedBatch carries them to the derivation stage.
 */
import type { PoolFamily } from './registry-types';

export interface LogPosition {
  blockNumber: number;
  logIndex: number;
  txHash: string;
}

/** An ERC-20 Transfer of a registered token (mints from and burns to the zero address). */
export interface TransferEvent extends LogPosition {
  token: string;
  from: string;
  to: string;
  value: bigint;
}

/** The state of a pool after one of its events (V2 Sync, V3 Swap/Mint/Burn/Initialize). */
export interface PoolStateEvent extends LogPosition {
  pool: string;
  family: PoolFamily;
  reserve0: bigint;
  reserve1: bigint;
  /** V3 only */
  sqrtPriceX96?: bigint;
  liquidity?: bigint;
  tick?: number;
}

/** A swap in a pool, as amounts that went in and came out (always positive). */
export interface SwapEvent extends LogPosition {
  pool: string;
  family: PoolFamily;
  /** the address that initiated it (V2 `to`/`sender`, V3 `recipient`) */
  account: string;
  tokenIn: string;
  tokenOut: string;
  amountIn: bigint;
  amountOut: bigint;
}

/** Liquidity added to or removed from a pool (V2 Mint/Burn, V3 Mint/Burn). */
export interface LiquidityEvent extends LogPosition {
  pool: string;
  family: PoolFamily;
  kind: 'deposit' | 'withdraw';
  account: string;
  amount0: bigint;
  amount1: bigint;
  /** LP tokens minted/burned (V2) or liquidity units (V3) */
  shares: bigint;
  tickLower?: number;
  tickUpper?: number;
}

/** ERC-4626 Deposit / Withdraw. */
export interface VaultFlowEvent extends LogPosition {
  vault: string;
  kind: 'deposit' | 'withdraw';
  account: string;
  assets: bigint;
  shares: bigint;
}

/** Aave V3 Supply / Withdraw / Borrow / Repay on one reserve (asset). */
export interface LendingEvent extends LogPosition {
  market: string;
  /** the underlying asset of the reserve */
  asset: string;
  kind: 'deposit' | 'withdraw' | 'borrow' | 'repay';
  account: string;
  amount: bigint;
}

/** Aave V3 ReserveDataUpdated: rates in ray (1e27) per year, indexes in ray. */
export interface ReserveRatesEvent extends LogPosition {
  market: string;
  asset: string;
  liquidityRate: bigint;
  variableBorrowRate: bigint;
  liquidityIndex: bigint;
  variableBorrowIndex: bigint;
}
