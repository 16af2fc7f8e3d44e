import { PAID_METRIC_FIELDS } from '@tokensvc/api';

const PAID = new Set<string>(PAID_METRIC_FIELDS);

/** A token record without the paid-only metrics fields (a copy; the input is not changed). */
export function withoutPaidMetrics<T>(token: T): T {
  if (typeof token !== 'object' || token === null) return token;
  const metrics = (token as { metrics?: unknown }).metrics;
  if (typeof metrics !== 'object' || metrics === null) return token;
  const kept = Object.fromEntries(Object.entries(metrics).filter(([k]) => !PAID.has(k)));
  return { ...token, metrics: kept };
}

/**
 * The response transform keyed by tier: callers without paid data get the token records under
 * `lists` (top-level properties holding Token arrays) without the paid metrics fields.
 */
export function forTier<B>(body: B, lists: readonly string[], paidData: boolean): B {
  if (paidData || typeof body !== 'object' || body === null) return body;
  const out: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const prop of lists) {
    const tokens = out[prop];
    if (Array.isArray(tokens)) out[prop] = tokens.map(withoutPaidMetrics);
  }
  return out as B;
}
