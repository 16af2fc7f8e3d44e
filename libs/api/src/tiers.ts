import type { Surface } from './access';

export const TIERS = ['free', 'paid', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

export function isTier(value: unknown): value is Tier {
  return typeof value === 'string' && (TIERS as readonly string[]).includes(value);
}

/** Callers without a key (trading endpoints only). */
export type Caller = Tier | 'anonymous';

export interface TierPolicy {
  /** requests per rate window per surface; `undefined` = the surface is closed to the caller */
  readonly perMinute: Readonly<Record<Surface, number | undefined>>;
  /** calls per UTC calendar month; `undefined` = no monthly quota */
  readonly monthlyCalls: number | undefined;
  /** whether the paid-tier endpoints and token metrics fields are open */
  readonly paidData: boolean;
}

/** The spec's Limits section as one table: tier x surface. */
export const TIER_POLICY: Readonly<Record<Caller, TierPolicy>> = {
  anonymous: { perMinute: { data: undefined, trading: 100 }, monthlyCalls: undefined, paidData: false },
  free: { perMinute: { data: 100, trading: 100 }, monthlyCalls: 50_000, paidData: false },
  paid: { perMinute: { data: 500, trading: 100 }, monthlyCalls: 150_000, paidData: true },
  // Enterprise keys may carry a custom data rate (api_keys.rate_limit_per_minute), capped here.
  enterprise: { perMinute: { data: 3000, trading: 100 }, monthlyCalls: undefined, paidData: true },
};

/** The highest custom data rate an enterprise key may be given. */
export const MAX_CUSTOM_RATE_PER_MINUTE = 3000;
