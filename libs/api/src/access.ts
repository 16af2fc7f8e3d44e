/**
 * Who may call an endpoint. Every route of the gateway declares exactly one class:
 * - `public`: no key is read (probes, docs);
 * - `data`: a key of any tier is required;
 * - `data-paid`: a paid or enterprise key is required (free keys get 403);
 * - `trading`: a key is optional; anonymous callers are limited per client IP;
 * - `admin`: the operator's admin token is required.
 */
export const ACCESS_CLASSES = ['public', 'data', 'data-paid', 'trading', 'admin'] as const;
export type AccessClass = (typeof ACCESS_CLASSES)[number];

/** The rate-limited surfaces (the spec gives separate budgets for data and trading calls). */
export const SURFACES = ['data', 'trading'] as const;
export type Surface = (typeof SURFACES)[number];

/** The surface whose budget a class of endpoint spends, if any. */
export const SURFACE_OF: Record<AccessClass, Surface | undefined> = {
  public: undefined,
  data: 'data',
  'data-paid': 'data',
  trading: 'trading',
  admin: undefined,
};

export function isAccessClass(value: unknown): value is AccessClass {
  return typeof value === 'string' && (ACCESS_CLASSES as readonly string[]).includes(value);
}
