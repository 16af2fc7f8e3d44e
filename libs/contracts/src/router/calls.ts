/**
 * Builders of executor calls. An amount that depends on what earlier calls produced is written
 * into the call data by the executor: encode the call with AMOUNT_PLACEHOLDER where the amount
 * goes and give the share of the executor's balance to use.
 */
import { Interface, zeroPadValue, toBeHex } from 'ethers';
import { ALL_BPS, type CallInput, type ExecutorCall, NATIVE_TOKEN, NO_OFFSET } from './types';

/** Fits every uint type from uint96 up, and is unlikely to appear in call data by chance. */
export const AMOUNT_PLACEHOLDER = 0x5a17_cafe_5a17_cafe_5a17_cafen;

const ERC20 = new Interface(['function transfer(address to, uint256 amount) returns (bool)']);
const WETH = new Interface(['function deposit() payable', 'function withdraw(uint256 amount)']);
const V2_ROUTER = new Interface([
  'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
]);
const V3_SWAP_ROUTER = new Interface([
  'function exactInputSingle(tuple(address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 deadline, uint256 amountIn, uint256 amountOutMinimum, uint160 sqrtPriceLimitX96) params) payable returns (uint256 amountOut)',
]);
/** SwapRouter02 (IV3SwapRouter): the same struct without `deadline`. */
const V3_SWAP_ROUTER02 = new Interface([
  'function exactInputSingle(tuple(address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 amountIn, uint256 amountOutMinimum, uint160 sqrtPriceLimitX96) params) payable returns (uint256 amountOut)',
]);

/** Byte offset of the one 32-byte word of `data` that holds AMOUNT_PLACEHOLDER. */
export function placeholderOffset(data: string): number {
  const word = zeroPadValue(toBeHex(AMOUNT_PLACEHOLDER), 32).slice(2);
  const hex = data.slice(2);
  const offsets: number[] = [];
  for (let at = 8; at + 64 <= hex.length; at += 64) if (hex.slice(at, at + 64) === word) offsets.push(at / 2);
  if (offsets.length !== 1) throw new Error(`call data must hold AMOUNT_PLACEHOLDER exactly once (found ${offsets.length})`);
  return offsets[0]!;
}

/** Spends `bps` of the executor's balance of `token` (all of it by default), written where the placeholder is. */
export function balanceInput(token: string, data: string, opts: { bps?: number; approve: boolean }): CallInput {
  return { token, bps: opts.bps ?? ALL_BPS, amount: 0n, offset: placeholderOffset(data), approve: opts.approve };
}

/** Approves a fixed amount for the call without touching its data. */
export function fixedApproval(token: string, amount: bigint): CallInput {
  return { token, bps: 0, amount, offset: NO_OFFSET, approve: true };
}

/** Sends the executor's whole balance of `token` to `to` (e.g. zap residuals back to the user). */
export function transferAllCall(token: string, to: string): ExecutorCall {
  const data = ERC20.encodeFunctionData('transfer', [to, AMOUNT_PLACEHOLDER]);
  return { target: token, value: 0n, data, inputs: [balanceInput(token, data, { approve: false })] };
}

/**
 * The executor's whole native balance as the value of the call (`value` is added to `Call.value`;
 * native is never approved). Written into the data at `offset` too unless NO_OFFSET.
 */
export function nativeBalanceInput(bps: number = ALL_BPS, offset: number = NO_OFFSET): CallInput {
  return { token: NATIVE_TOKEN, bps, amount: 0n, offset, approve: false };
}

/**
 * Wraps all the native the executor holds into `weth` (WETH9 `deposit()`). The Router hands native
 * input to the executor as native, so a route that spends it as WETH starts with this call.
 */
export function wrapAllCall(weth: string): ExecutorCall {
  return { target: weth, value: 0n, data: WETH.encodeFunctionData('deposit'), inputs: [nativeBalanceInput()] };
}

/**
 * Unwraps all the `weth` the executor holds (WETH9 `withdraw`). A native output is the executor's
 * native balance after the calls, so a route that ends in WETH ends with this call.
 */
export function unwrapAllCall(weth: string): ExecutorCall {
  const data = WETH.encodeFunctionData('withdraw', [AMOUNT_PLACEHOLDER]);
  return { target: weth, value: 0n, data, inputs: [balanceInput(weth, data, { approve: false })] };
}

export interface V2SwapCall {
  router02: string;
  path: readonly string[];
  to: string;
  deadline: bigint;
  /** share of the executor's balance of path[0] to swap (default all) */
  bps?: number;
  amountOutMin?: bigint;
}

/** Uniswap V2 Router02 swapExactTokensForTokens over `path`. */
export function uniswapV2SwapCall(p: V2SwapCall): ExecutorCall {
  const tokenIn = p.path[0];
  if (!tokenIn || p.path.length < 2) throw new Error('a V2 path needs at least two tokens');
  const data = V2_ROUTER.encodeFunctionData('swapExactTokensForTokens', [
    AMOUNT_PLACEHOLDER,
    p.amountOutMin ?? 0n,
    p.path,
    p.to,
    p.deadline,
  ]);
  return { target: p.router02, value: 0n, data, inputs: [balanceInput(tokenIn, data, { bps: p.bps, approve: true })] };
}

export interface V3SwapCall {
  swapRouter: string;
  tokenIn: string;
  tokenOut: string;
  fee: number;
  recipient: string;
  deadline: bigint;
  bps?: number;
  amountOutMinimum?: bigint;
}

/** Uniswap V3 SwapRouter (v3-periphery) exactInputSingle (no price limit); amountIn is struct word 5 (offset 164). */
export function uniswapV3SwapCall(p: V3SwapCall): ExecutorCall {
  const data = V3_SWAP_ROUTER.encodeFunctionData('exactInputSingle', [
    {
      tokenIn: p.tokenIn,
      tokenOut: p.tokenOut,
      fee: p.fee,
      recipient: p.recipient,
      deadline: p.deadline,
      amountIn: AMOUNT_PLACEHOLDER,
      amountOutMinimum: p.amountOutMinimum ?? 0n,
      sqrtPriceLimitX96: 0n,
    },
  ]);
  return { target: p.swapRouter, value: 0n, data, inputs: [balanceInput(p.tokenIn, data, { bps: p.bps, approve: true })] };
}

export type V3SwapRouter02Call = Omit<V3SwapCall, 'swapRouter' | 'deadline'> & { swapRouter02: string };

/**
 * Uniswap SwapRouter02 (swap-router-contracts) exactInputSingle (no price limit); amountIn is
 * struct word 4 (offset 132). SwapRouter02 takes no deadline in the struct (only through
 * multicall(deadline, data[])): callers rely on the deadline of whatever runs the call (the
 * project's Router checks the order deadline before the Executor runs any call).
 */
export function uniswapV3SwapRouter02Call(p: V3SwapRouter02Call): ExecutorCall {
  const data = V3_SWAP_ROUTER02.encodeFunctionData('exactInputSingle', [
    {
      tokenIn: p.tokenIn,
      tokenOut: p.tokenOut,
      fee: p.fee,
      recipient: p.recipient,
      amountIn: AMOUNT_PLACEHOLDER,
      amountOutMinimum: p.amountOutMinimum ?? 0n,
      sqrtPriceLimitX96: 0n,
    },
  ]);
  return { target: p.swapRouter02, value: 0n, data, inputs: [balanceInput(p.tokenIn, data, { bps: p.bps, approve: true })] };
}
/**
 * Any bridge's deposit transaction body (a BridgeProvider's `depositCall`: `to`, `data`,
 * `amountOffset`) as the Router executor's last call: the executor's whole balance of `inputToken`
 * is written into the 32-byte amount word at `amountOffset` and approved to `to` for this call only
 * (or `fixedAmount` of it, when given: the rest goes back to the caller with the Router's sweep).
 * ERC-20 deposits only (native input reaches the bridge wrapped: the executor sends no value).
 */
export function bridgeDepositExecutorCall(
  call: { to: string; data: string; amountOffset: number },
  inputToken: string,
  fixedAmount?: bigint,
): ExecutorCall {
  const input = fixedAmount === undefined ? { bps: ALL_BPS, amount: 0n } : { bps: 0, amount: fixedAmount };
  return {
    target: call.to,
    value: 0n,
    data: call.data,
    inputs: [{ token: inputToken, ...input, offset: call.amountOffset, approve: true }],
  };
}
