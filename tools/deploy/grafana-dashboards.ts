/**
 * The Grafana dashboards of deploy/grafana, as code: one overview and one per service, all from
 * the same few panel builders so they stay alike. Edit here, then regenerate:
 *
 *   node -r ./tools/register.js tools/deploy/grafana-dashboards.ts
 *
 * tools/deploy/observability.spec.ts fails when the committed JSON differs from what this writes,
 * and checks every query against the metric names the code registers.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const DS = { type: 'prometheus', uid: '${datasource}' };
const RI = '$__rate_interval';

interface Item {
  title: string;
  /** [PromQL, legend] per query */
  exprs: Array<[string, string]>;
  unit?: string;
  w?: number;
  kind?: 'timeseries' | 'stat';
  desc?: string;
}
type Section = [title: string, items: Item[]];

function panel(id: number, it: Item, x: number, y: number): Record<string, unknown> {
  const kind = it.kind ?? 'timeseries';
  const p: Record<string, unknown> = {
    id,
    type: kind,
    title: it.title,
    datasource: DS,
    gridPos: { x, y, w: it.w ?? 12, h: 8 },
    targets: it.exprs.map(([expr, legendFormat], i) => ({ datasource: DS, expr, legendFormat, refId: String.fromCharCode(65 + i) })),
    fieldConfig: { defaults: { unit: it.unit ?? 'short' }, overrides: [] },
    options: kind === 'timeseries' ? { legend: { displayMode: 'list', placement: 'bottom' }, tooltip: { mode: 'multi' } } : {},
  };
  if (it.desc) p['description'] = it.desc;
  return p;
}

function dashboard(uid: string, title: string, sections: Section[], tags: string[]): Record<string, unknown> {
  const panels: unknown[] = [];
  let id = 1;
  let y = 0;
  for (const [sectionTitle, items] of sections) {
    panels.push({ id: id++, type: 'row', title: sectionTitle, collapsed: false, gridPos: { x: 0, y, w: 24, h: 1 }, panels: [] });
    y += 1;
    let x = 0;
    for (const it of items) {
      const w = it.w ?? 12;
      if (x + w > 24) {
        x = 0;
        y += 8;
      }
      panels.push(panel(id++, it, x, y));
      x += w;
    }
    y += 8;
  }
  return {
    uid,
    title,
    tags: ['tokensvc', ...tags],
    timezone: 'utc',
    schemaVersion: 39,
    version: 1,
    editable: true,
    refresh: '30s',
    time: { from: 'now-6h', to: 'now' },
    templating: { list: [{ name: 'datasource', label: 'Prometheus', type: 'datasource', query: 'prometheus', current: {}, hide: 0 }] },
    annotations: { list: [] },
    links: [{ title: 'tokensvc', type: 'dashboards', tags: ['tokensvc'], asDropdown: true }],
    panels,
  };
}

function nats(service: string): Section {
  const s = `service="${service}"`;
  return [
    'NATS handlers',
    [
      {
        title: 'Requests/s by subject and outcome',
        exprs: [[`sum by (subject, outcome) (rate(nats_handler_duration_seconds_count{${s}}[${RI}]))`, '{{subject}} {{outcome}}']],
        unit: 'reqps',
      },
      {
        title: 'Server errors ratio by subject',
        exprs: [[`service_subject:nats_errors:ratio5m{${s}}`, '{{subject}}']],
        unit: 'percentunit',
        desc: 'internal, unavailable and timeout outcomes among all requests (recording rule)',
      },
      {
        title: 'p99 handling time by subject',
        exprs: [
          [`histogram_quantile(0.99, sum by (subject, le) (rate(nats_handler_duration_seconds_bucket{${s}}[${RI}])))`, '{{subject}}'],
        ],
        unit: 's',
      },
      {
        title: 'p50 handling time by subject',
        exprs: [[`histogram_quantile(0.5, sum by (subject, le) (rate(nats_handler_duration_seconds_bucket{${s}}[${RI}])))`, '{{subject}}']],
        unit: 's',
      },
    ],
  ];
}

function processPanels(service: string): Section {
  const s = `service="${service}"`;
  return [
    'Process',
    [
      { title: 'Replicas up', exprs: [[`sum(up{job="tokensvc", ${s}})`, 'up']], w: 6, kind: 'stat' },
      { title: 'CPU', exprs: [[`rate(process_cpu_seconds_total{${s}}[${RI}])`, '{{instance}}']], unit: 'percentunit', w: 6 },
      { title: 'Resident memory', exprs: [[`process_resident_memory_bytes{${s}}`, '{{instance}}']], unit: 'bytes', w: 6 },
      { title: 'Event loop lag p99', exprs: [[`nodejs_eventloop_lag_p99_seconds{${s}}`, '{{instance}}']], unit: 's', w: 6 },
    ],
  ];
}

const byNetwork = (metric: string, agg = 'max'): [string, string] => [`${agg} by (network) (${metric})`, '{{network}}'];
const rate = (metric: string, by: string): string => `sum by (${by}) (rate(${metric}[${RI}]))`;

/** File name (without .json) to dashboard. */
export function dashboards(): Record<string, Record<string, unknown>> {
  return {
    'tokensvc-overview': dashboard(
      'tokensvc-overview',
      'tokensvc / Overview',
      [
        [
          'Availability',
          [
            { title: 'Replicas up by service', exprs: [['sum by (service) (up{job="tokensvc"})', '{{service}}']], w: 12 },
            {
              title: 'Gateway requests/s by status',
              exprs: [['sum by (status) (service_route_status:http_requests:rate5m{service="gateway"})', '{{status}}']],
              unit: 'reqps',
            },
          ],
        ],
        [
          'Errors and latency',
          [
            { title: 'Gateway 5xx ratio', exprs: [['service:http_errors:ratio5m{service="gateway"}', '5xx']], unit: 'percentunit', w: 8 },
            {
              title: 'Gateway p99 (SSE streams left out)',
              exprs: [['service:http_request_duration_seconds:p99_5m{service="gateway"}', 'p99']],
              unit: 's',
              w: 8,
            },
            {
              title: 'NATS server errors ratio by service and subject',
              exprs: [['service_subject:nats_errors:ratio5m > 0', '{{service}} {{subject}}']],
              unit: 'percentunit',
              w: 8,
            },
            {
              title: 'NATS requests/s by service',
              exprs: [['sum by (service) (service_subject_outcome:nats_requests:rate5m)', '{{service}}']],
              unit: 'reqps',
            },
            {
              title: 'NATS p99 by service and subject',
              exprs: [['service_subject:nats_handler_duration_seconds:p99_5m', '{{service}} {{subject}}']],
              unit: 's',
            },
          ],
        ],
        [
          'Freshness',
          [
            { title: 'Indexer lag (blocks)', exprs: [byNetwork('indexer_head_lag_blocks')] },
            { title: 'Status-tracker follower lag (blocks)', exprs: [byNetwork('status_tracker_follower_lag_blocks')] },
          ],
        ],
        [
          'Relayer and push',
          [
            { title: 'Relayer balance (native)', exprs: [byNetwork('quote_relayer_balance', 'min')], w: 6 },
            { title: 'Relayed orders stuck', exprs: [byNetwork('quote_relay_stuck')], w: 6 },
            { title: 'Relayer nonce gap', exprs: [byNetwork('quote_relayer_nonce_gap')], w: 6 },
            { title: 'Webhook failure ratio', exprs: [['status_tracker:webhook_failures:ratio15m', 'failed']], unit: 'percentunit', w: 6 },
          ],
        ],
      ],
      ['overview'],
    ),

    'tokensvc-gateway': dashboard(
      'tokensvc-gateway',
      'tokensvc / Gateway',
      [
        [
          'HTTP',
          [
            {
              title: 'Requests/s by route and status',
              exprs: [[rate('http_request_duration_seconds_count{service="gateway"}', 'route, status'), '{{route}} {{status}}']],
              unit: 'reqps',
            },
            { title: '5xx ratio', exprs: [['service:http_errors:ratio5m{service="gateway"}', '5xx']], unit: 'percentunit' },
            {
              title: 'p99 by route (SSE streams left out)',
              exprs: [['service_route:http_request_duration_seconds:p99_5m{service="gateway"}', '{{route}}']],
              unit: 's',
            },
            {
              title: 'p50 by route',
              exprs: [
                [
                  `histogram_quantile(0.5, sum by (route, le) (rate(http_request_duration_seconds_bucket{service="gateway", route!~".*/stream"}[${RI}])))`,
                  '{{route}}',
                ],
              ],
              unit: 's',
            },
          ],
        ],
        [
          'Access and limits',
          [
            {
              title: 'Auth rejections/s by reason',
              exprs: [[rate('gateway_auth_rejections_total', 'reason'), '{{reason}}']],
              unit: 'reqps',
              w: 8,
            },
            {
              title: '429s/s by surface and reason',
              exprs: [[rate('gateway_limit_rejections_total', 'surface, reason'), '{{surface}} {{reason}}']],
              unit: 'reqps',
              w: 8,
            },
            { title: 'API key cache hit ratio', exprs: [['gateway:key_cache_hits:ratio5m', 'hits']], unit: 'percentunit', w: 8 },
          ],
        ],
        [
          'Status streams',
          [
            {
              title: 'SSE streams open',
              exprs: [
                ['sum by (instance) (gateway_sse_streams_open)', '{{instance}}'],
                ['sum(gateway_sse_streams_open)', 'total'],
              ],
            },
          ],
        ],
        processPanels('gateway'),
      ],
      ['gateway'],
    ),

    'tokensvc-token-data': dashboard(
      'tokensvc-token-data',
      'tokensvc / token-data',
      [
        nats('token-data'),
        [
          'Reply cache',
          [
            { title: 'Hit ratio by cache', exprs: [['cache:token_data_cache_hits:ratio5m', '{{cache}}']], unit: 'percentunit', w: 8 },
            {
              title: 'Lookups/s by cache and result',
              exprs: [[rate('token_data_cache_lookups_total', 'cache, result'), '{{cache}} {{result}}']],
              unit: 'ops',
              w: 8,
            },
            { title: 'Clears/s (new blocks)', exprs: [[`sum(rate(token_data_cache_clears_total[${RI}]))`, 'clears']], unit: 'ops', w: 8 },
          ],
        ],
        processPanels('token-data'),
      ],
      ['token-data'],
    ),

    'tokensvc-indexer': dashboard(
      'tokensvc-indexer',
      'tokensvc / Indexer',
      [
        [
          'Progress',
          [
            { title: 'Lag (blocks) by network', exprs: [byNetwork('indexer_head_lag_blocks')] },
            {
              title: 'Head and cursor',
              exprs: [
                ['max by (network) (indexer_chain_head_block)', '{{network}} head'],
                ['max by (network) (indexer_cursor_block)', '{{network}} cursor'],
              ],
            },
            { title: 'Blocks/s', exprs: [[rate('indexer_blocks_total', 'network'), '{{network}}']], unit: 'ops', w: 8 },
            { title: 'Logs/s', exprs: [[rate('indexer_logs_total', 'network'), '{{network}}']], unit: 'ops', w: 8 },
            {
              title: 'Batch write p99',
              exprs: [
                [`histogram_quantile(0.99, sum by (network, le) (rate(indexer_batch_duration_seconds_bucket[${RI}])))`, '{{network}}'],
              ],
              unit: 's',
              w: 8,
            },
          ],
        ],
        [
          'Chain health',
          [
            {
              title: 'Reorgs (1h)',
              exprs: [
                ['sum by (network) (increase(indexer_reorgs_total[1h]))', '{{network}}'],
                ['sum by (network) (increase(indexer_deep_reorgs_total[1h]))', '{{network}} deep'],
              ],
              w: 8,
            },
            { title: 'Data ahead of chain', exprs: [byNetwork('indexer_data_ahead_of_chain')], w: 8 },
            {
              title: 'RPC retries/s',
              exprs: [[rate('indexer_rpc_retries_total', 'network, method'), '{{network}} {{method}}']],
              unit: 'ops',
              w: 8,
            },
            {
              title: 'Events published/s',
              exprs: [[rate('indexer_events_published_total', 'network, kind'), '{{network}} {{kind}}']],
              unit: 'ops',
            },
            { title: 'Malformed logs/s', exprs: [[rate('indexer_malformed_logs_total', 'network'), '{{network}}']], unit: 'ops' },
          ],
        ],
        nats('indexer'),
        processPanels('indexer'),
      ],
      ['indexer'],
    ),

    'tokensvc-quote': dashboard(
      'tokensvc-quote',
      'tokensvc / Quote',
      [
        nats('quote'),
        [
          'Quote builds',
          [
            { title: 'p99 build time by kind', exprs: [['kind:quote_build_duration_seconds:p99_5m', '{{kind}}']], unit: 's' },
            {
              title: 'Builds/s by kind and outcome',
              exprs: [[rate('quote_build_duration_seconds_count', 'kind, outcome'), '{{kind}} {{outcome}}']],
              unit: 'ops',
            },
            {
              title: 'Estimate simulations/s by network and outcome',
              exprs: [[rate('quote_estimate_simulations_total', 'network, outcome'), '{{network}} {{outcome}}']],
              unit: 'ops',
            },
            {
              title: 'Estimate simulation failure ratio',
              exprs: [['network:quote_estimate_simulation_failures:ratio15m', '{{network}}']],
              unit: 'percentunit',
            },
          ],
        ],
        [
          'Relayer',
          [
            { title: 'Wallet balance (native)', exprs: [byNetwork('quote_relayer_balance', 'min')], w: 8 },
            {
              title: 'Pending and stuck relayed orders',
              exprs: [
                ['max by (network) (quote_relay_pending)', '{{network}} pending'],
                ['max by (network) (quote_relay_stuck)', '{{network}} stuck'],
              ],
              w: 8,
            },
            { title: 'Oldest pending order age', exprs: [byNetwork('quote_relay_oldest_pending_seconds')], unit: 's', w: 8 },
            { title: 'Nonce gap', exprs: [byNetwork('quote_relayer_nonce_gap')], w: 8 },
            {
              title: 'Nonce reconciliations and filled holes (1h)',
              exprs: [
                ['sum by (network) (increase(quote_relayer_nonce_reconciled_total[1h]))', '{{network}} reconciled'],
                ['sum by (network) (increase(quote_relayer_nonce_holes_filled_total[1h]))', '{{network}} holes filled'],
              ],
              w: 8,
            },
            {
              title: 'Relayed orders final/s by state',
              exprs: [[rate('quote_relay_final_total', 'network, state'), '{{network}} {{state}}']],
              unit: 'ops',
              w: 8,
            },
            {
              title: 'Relayer gauge sampling errors (15m)',
              exprs: [['sum by (network) (increase(quote_relay_monitor_errors_total[15m]))', '{{network}}']],
            },
          ],
        ],
        processPanels('quote'),
      ],
      ['quote'],
    ),

    'tokensvc-status-tracker': dashboard(
      'tokensvc-status-tracker',
      'tokensvc / Status tracker',
      [
        nats('status-tracker'),
        [
          'Bridge event followers',
          [
            { title: 'Lag (blocks) by network', exprs: [byNetwork('status_tracker_follower_lag_blocks')], w: 8 },
            {
              title: 'Head and cursor',
              exprs: [
                ['max by (network) (status_tracker_follower_head_block)', '{{network}} head'],
                ['max by (network) (status_tracker_follower_cursor_block)', '{{network}} cursor'],
              ],
              w: 8,
            },
            {
              title: 'Reads/s by result and errors/s',
              exprs: [
                [rate('status_tracker_follower_ticks_total', 'network, result'), '{{network}} {{result}}'],
                [rate('status_tracker_follower_errors_total', 'network'), '{{network}} errors'],
              ],
              unit: 'ops',
              w: 8,
            },
          ],
        ],
        [
          'Webhooks',
          [
            {
              title: 'Delivery attempts/s by outcome',
              exprs: [[rate('status_tracker_webhook_delivery_duration_seconds_count', 'outcome'), '{{outcome}}']],
              unit: 'ops',
              w: 8,
            },
            { title: 'Failure ratio', exprs: [['status_tracker:webhook_failures:ratio15m', 'failed']], unit: 'percentunit', w: 8 },
            {
              title: 'Delivery p99 and webhooks given up (1h)',
              exprs: [
                [`histogram_quantile(0.99, sum by (le) (rate(status_tracker_webhook_delivery_duration_seconds_bucket[${RI}])))`, 'p99'],
                ['sum(increase(status_tracker_webhooks_given_up_total[1h]))', 'given up'],
              ],
              w: 8,
            },
          ],
        ],
        processPanels('status-tracker'),
      ],
      ['status-tracker'],
    ),
  };
}

/** The file text of a dashboard as committed. */
export const dashboardJson = (d: Record<string, unknown>): string => `${JSON.stringify(d, null, 2)}\n`;

if (require.main === module) {
  const dir = join(__dirname, '..', '..', 'deploy', 'grafana');
  for (const [name, d] of Object.entries(dashboards())) writeFileSync(join(dir, `${name}.json`), dashboardJson(d));
  process.stdout.write(`wrote ${Object.keys(dashboards()).length} dashboards to deploy/grafana\n`);
}
