/**
 * Gas of an order as the Router runs it: the routing library's model for the transaction, each
 * protocol module's figure for its swaps, plus measured-on-anvil figures for the zap actions. Only used to rank routes and for
 * unvalidated orders; a validated order takes its gas from the node.
 */
import { dexFacet } from '@tokensvc/protocols';
import { DEFAULT_GAS_MODEL } from '@tokensvc/routing';
import type { Action } from './actions';

export const ACTION_GAS = {
  'v2-burn': 95_000,
  'v2-add': 150_000,
  'vault-deposit': 100_000,
  'vault-redeem': 75_000,
  'lending-supply': 220_000,
  'lending-withdraw': 200_000,
  sweep: 35_000,
} as const;

export function actionGas(a: Action, ticksCrossed = 0): number {
  switch (a.kind) {
    case 'swap':
      return dexFacet(a.family).swapGas(ticksCrossed);
    case 'v2-burn':
    case 'v2-add':
    case 'vault-deposit':
    case 'vault-redeem':
    case 'lending-supply':
    case 'lending-withdraw':
    case 'sweep':
      return ACTION_GAS[a.kind];
  }
}

export const BASE_GAS = DEFAULT_GAS_MODEL.base;
