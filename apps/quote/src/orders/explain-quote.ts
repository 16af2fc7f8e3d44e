/** `explain` of a same-chain quote: its plan explained on the snapshot it was planned on (a 400 when not available). */
import type { Explain } from '@tokensvc/messages';
import { explainPlan } from '../planning/explain';
import { PlanError } from '../planning/plan-error';
import type { Quote } from './quote-engine';
import { badRequest } from './request-parsing';

export function explainQuote(quote: Quote): Explain {
  try {
    return explainPlan(quote.world, quote.env, quote.plan);
  } catch (e) {
    if (e instanceof PlanError) throw badRequest(e.message);
    throw e;
  }
}
