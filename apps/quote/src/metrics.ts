import { Counter, Gauge, Histogram, type Metric, type Registry } from 'prom-client';

/** What a quote build was: the operation label of quote_build_duration_seconds. */
export type QuoteKind = 'swap' | 'zap' | 'cross_chain' | 'estimate' | 'approval' | 'unknown';

/**
 * The quote service's Prometheus metrics (registered on the health server's registry in main.ts,
 * served at /metrics on HEALTH_PORT next to nats_handler_duration_seconds). The relayer gauges are
 * set by RelayMonitor every RELAY_METRICS_INTERVAL_MS.
 */
export const QUOTE_METRICS = {
  build: new Histogram({
    name: 'quote_build_duration_seconds',
    help: 'time to build a quote by kind (swap, zap, cross_chain, estimate, approval; unknown when it failed before its kind was known) and outcome (ok, error)',
    labelNames: ['kind', 'outcome'],
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [],
  }),
  simulations: new Counter({
    name: 'quote_estimate_simulations_total',
    help: 'on-chain simulations of estimates by network and outcome (ok, reverted, error: the node failed; skipped: no state override for the input token)',
    labelNames: ['network', 'outcome'],
    registers: [],
  }),
  relayerBalance: new Gauge({
    name: 'quote_relayer_balance',
    help: "the relayer gas wallet's native balance (in ether units) per network",
    labelNames: ['network'],
    registers: [],
  }),
  relayPending: new Gauge({
    name: 'quote_relay_pending',
    help: 'relayed orders submitted and not final per network',
    labelNames: ['network'],
    registers: [],
  }),
  relayStuck: new Gauge({
    name: 'quote_relay_stuck',
    help: 'relayed orders pending longer than the stuck threshold (RELAY_STUCK_AFTER_MS) per network',
    labelNames: ['network'],
    registers: [],
  }),
  relayOldestPending: new Gauge({
    name: 'quote_relay_oldest_pending_seconds',
    help: 'age of the oldest pending relayed order per network (0 when none)',
    labelNames: ['network'],
    registers: [],
  }),
  nonceGap: new Gauge({
    name: 'quote_relayer_nonce_gap',
    help: "nonces between the chain's mined count and the relayer's stored next nonce that no pending order holds (a gap every later transaction waits behind)",
    labelNames: ['network'],
    registers: [],
  }),
  nonceReconciled: new Counter({
    name: 'quote_relayer_nonce_reconciled_total',
    help: 'reconciliations of the relayer nonce with the chain that changed something (the stored nonce moved, orders were sent again, or gaps filled)',
    labelNames: ['network'],
    registers: [],
  }),
  nonceHolesFilled: new Counter({
    name: 'quote_relayer_nonce_holes_filled_total',
    help: 'nonce gaps filled with 0-value transactions',
    labelNames: ['network'],
    registers: [],
  }),
  relayFinal: new Counter({
    name: 'quote_relay_final_total',
    help: 'relayed orders that reached a final state, by network and state (mined, reverted, expired, dropped)',
    labelNames: ['network', 'state'],
    registers: [],
  }),
  relayMonitorErrors: new Counter({
    name: 'quote_relay_monitor_errors_total',
    help: 'failed samples of the relayer gauges per network (the gauges keep their last value)',
    labelNames: ['network'],
    registers: [],
  }),
} as const;

export function registerQuoteMetrics(registry: Registry): void {
  for (const m of Object.values(QUOTE_METRICS) as Metric[]) registry.registerMetric(m);
}

/** Times `run` as one quote build of `kind` (a function when the kind is only known once the route is). */
export async function timedBuild<T>(kind: QuoteKind | (() => QuoteKind), run: () => Promise<T>): Promise<T> {
  const end = QUOTE_METRICS.build.startTimer();
  const kindNow = (): QuoteKind => (typeof kind === 'function' ? kind() : kind);
  try {
    const r = await run();
    end({ kind: kindNow(), outcome: 'ok' });
    return r;
  } catch (e) {
    end({ kind: kindNow(), outcome: 'error' });
    throw e;
  }
}
