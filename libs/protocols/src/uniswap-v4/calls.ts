/**
 * A Uniswap V4 swap as executor calls, through Uniswap's UniversalRouter (no change to our Router
 * or Executor: the V4 PoolManager is entered through `unlock`, whose callback the UniversalRouter
 * implements). The executor first hands the UniversalRouter its share of `tokenIn`: an ERC-20
 * `transfer` whose amount the executor writes at run time, or, for the native coin, the value of
 * the `execute` call itself. Then `execute([V4_SWAP], [(actions, params)], deadline)` runs:
 *   SETTLE(currencyIn, CONTRACT_BALANCE, payerIsUser=false): pays the PoolManager what the
 *     UniversalRouter holds (exactly what was just handed to it);
 *   SWAP_EXACT_IN_SINGLE(key, zeroForOne, amountIn=OPEN_DELTA, amountOutMinimum=0, 0x): swaps the
 *     whole credit that settle opened;
 *   TAKE_ALL(currencyOut, 0): sends the output to the caller (`msgSender()` is the locker: the executor).
 * The order's minimum output is the Router's check, after every call. Action and command numbers
 * and the struct layout are v4-periphery's (Actions.sol, ActionConstants.sol) and the
 * UniversalRouter 2.0/2.1.0's (Commands.sol), as @uniswap/v4-sdk's V4Planner encodes them.
 */
import { AbiCoder, Interface, concat, toBeHex } from 'ethers';
import { AMOUNT_PLACEHOLDER, type ExecutorCall, balanceInput, nativeBalanceInput } from '@tokensvc/contracts';
import { ZERO_ADDRESS, isNativeAddress } from '@tokensvc/domain';
import { POOL_KEY_TUPLE, type V4PoolKey } from './pool-key';

/** Commands.V4_SWAP */
const V4_SWAP = 0x10;
/** Actions (v4-periphery libraries/Actions.sol) */
const SWAP_EXACT_IN_SINGLE = 0x06;
const SETTLE = 0x0b;
const TAKE_ALL = 0x0f;
/** ActionConstants: "use the contract's balance" and "use the open delta" */
export const CONTRACT_BALANCE = 1n << 255n;
export const OPEN_DELTA = 0n;

const UNIVERSAL_ROUTER = new Interface(['function execute(bytes commands, bytes[] inputs, uint256 deadline) payable']);
const ERC20 = new Interface(['function transfer(address to, uint256 amount) returns (bool)']);
const WETH = new Interface(['function deposit() payable', 'function withdraw(uint256 amount)']);
const EXACT_IN_SINGLE = `tuple(${POOL_KEY_TUPLE} poolKey, bool zeroForOne, uint128 amountIn, uint128 amountOutMinimum, bytes hookData)`;

export interface V4SwapCall {
  universalRouter: string;
  key: V4PoolKey;
  tokenIn: string;
  deadline: bigint;
  /** share of the executor's balance of tokenIn to swap (all by default) */
  bps?: number;
}

/** The V4_SWAP input: abi.encode(bytes actions, bytes[] params). */
export function v4SwapInput(key: V4PoolKey, tokenIn: string): string {
  const abi = AbiCoder.defaultAbiCoder();
  const zeroForOne = tokenIn.toLowerCase() === key.currency0.toLowerCase();
  const currencyOut = zeroForOne ? key.currency1 : key.currency0;
  const actions = concat([toBeHex(SETTLE, 1), toBeHex(SWAP_EXACT_IN_SINGLE, 1), toBeHex(TAKE_ALL, 1)]);
  const params = [
    abi.encode(['address', 'uint256', 'bool'], [tokenIn, CONTRACT_BALANCE, false]),
    abi.encode([EXACT_IN_SINGLE], [{ poolKey: key, zeroForOne, amountIn: OPEN_DELTA, amountOutMinimum: 0n, hookData: '0x' }]),
    abi.encode(['address', 'uint256'], [currencyOut, 0n]),
  ];
  return abi.encode(['bytes', 'bytes[]'], [actions, params]);
}

/**
 * The calls of a swap through a native-coin pool when the executor holds the native coin wrapped
 * (the quote routes a pool's native currency as the wrapped token, like every other native
 * amount inside the executor): unwrap `bps` of `wrapped` first, swap all the native it then holds;
 * or swap, then wrap all the native the swap took.
 */
export function uniswapV4WrappedNativeSwapCalls(p: V4SwapCall & { wrapped: string; side: 'in' | 'out' }): ExecutorCall[] {
  if (p.side === 'in') {
    const withdraw = WETH.encodeFunctionData('withdraw', [AMOUNT_PLACEHOLDER]);
    return [
      { target: p.wrapped, value: 0n, data: withdraw, inputs: [balanceInput(p.wrapped, withdraw, { bps: p.bps, approve: false })] },
      ...uniswapV4SwapCalls({ ...p, tokenIn: ZERO_ADDRESS, bps: undefined }),
    ];
  }
  return [
    ...uniswapV4SwapCalls(p),
    { target: p.wrapped, value: 0n, data: WETH.encodeFunctionData('deposit'), inputs: [nativeBalanceInput()] },
  ];
}

/** The executor calls of one exact-input swap through a V4 pool (see the file's comment). */
export function uniswapV4SwapCalls(p: V4SwapCall): ExecutorCall[] {
  const data = UNIVERSAL_ROUTER.encodeFunctionData('execute', [toBeHex(V4_SWAP, 1), [v4SwapInput(p.key, p.tokenIn)], p.deadline]);
  if (isNativeAddress(p.tokenIn)) return [{ target: p.universalRouter, value: 0n, data, inputs: [nativeBalanceInput(p.bps)] }];
  const transfer = ERC20.encodeFunctionData('transfer', [p.universalRouter, AMOUNT_PLACEHOLDER]);
  return [
    { target: p.tokenIn, value: 0n, data: transfer, inputs: [balanceInput(p.tokenIn, transfer, { bps: p.bps, approve: false })] },
    { target: p.universalRouter, value: 0n, data, inputs: [] },
  ];
}
