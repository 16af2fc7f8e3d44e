import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

const registry = new Registry();
registry.setDefaultLabels({ service: 'gateway' });
collectDefaultMetrics({ register: registry });

/** Request duration per route template and status (route templates keep the label set small). */
const duration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request duration by route and status',
  labelNames: ['method', 'route', 'status'],
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});

const authRejections = new Counter({
  name: 'gateway_auth_rejections_total',
  help: 'Requests refused by authentication or tier (401/403), by reason',
  labelNames: ['reason'],
  registers: [registry],
});

const limitRejections = new Counter({
  name: 'gateway_limit_rejections_total',
  help: 'Requests refused with 429, by surface and reason (rate or quota)',
  labelNames: ['surface', 'reason'],
  registers: [registry],
});

/** Status streams (GET /v3/portal/status/stream) open on this gateway now. */
const sseStreams = new Gauge({
  name: 'gateway_sse_streams_open',
  help: 'Server-Sent Events status streams open on this gateway',
  registers: [registry],
});

/** API-key lookups: answered from the in-memory cache (hit) or by a database query (miss). */
const keyCacheLookups = new Counter({
  name: 'gateway_key_cache_lookups_total',
  help: 'API key lookups by result (hit: the in-memory cache answered; miss: the database was asked)',
  labelNames: ['result'],
  registers: [registry],
});

export const httpMetrics = { registry, duration, authRejections, limitRejections, sseStreams, keyCacheLookups };
