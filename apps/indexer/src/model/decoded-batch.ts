/**
 * The contract between the ingest pipeline (fetch -> decode -> write raw rows) and the derivation
 * stage (prices, token state, price points, candles, activities with USD values).
 *
 * The pipeline decodes one contiguous block range [fromBlock, toBlock] of one network into a
 * DecodedBatch, writes its own tables (blocks, cursor, tokens registry, pools, pool_ticks,
 * transfers, balances) and then calls `Deriver.applyBatch` inside the same database transaction.
 * Everything is in chain order (block number, then log index). Addresses are lowercase 0x strings;
 * amounts are bigint base units.
 */
import type { PoolFamily } from './registry.types';
import type { Network } from '@tokensvc/domain';

export interface LogPosition {
  blockNumber: number;
  logIndex: number;
  txHash: string;
}

export interface BlockHeader {
  number: number;
  hash: string;
  parentHash: string;
  /** unix seconds */
  timestamp: number;
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

/**
 * A token's bookkeeping as read on chain (eth_call) at the batch's first block, replacing what
 * events built before: the start-block bootstrap, for tokens whose earlier history is not read.
 */
export interface LedgerSeed {
  token: string;
  /** ERC-20 totalSupply() (aTokens: derived from the scaled supply instead) */
  totalSupply: bigint;
  /** balanceOf of the zero and dead addresses (supply that is not circulating) */
  lockedBalances: ReadonlyMap<string, bigint>;
  /** vault / aToken: its asset balance */
  assets?: bigint;
  /** aToken: scaled supply and variable debt, the reserve's indexes and rates (ray) */
  aave?: { scaledSupply: bigint; scaledDebt: bigint; liquidityIndex: bigint; borrowIndex: bigint; liquidityRate: bigint; borrowRate: bigint };
}

export interface DecodedBatch {
  network: Network;
  fromBlock: number;
  toBlock: number;
  /** every block of the range that the pipeline stored (at least those with events) */
  blocks: BlockHeader[];
  transfers: TransferEvent[];
  poolStates: PoolStateEvent[];
  swaps: SwapEvent[];
  liquidity: LiquidityEvent[];
  vaultFlows: VaultFlowEvent[];
  lending: LendingEvent[];
  reserveRates: ReserveRatesEvent[];
  /** token keys registered by this batch (new pools, vaults, markets, their underlying tokens) */
  newTokens: string[];
  /** ledgers read at `fromBlock`, applied before its events (only the start-block bootstrap has them) */
  ledgers?: LedgerSeed[];
}
