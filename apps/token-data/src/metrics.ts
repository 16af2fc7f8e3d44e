import { Counter, type Metric, type Registry } from 'prom-client';

/** What a reply-cache lookup found: a fresh entry, nothing (computed), or the same key being computed (joined). */
export type CacheLookup = 'hit' | 'miss' | 'joined';

/**
 * token-data's Prometheus metrics (registered on the health server's registry in main.ts, served
 * at /metrics on HEALTH_PORT next to nats_handler_duration_seconds). Hit rate per cache:
 * rate(hit) / rate(all results).
 */
export const TOKEN_DATA_METRICS = {
  cacheLookups: new Counter({
    name: 'token_data_cache_lookups_total',
    help: 'reply cache lookups by cache (the use case: list, history, account, ...) and result (hit, miss, joined: shared a computation in flight)',
    labelNames: ['cache', 'result'],
    registers: [],
  }),
  cacheClears: new Counter({
    name: 'token_data_cache_clears_total',
    help: 'times the reply cache was emptied (a new indexed block or reorg, or a failed cursor poll)',
    registers: [],
  }),
} as const;

export function registerTokenDataMetrics(registry: Registry): void {
  for (const m of Object.values(TOKEN_DATA_METRICS) as Metric[]) registry.registerMetric(m);
}
