import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/**
 * The indexer's Prometheus metrics (registered on the health server's registry in main.ts).
 * blocks/s and logs/s are `rate()` of the counters.
 */
export const METRICS = {
  head: new Gauge({
    name: 'indexer_chain_head_block',
    help: 'latest block number seen per network',
    labelNames: ['network'],
    registers: [],
  }),
  cursor: new Gauge({ name: 'indexer_cursor_block', help: 'last block fully indexed per network', labelNames: ['network'], registers: [] }),
  headLag: new Gauge({ name: 'indexer_head_lag_blocks', help: 'head minus cursor per network', labelNames: ['network'], registers: [] }),
  blocks: new Counter({ name: 'indexer_blocks_total', help: 'blocks indexed', labelNames: ['network'], registers: [] }),
  logs: new Counter({ name: 'indexer_logs_total', help: 'logs fetched and decoded', labelNames: ['network'], registers: [] }),
  malformedLogs: new Counter({
    name: 'indexer_malformed_logs_total',
    help: 'logs of registered contracts that did not decode (skipped)',
    labelNames: ['network'],
    registers: [],
  }),
  batchSeconds: new Histogram({
    name: 'indexer_batch_duration_seconds',
    help: 'time to decode and write one batch (one transaction)',
    labelNames: ['network'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [],
  }),
  aheadOfChain: new Gauge({
    name: 'indexer_data_ahead_of_chain',
    help: '1 while the indexed data holds blocks the node no longer has (until the rollback)',
    labelNames: ['network'],
    registers: [],
  }),
  reorgs: new Counter({ name: 'indexer_reorgs_total', help: 'reorgs repaired', labelNames: ['network'], registers: [] }),
  deepReorgs: new Counter({
    name: 'indexer_deep_reorgs_total',
    help: 'reorgs deeper than the finality depth (alert)',
    labelNames: ['network'],
    registers: [],
  }),
  published: new Counter({
    name: 'indexer_events_published_total',
    help: 'JetStream messages published',
    labelNames: ['network', 'kind'],
    registers: [],
  }),
  rpcRetries: new Counter({
    name: 'indexer_rpc_retries_total',
    help: 'JSON-RPC requests retried after a transient failure',
    labelNames: ['network', 'method'],
    registers: [],
  }),
} as const;

export function registerIndexerMetrics(registry: Registry): void {
  for (const m of Object.values(METRICS)) registry.registerMetric(m);
}
