/**
 * What an order's executor does, step by step, as plain data (the quote service's planner makes
 * them; each protocol module encodes the ones of its family: protocol-module.ts). Every amount is "the share `bps` of
 * what the executor holds of a token at that moment" (all of it unless said otherwise), exactly
 * like the Executor's CallInput, so the simulator predicts the chain to the unit and the same
 * plan replays for a different input amount (the signed-order variant).
 */
import type { PlatformFamily } from '@tokensvc/domain';

export interface SwapAction {
  kind: 'swap';
  pool: string;
  family: PlatformFamily;
  platform: string;
  fee: number;
  tokenIn: string;
  tokenOut: string;
  bps: number;
  /** the pool's tick spacing (concentrated pools): part of the key of a pool that is an id inside a singleton */
  tickSpacing?: number;
}

/** Send all LP tokens to the pair and burn them for both underlying tokens. */
export interface V2BurnAction {
  kind: 'v2-burn';
  family: PlatformFamily;
  pair: string;
  token0: string;
  token1: string;
}

/** Router02.addLiquidity with everything held of both tokens; leftovers stay (swept later). */
export interface V2AddAction {
  kind: 'v2-add';
  family: PlatformFamily;
  pair: string;
  platform: string;
  token0: string;
  token1: string;
}

export interface VaultDepositAction {
  kind: 'vault-deposit';
  family: PlatformFamily;
  vault: string;
  asset: string;
}

export interface VaultRedeemAction {
  kind: 'vault-redeem';
  family: PlatformFamily;
  vault: string;
  asset: string;
}

export interface LendingSupplyAction {
  kind: 'lending-supply';
  family: PlatformFamily;
  pool: string;
  asset: string;
  aToken: string;
}

export interface LendingWithdrawAction {
  kind: 'lending-withdraw';
  family: PlatformFamily;
  pool: string;
  asset: string;
  aToken: string;
}

/** Return what is left of a token (zap residuals) to the recipient. */
export interface SweepAction {
  kind: 'sweep';
  token: string;
}

export type Action =
  | SwapAction
  | V2BurnAction
  | V2AddAction
  | VaultDepositAction
  | VaultRedeemAction
  | LendingSupplyAction
  | LendingWithdrawAction
  | SweepAction;

export const BPS = 10_000;

/** The composed token kinds (TokenKind less native and basic): the actions that enter and leave each. */
export interface ComposedActions {
  'v2-lp': { enter: V2AddAction; exit: V2BurnAction };
  vault: { enter: VaultDepositAction; exit: VaultRedeemAction };
  lending: { enter: LendingSupplyAction; exit: LendingWithdrawAction };
}
export type ComposedKind = keyof ComposedActions;

/** The actions that enter or leave a composed token. */
export type ComposedAction = ComposedActions[ComposedKind]['enter' | 'exit'];

/** Which composed kind each such action enters or leaves (an exhaustive table: a new action kind needs its row). */
export const COMPOSED_ACTION_SIDE: { readonly [K in ComposedAction['kind']]: { kind: ComposedKind; side: 'enter' | 'exit' } } = {
  'v2-add': { kind: 'v2-lp', side: 'enter' },
  'v2-burn': { kind: 'v2-lp', side: 'exit' },
  'vault-deposit': { kind: 'vault', side: 'enter' },
  'vault-redeem': { kind: 'vault', side: 'exit' },
  'lending-supply': { kind: 'lending', side: 'enter' },
  'lending-withdraw': { kind: 'lending', side: 'exit' },
};

/** true for the actions that enter or leave a composed token (their module encodes and prices them). */
export function isComposedAction(a: Action): a is ComposedAction {
  return Object.hasOwn(COMPOSED_ACTION_SIDE, a.kind);
}
