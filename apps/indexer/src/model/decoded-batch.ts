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
import type { Network } from '@tokensvc/domain';

export type {
  LogPosition,
  TransferEvent,
  PoolStateEvent,
  SwapEvent,
  LiquidityEvent,
  VaultFlowEvent,
  LendingEvent,
  ReserveRatesEvent,
} from '@tokensvc/protocols';
import type {
  LendingEvent,
  LiquidityEvent,
  PoolStateEvent,
  ReserveRatesEvent,
  SwapEvent,
  TransferEvent,
  VaultFlowEvent,
} from '@tokensvc/protocols';

export interface BlockHeader {
  number: number;
  hash: string;
  parentHash: string;
  /** unix seconds */
  timestamp: number;
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
  aave?: {
    scaledSupply: bigint;
    scaledDebt: bigint;
    liquidityIndex: bigint;
    borrowIndex: bigint;
    liquidityRate: bigint;
    borrowRate: bigint;
  };
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
