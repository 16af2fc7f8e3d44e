import type { FastifyInstance } from 'fastify';
import { SURFACES, type Caller, type TierPolicy } from '@tokensvc/api';
import type { ApiKeysRepository } from '@tokensvc/persistence';
import { surfaceLimit } from '../access/access-policy';
import { GatewayError } from '../http/errors';
import { registerEndpoint } from '../http/register-endpoint';
import type { EndpointUsage } from '../limits/endpoint-usage';
import { nextMonth } from '../limits/headers';
import type { RateLimiter } from '../limits/rate-limiter';
import type { UsageRecorder } from '../limits/usage-recorder';
import { CONSOLE_OPERATIONS as OPS } from '../operations/console.endpoints';

export interface UsageDeps {
  readonly limiter: RateLimiter;
  readonly endpointUsage: EndpointUsage;
  readonly usage: UsageRecorder;
  readonly repo: ApiKeysRepository;
  readonly tierPolicy: Readonly<Record<Caller, TierPolicy>>;
}

/**
 * GET /v3/portal/usage: what the limiter and the usage counters hold for the calling key (the
 * access hook authenticated it and counted this call): its monthly quota, each surface's rolling
 * window (read without spending), calls per endpoint today and this month, and daily totals.
 */
export function registerUsageRoute(fastify: FastifyInstance, deps: UsageDeps): void {
  registerEndpoint(fastify, 'keyUsage', OPS.keyUsage, async ({ req }) => {
    const key = req.caller?.key;
    if (!key) throw new GatewayError(401, 'API key required: send it as "Authorization: Bearer <API_KEY>"');
    const now = Date.now();
    const month = nextMonth(new Date(now));
    const policy = deps.tierPolicy[key.tier];
    const subject = `key:${key.id}`;
    const windowSeconds = Math.ceil(deps.limiter.windowMs / 1000);
    // Daily totals are written in batches: this replica's pending counts go first.
    await deps.usage.flush();
    const fromDay = new Date(now - 30 * 86_400_000).toISOString().slice(0, 10);
    const [used, counts, days, windows] = await Promise.all([
      deps.limiter.quotaUsed(subject, month.period),
      deps.endpointUsage.read(key.id, now),
      deps.repo.usage(key.id, fromDay),
      Promise.all(
        SURFACES.map(async (surface) => {
          const limit = surfaceLimit(key, policy, surface);
          if (limit === undefined) return undefined;
          const d = await deps.limiter.peek(subject, surface, limit);
          return { surface, limit, remaining: d.remaining, windowSeconds, resetSeconds: d.resetSeconds };
        }),
      ),
    ]);
    const routes = new Set([...Object.keys(counts.today), ...Object.keys(counts.month)]);
    const endpoints = [...routes]
      .map((endpoint) => ({ endpoint, today: counts.today[endpoint] ?? 0, month: counts.month[endpoint] ?? 0 }))
      .sort((a, b) => b.month - a.month || a.endpoint.localeCompare(b.endpoint));
    const limit = policy.monthlyCalls ?? null;
    return {
      key: { id: key.id, displayPrefix: key.displayPrefix, tier: key.tier },
      day: new Date(now).toISOString().slice(0, 10),
      month: month.period,
      monthResetsAt: month.at.toISOString(),
      quota: { limit, used, remaining: limit === null ? null : Math.max(0, limit - used) },
      rateLimits: windows.filter((w) => w !== undefined),
      endpoints,
      days,
    };
  });
}
