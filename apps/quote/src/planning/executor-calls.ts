/**
 * Actions into the Executor's calls. Amounts are never baked in: each call spends a share of the
 * executor's balance written into its data at run time (CallInput), so the calls the user signs
 * run exactly what the planner simulated. `routeHash` of the public interface hashes these. Each
 * protocol module encodes the actions of its family; the sweep is the executor's own.
 */
import { type ExecutorCall, transferAllCall } from '@tokensvc/contracts';
import { type Action, type CallEnv, composedActionFacet, dexFacet, isComposedAction } from '@tokensvc/protocols';

export type { CallEnv } from '@tokensvc/protocols';

export function actionCalls(a: Action, env: CallEnv): ExecutorCall[] {
  if (isComposedAction(a)) return composedActionFacet(a).calls(a, env);
  switch (a.kind) {
    case 'swap':
      return dexFacet(a.family).swapCalls(a, env);
    case 'sweep':
      return [transferAllCall(a.token, env.recipient)];
  }
}

export function planCalls(actions: readonly Action[], env: CallEnv): ExecutorCall[] {
  return actions.flatMap((a) => actionCalls(a, env));
}
