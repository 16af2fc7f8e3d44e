/**
 * Actions into the Executor's calls. Amounts are never baked in: each call spends a share of the
 * executor's balance written into its data at run time (CallInput), so the calls the user signs
 * run exactly what the planner simulated. `routeHash` of the public interface hashes these.
 */
import { Interface, MaxUint256 } from 'ethers';
import { ALL_BPS, type CallInput, type ExecutorCall, transferAllCall } from '@tokensvc/contracts';
import { type CallEnv, dexFacet } from '@tokensvc/protocols';
import type { Action } from './actions';

const PAIR = new Interface(['function burn(address to) returns (uint256 amount0, uint256 amount1)']);
const V2_ROUTER = new Interface([
  'function addLiquidity(address tokenA, address tokenB, uint256 amountADesired, uint256 amountBDesired, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline) returns (uint256 amountA, uint256 amountB, uint256 liquidity)',
]);
const VAULT = new Interface(['function deposit(uint256 assets, address receiver) returns (uint256)', 'function redeem(uint256 shares, address receiver, address owner) returns (uint256)']);
const AAVE_POOL = new Interface(['function supply(address asset, uint256 amount, address onBehalfOf, uint16 referralCode)', 'function withdraw(address asset, uint256 amount, address to) returns (uint256)']);

export type { CallEnv } from '@tokensvc/protocols';

/** Byte offset of static argument `index` in call data (selector, then 32-byte words). */
export const argOffset = (index: number): number => 4 + 32 * index;

/** All of the executor's balance of `token`, written at argument `argIndex`. */
function allOf(token: string, argIndex: number, approve: boolean): CallInput {
  return { token, bps: ALL_BPS, amount: 0n, offset: argOffset(argIndex), approve };
}

export function actionCalls(a: Action, env: CallEnv): ExecutorCall[] {
  switch (a.kind) {
    case 'swap':
      return dexFacet(a.family).swapCalls(a, env);
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
