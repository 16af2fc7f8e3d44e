/**
 * Gas of an order as the Router runs it: the routing library's model for the transaction, each
 * protocol module's figures for its swaps and zap actions (measured on anvil), and the sweep.
 * Only used to rank routes and for unvalidated orders; a validated order takes its gas from the node.
 */
import { type Action, composedActionFacet, dexFacet, isComposedAction } from '@tokensvc/protocols';
import { DEFAULT_GAS_MODEL } from '@tokensvc/routing';

/** Returning what is left of a token to the recipient. */
export const SWEEP_GAS = 35_000;

export function actionGas(a: Action, ticksCrossed = 0): number {
  if (isComposedAction(a)) return composedActionFacet(a).gas;
  switch (a.kind) {
    case 'swap':
      return dexFacet(a.family).swapGas(ticksCrossed);
    case 'sweep':
      return SWEEP_GAS;
  }
}

export const BASE_GAS = DEFAULT_GAS_MODEL.base;
