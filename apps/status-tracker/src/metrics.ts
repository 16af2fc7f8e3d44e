import { Counter, Gauge, Histogram, type Metric, type Registry } from 'prom-client';

/**
 * The status tracker's Prometheus metrics (registered on the health server's registry in main.ts,
 * served at /metrics on HEALTH_PORT). The follower gauges of a network are set only by the replica
 * that follows it (the advisory-lock holder) and removed when it stops following; aggregate with
 * max by (network).
 */
export const TRACKER_METRICS = {
  followerHead: new Gauge({
    name: 'status_tracker_follower_head_block',
    help: 'latest block the bridge event follower saw per network',
    labelNames: ['network'],
    registers: [],
  }),
  followerCursor: new Gauge({
    name: 'status_tracker_follower_cursor_block',
    help: 'last block whose bridge events are committed per network',
    labelNames: ['network'],
    registers: [],
  }),
  followerLag: new Gauge({
    name: 'status_tracker_follower_lag_blocks',
    help: 'head minus cursor of the bridge event follower per network (the confirmations included)',
    labelNames: ['network'],
    registers: [],
  }),
  followerTicks: new Counter({
    name: 'status_tracker_follower_ticks_total',
    help: 'reads of the bridge event follower by network and result (idle, progress, reorg, retry, conflict)',
    labelNames: ['network', 'result'],
    registers: [],
  }),
  followerErrors: new Counter({
    name: 'status_tracker_follower_errors_total',
    help: 'failed reads of the bridge event follower per network (retried)',
    labelNames: ['network'],
    registers: [],
  }),
  webhookDeliveries: new Histogram({
    name: 'status_tracker_webhook_delivery_duration_seconds',
    help: 'webhook delivery attempts by outcome (ok, http_4xx, http_5xx, redirect, http_other, timeout, refused, network); its _count is the attempt rate',
    labelNames: ['outcome'],
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [],
  }),
  webhooksGivenUp: new Counter({
    name: 'status_tracker_webhooks_given_up_total',
    help: 'webhooks given up (state failed) after WEBHOOK_MAX_ATTEMPTS consecutive failures',
    registers: [],
  }),
} as const;

export function registerTrackerMetrics(registry: Registry): void {
  for (const m of Object.values(TRACKER_METRICS) as Metric[]) registry.registerMetric(m);
}
