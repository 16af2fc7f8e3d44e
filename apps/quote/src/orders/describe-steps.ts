/** Human step descriptions of a plan (context.steps). */
import { toUnits } from '@tokensvc/domain';
import type { CatalogToken } from '../graph/catalog';
import type { OrderPlan } from '../planning/plan-order';

type Lookup = (address: string) => CatalogToken | undefined;

export function stepDescriptions(plan: OrderPlan, token: Lookup, nativeIn: boolean, nativeOut: boolean, nativeSymbol: string): string[] {
  const sym = (a: string): string => token(a)?.symbol ?? a;
  const units = (a: string, v: bigint): number => Number(toUnits(v, token(a)?.decimals ?? 18).toPrecision(8));
  const amt = (a: string, v: bigint): string => `${units(a, v)} ${sym(a)}`;
  const out: string[] = [];
  if (nativeIn) out.push(`Wrap ${units(plan.tokenIn, plan.amountIn)} ${nativeSymbol} into ${sym(plan.tokenIn)}`);
  for (const { action: a, outcome } of plan.steps) {
    const spent = outcome.spent.map((s) => amt(s.token, s.amount));
    const received = outcome.received.map((r) => amt(r.token, r.amount));
    switch (a.kind) {
      case 'swap':
        out.push(`Swap ${spent.join('')} for ${received.join('')} on ${a.platform} (${a.fee / 10_000}% pool ${a.pool})`);
        break;
      case 'v2-burn':
        out.push(`Remove liquidity: burn ${spent.join('')} for ${received.join(' and ')}`);
        break;
      case 'v2-add':
        out.push(`Add liquidity on ${a.platform}: ${spent.join(' and ')} for ${received.join('')}`);
        break;
      case 'vault-deposit':
        out.push(`Deposit ${spent.join('')} into the ${sym(a.vault)} vault for ${received.join('')}`);
        break;
      case 'vault-redeem':
        out.push(`Redeem ${spent.join('')} from the vault for ${received.join('')}`);
        break;
      case 'lending-supply':
        out.push(`Supply ${spent.join('')} to the lending market for ${received.join('')}`);
        break;
      case 'lending-withdraw':
        out.push(`Withdraw ${spent.join('')} from the lending market for ${received.join('')}`);
        break;
      case 'sweep':
        out.push(`Return the ${sym(a.token)} left over (${spent.join('')} now) to the recipient`);
        break;
    }
  }
  if (nativeOut) out.push(`Unwrap ${amt(plan.tokenOut, plan.amountOut)} into ${nativeSymbol}`);
  return out;
}

/** Token addresses the order passes through, in order (context.route as token keys). */
export function routeTokens(plan: OrderPlan, inputAddress: string, outputAddress: string): string[] {
  const passed = plan.steps.filter((s) => s.action.kind !== 'sweep').flatMap((s) => s.outcome.received.map((r) => r.token));
  const middle = [...new Set(passed)].filter((t) => t !== inputAddress && t !== outputAddress);
  return [inputAddress, ...middle, outputAddress];
}
