import type { ErrorCode } from '@tokensvc/messages';
import { Histogram, type Registry } from 'prom-client';

/**
 * Every NATS handler's request rate, errors and duration, per subject and outcome, measured once in
 * the shared handler wrapper (rpc-handler.ts). Registered on each microservice's health-server
 * registry (served at /metrics on its HEALTH_PORT). Outcome is `ok` or the error code that crossed
 * the bus, lowercased without its prefix (`bad_request`, `not_found`, `internal`, ...): a bounded set.
 */
export const RPC_METRICS = {
  handled: new Histogram({
    name: 'nats_handler_duration_seconds',
    help: 'NATS request handling time by subject and outcome (ok or the error code); its _count is the request rate',
    labelNames: ['subject', 'outcome'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [],
  }),
} as const;

export function registerRpcMetrics(registry: Registry): void {
  for (const m of Object.values(RPC_METRICS)) registry.registerMetric(m);
}

/** `ERROR_CODE_NOT_FOUND` -> `not_found` (the outcome label of a failed request). */
export function rpcOutcome(code: ErrorCode): string {
  return code.replace(/^ERROR_CODE_/, '').toLowerCase();
}
