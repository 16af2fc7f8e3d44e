/**
 * Actions into the Executor's calls. Amounts are never baked in: each call spends a share of the
 * executor's balance written into its data at run time (CallInput), so the calls the user signs
 * run exactly what the planner simulated. `routeHash` of the public interface hashes these.
 */
import { Interface, MaxUint256 } from 'ethers';
import { ALL_BPS, type CallInput, type ExecutorCall, transferAllCall, uniswapV2SwapCall, uniswapV3SwapCall, uniswapV3SwapRouter02Call } from '@tokensvc/contracts';
import type { Action, SwapAction } from './actions';

const PAIR = new Interface(['function burn(address to) returns (uint256 amount0, uint256 amount1)']);
const V2_ROUTER = new Interface([
  'function addLiquidity(address tokenA, address tokenB, uint256 amountADesired, uint256 amountBDesired, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline) returns (uint256 amountA, uint256 amountB, uint256 liquidity)',
]);
const VAULT = new Interface(['function deposit(uint256 assets, address receiver) returns (uint256)', 'function redeem(uint256 shares, address receiver, address owner) returns (uint256)']);
const AAVE_POOL = new Interface(['function supply(address asset, uint256 amount, address onBehalfOf, uint16 referralCode)', 'function withdraw(address asset, uint256 amount, address to) returns (uint256)']);

export interface CallEnv {
  executor: string;
  recipient: string;
  deadline: bigint;
  /** contract of `role` on platform `slug` (e.g. uniswap-v2 router); refuses when it has none */
  platformAddress(slug: string, role: string): string;
  /** the swap router of Uniswap V3 platform `slug` (v3RouterOf); refuses when it has none */
  v3Router(slug: string): V3Router;
}

/** A Uniswap V3 swap router and the exactInputSingle it takes. */
export interface V3Router {
  /** `swapRouter`: v3-periphery SwapRouter (struct with `deadline`); `swapRouter02`: swap-router-contracts SwapRouter02 (without) */
  kind: 'swapRouter' | 'swapRouter02';
  address: string;
}

/**
 * The one rule for which router a V3 hop goes through: the platform's `router` (the original
 * SwapRouter, which the devnet deploys) when it has one, else its `swapRouter02` (the only V3
 * router the real networks' address books name; Base has no original SwapRouter). Undefined
 * when it has neither: such a hop cannot be built.
 */
export function v3RouterOf(addresses: Readonly<Record<string, string>> | undefined): V3Router | undefined {
  const router = addresses?.['router'];
  if (router) return { kind: 'swapRouter', address: router };
  const router02 = addresses?.['swapRouter02'];
  if (router02) return { kind: 'swapRouter02', address: router02 };
  return undefined;
}

/**
 * A V3 swap of the executor's balance. SwapRouter02's exactInputSingle has no deadline (only its
 * multicall(deadline, data[]) has one); no wrapping is needed: every Router entry point (execute,
 * executeWithPermit, executeSignedOrder, executeMulti*, executeBridge) checks the order deadline,
 * which is `env.deadline`, before the Executor runs any call, and only the Router can run it.
 */
function v3SwapCall(a: SwapAction, env: CallEnv): ExecutorCall {
  const router = env.v3Router(a.platform);
  const swap = { tokenIn: a.tokenIn, tokenOut: a.tokenOut, fee: a.fee, recipient: env.executor, bps: a.bps };
  return router.kind === 'swapRouter02' ? uniswapV3SwapRouter02Call({ swapRouter02: router.address, ...swap }) : uniswapV3SwapCall({ swapRouter: router.address, deadline: env.deadline, ...swap });
}

/** Byte offset of static argument `index` in call data (selector, then 32-byte words). */
export const argOffset = (index: number): number => 4 + 32 * index;

/** All of the executor's balance of `token`, written at argument `argIndex`. */
function allOf(token: string, argIndex: number, approve: boolean): CallInput {
  return { token, bps: ALL_BPS, amount: 0n, offset: argOffset(argIndex), approve };
}

export function actionCalls(a: Action, env: CallEnv): ExecutorCall[] {
  switch (a.kind) {
    case 'swap':
      return a.family === 'uniswap-v2'
        ? [uniswapV2SwapCall({ router02: env.platformAddress(a.platform, 'router'), path: [a.tokenIn, a.tokenOut], to: env.executor, deadline: env.deadline, bps: a.bps })]
        : [v3SwapCall(a, env)];
    case 'v2-burn':
      // The pair burns the LP tokens sent to it in the same transaction.
      return [transferAllCall(a.pair, a.pair), { target: a.pair, value: 0n, data: PAIR.encodeFunctionData('burn', [env.executor]), inputs: [] }];
    case 'v2-add':
      return [
        {
          target: env.platformAddress(a.platform, 'router'),
          value: 0n,
          data: V2_ROUTER.encodeFunctionData('addLiquidity', [a.token0, a.token1, 0n, 0n, 0n, 0n, env.executor, env.deadline]),
          inputs: [allOf(a.token0, 2, true), allOf(a.token1, 3, true)],
        },
      ];
    case 'vault-deposit':
      return [{ target: a.vault, value: 0n, data: VAULT.encodeFunctionData('deposit', [0n, env.executor]), inputs: [allOf(a.asset, 0, true)] }];
    case 'vault-redeem':
      return [{ target: a.vault, value: 0n, data: VAULT.encodeFunctionData('redeem', [0n, env.executor, env.executor]), inputs: [allOf(a.vault, 0, false)] }];
    case 'lending-supply':
      return [{ target: a.pool, value: 0n, data: AAVE_POOL.encodeFunctionData('supply', [a.asset, 0n, env.executor, 0]), inputs: [allOf(a.asset, 1, true)] }];
    case 'lending-withdraw':
      // type(uint256).max withdraws the executor's whole position (its exact balance is index-scaled).
      return [{ target: a.pool, value: 0n, data: AAVE_POOL.encodeFunctionData('withdraw', [a.asset, MaxUint256, env.executor]), inputs: [] }];
    case 'sweep':
      return [transferAllCall(a.token, env.recipient)];
  }
}

export function planCalls(actions: readonly Action[], env: CallEnv): ExecutorCall[] {
  return actions.flatMap((a) => actionCalls(a, env));
}
