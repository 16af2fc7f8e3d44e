/**
 * Activities of platform tokens, priced at the end of their block:
 * - V2 LP token: swaps on its pair (direction 0 = token0 -> token1, 1 = token1 -> token0) and
 *   liquidity added (deposit) / removed (withdraw);
 * - vault share: ERC-4626 Deposit / Withdraw; aToken: Aave supply (deposit), withdraw, borrow, repay.
 * volume_usd is the USD value moved (swap: the input side, or the output side when the input has
 * no price); volume_raw is the same volume in the platform token's own base units: LP shares
 * minted/burned, vault shares, aToken amount (1:1 with the asset), and for a swap the LP-token
 * equivalent of the input, amountIn * lpSupply / (2 * reserveIn).
 */
import type { LendingEvent, LiquidityEvent, LogPosition, SwapEvent, VaultFlowEvent } from '../../model/decoded-batch';
import { toUnits, type Network } from '@tokensvc/domain';
import { decimalString } from '@tokensvc/domain';

export type ActivityType = 'swap' | 'deposit' | 'withdraw' | 'borrow' | 'repay';

/** The spec's Flow / Position amount record (all strings; `account` on Position records). */
export interface AmountRecord {
  key: string;
  symbol: string;
  amount: string;
  amountUsd: string;
  account?: string;
}

export interface ActivityRow {
  network: Network;
  blockNumber: number;
  logIndex: number;
  tokenKey: string;
  txHash: string;
  time: number;
  type: ActivityType;
  account: string;
  direction: number;
  inputToken: string | null;
  inputAmount: bigint | null;
  inputUsd: number | null;
  outputToken: string | null;
  outputAmount: bigint | null;
  outputUsd: number | null;
  amounts: AmountRecord[];
  volumeRaw: bigint;
  volumeUsd: number;
}

/** What activities need to know about tokens at the end of the block. */
export interface PriceBook {
  network: Network;
  keyOf(address: string): string;
  symbolOf(address: string): string;
  decimalsOf(address: string): number;
  priceOf(address: string): number;
}

function usd(book: PriceBook, token: string, amount: bigint): number {
  return toUnits(amount, book.decimalsOf(token)) * book.priceOf(token);
}

function record(book: PriceBook, token: string, amount: bigint, account?: string): AmountRecord {
  const r: AmountRecord = {
    key: book.keyOf(token),
    symbol: book.symbolOf(token),
    amount: amount.toString(),
    amountUsd: decimalString(usd(book, token, amount)),
  };
  if (account !== undefined) r.account = account;
  return r;
}

function base(book: PriceBook, e: LogPosition, tokenKey: string, time: number, type: ActivityType, account: string): ActivityRow {
  return {
    network: book.network,
    blockNumber: e.blockNumber,
    logIndex: e.logIndex,
    tokenKey,
    txHash: e.txHash,
    time,
    type,
    account,
    direction: 0,
    inputToken: null,
    inputAmount: null,
    inputUsd: null,
    outputToken: null,
    outputAmount: null,
    outputUsd: null,
    amounts: [],
    volumeRaw: 0n,
    volumeUsd: 0,
  };
}

export interface PairContext {
  lpAddress: string;
  token0: string;
  /** the pair's reserve of the input token and the LP supply at the end of the block */
  reserveIn: bigint;
  lpSupply: bigint;
}

// Rows are filled in place rather than spread into new objects: `{ ...row, x }` is a slow
// generic copy in V8, and a batch makes tens of thousands of these.

/**
 * The USD volume of a swap at the book's prices: its input side, or its output side when the
 * input has no price. The one rule for swap activities' volume_usd and basic tokens' swap volume.
 */
export function swapVolumeUsd(inputUsd: number, outputUsd: number): number {
  return inputUsd > 0 ? inputUsd : outputUsd;
}

/** The USD values of a swap's input and output at the book's prices. */
export function swapSidesUsd(book: PriceBook, e: SwapEvent): { inputUsd: number; outputUsd: number } {
  return { inputUsd: usd(book, e.tokenIn, e.amountIn), outputUsd: usd(book, e.tokenOut, e.amountOut) };
}

export function swapActivity(book: PriceBook, e: SwapEvent, pair: PairContext, time: number): ActivityRow {
  const row = base(book, e, book.keyOf(pair.lpAddress), time, 'swap', e.account);
  const { inputUsd, outputUsd } = swapSidesUsd(book, e);
  row.direction = e.tokenIn === pair.token0 ? 0 : 1;
  row.inputToken = book.keyOf(e.tokenIn);
  row.inputAmount = e.amountIn;
  row.inputUsd = inputUsd;
  row.outputToken = book.keyOf(e.tokenOut);
  row.outputAmount = e.amountOut;
  row.outputUsd = outputUsd;
  row.volumeUsd = swapVolumeUsd(inputUsd, outputUsd);
  row.volumeRaw = pair.reserveIn > 0n ? (e.amountIn * pair.lpSupply) / (2n * pair.reserveIn) : 0n;
  return row;
}

export function liquidityActivity(
  book: PriceBook,
  e: LiquidityEvent,
  lpAddress: string,
  token0: string,
  token1: string,
  time: number,
): ActivityRow {
  const row = base(book, e, book.keyOf(lpAddress), time, e.kind, e.account);
  const lpUsd = usd(book, token0, e.amount0) + usd(book, token1, e.amount1);
  if (e.kind === 'deposit') {
    row.outputToken = row.tokenKey;
    row.outputAmount = e.shares;
    row.outputUsd = lpUsd;
  } else {
    row.inputToken = row.tokenKey;
    row.inputAmount = e.shares;
    row.inputUsd = lpUsd;
  }
  row.amounts = [record(book, token0, e.amount0), record(book, token1, e.amount1)];
  row.volumeRaw = e.shares;
  row.volumeUsd = lpUsd;
  return row;
}

type Side = { token: string; amount: bigint } | null;

/**
 * A single-asset flow between a composed token and its asset (vault deposit/withdraw, Aave):
 * deposit = asset in, token out; withdraw = token in, asset out; borrow = asset out; repay = asset in.
 */
function assetFlow(
  book: PriceBook,
  e: LogPosition,
  token: string,
  asset: string,
  type: Exclude<ActivityType, 'swap'>,
  account: string,
  assets: bigint,
  shares: bigint,
  time: number,
  withAccount: boolean,
): ActivityRow {
  const value = usd(book, asset, assets);
  const assetSide: Side = { token: asset, amount: assets };
  const tokenSide: Side = { token, amount: shares };
  const [input, output] =
    type === 'deposit'
      ? [assetSide, tokenSide]
      : type === 'withdraw'
        ? [tokenSide, assetSide]
        : type === 'borrow'
          ? [null, assetSide]
          : [assetSide, null];
  const row = base(book, e, book.keyOf(token), time, type, account);
  if (input) {
    row.inputToken = book.keyOf(input.token);
    row.inputAmount = input.amount;
    row.inputUsd = value;
  }
  if (output) {
    row.outputToken = book.keyOf(output.token);
    row.outputAmount = output.amount;
    row.outputUsd = value;
  }
  row.amounts = [record(book, asset, assets, withAccount ? account : undefined)];
  row.volumeRaw = shares;
  row.volumeUsd = value;
  return row;
}

export function vaultActivity(book: PriceBook, e: VaultFlowEvent, asset: string, time: number): ActivityRow {
  return assetFlow(book, e, e.vault, asset, e.kind, e.account, e.assets, e.shares, time, false);
}

/** Borrow and repay are the spec's Position records (with the account); supply/withdraw are Flows. */
export function lendingActivity(book: PriceBook, e: LendingEvent, aToken: string, time: number): ActivityRow {
  return assetFlow(book, e, aToken, e.asset, e.kind, e.account, e.amount, e.amount, time, e.kind === 'borrow' || e.kind === 'repay');
}
