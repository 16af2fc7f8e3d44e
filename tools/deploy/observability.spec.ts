import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dashboardJson, dashboards } from './grafana-dashboards';
import {
  checkQuerySyntax,
  dashboardExprs,
  dashboardFiles,
  dashboardShapeProblems,
  formatProblem,
  grafanaToPromQL,
  metricNamesIn,
  PROMETHEUS_SERIES,
  promtool,
  registeredMetricNames,
  REPO_ROOT,
  RULE_FILES,
  RULE_TESTS,
  ruleExprs,
  SCRAPE_CONFIG,
  unknownMetrics,
  untestedAlerts,
} from './observability';

jest.setTimeout(60_000);

/** promtool's output on failure, or the install hint when it is missing (the error says how). */
function expectPromtool(args: string[]): void {
  const r = promtool(args);
  if (!r.ok) throw new Error(`promtool ${args.join(' ')} failed:\n${r.output}`);
  expect(r.output).toMatch(/SUCCESS/);
}

describe('monitoring shipped in deploy/ (Prometheus rules, alert tests, Grafana dashboards)', () => {
  let known: Set<string>;

  beforeAll(async () => {
    const { names } = await registeredMetricNames();
    const recorded = ruleExprs().flatMap((r) => (r.record ? [r.record] : []));
    known = new Set([...names, ...recorded, ...PROMETHEUS_SERIES]);
  });

  it('reads the registered metric names from the code (every app and the shared NATS handler wrapper)', async () => {
    const { names, modules } = await registeredMetricNames();
    expect(modules).toEqual(
      expect.arrayContaining([
        'apps/gateway/src/http/metrics.ts',
        'apps/indexer/src/metrics.ts',
        'apps/quote/src/metrics.ts',
        'apps/status-tracker/src/metrics.ts',
        'apps/token-data/src/metrics.ts',
        'libs/transport/src/rpc-metrics.ts',
      ]),
    );
    for (const n of [
      'http_request_duration_seconds_bucket',
      'nats_handler_duration_seconds_count',
      'quote_build_duration_seconds_bucket',
      'quote_relayer_balance',
      'quote_relayer_nonce_gap',
      'status_tracker_follower_lag_blocks',
      'status_tracker_webhook_delivery_duration_seconds_count',
      'token_data_cache_lookups_total',
      'gateway_sse_streams_open',
      'indexer_head_lag_blocks',
      'process_cpu_seconds_total',
    ]) {
      expect(names).toContain(n);
    }
    expect(names).not.toContain('quote_relayer_balance_bucket');
  });

  it('promtool accepts the rule files and the scrape config', () => {
    expectPromtool(['check', 'rules', ...RULE_FILES]);
    expectPromtool(['check', 'config', SCRAPE_CONFIG]);
  });

  it('the alert unit tests pass (promtool test rules), and every alert has one that fires it', () => {
    expectPromtool(['test', 'rules', ...RULE_TESTS]);
    expect(untestedAlerts()).toEqual([]);
  });

  it('rules name only metrics the code registers', () => {
    const problems = unknownMetrics(ruleExprs(), known);
    expect(problems.map((p) => formatProblem(p))).toEqual([]);
  });

  it('every dashboard panel queries only metrics the code registers, in valid PromQL', () => {
    expect(dashboardFiles().length).toBeGreaterThanOrEqual(6);
    expect(dashboardShapeProblems().map((p) => formatProblem(p))).toEqual([]);
    const queries = dashboardExprs();
    expect(queries.length).toBeGreaterThan(50);
    expect(unknownMetrics(queries, known).map((p) => formatProblem(p))).toEqual([]);
    const syntax = checkQuerySyntax(queries);
    if (!syntax.ok) throw new Error(`dashboard queries promtool rejects:\n${syntax.output}`);
  });

  it('reports a query naming a metric nobody registers, and a query that is not PromQL', () => {
    const bad = [
      {
        file: 'deploy/grafana/x.json',
        where: 'panel "p" query A',
        expr: 'sum by (network) (rate(quote_relayer_balanse_total{network="$network"}[$__rate_interval])) / on(network) quote_relayer_balance',
      },
    ];
    expect(unknownMetrics(bad, known).map((p) => formatProblem(p))).toEqual([
      'deploy/grafana/x.json: panel "p" query A: names metric "quote_relayer_balanse_total", which no metric module registers (nor a recording rule, nor Prometheus)',
    ]);
    expect(checkQuerySyntax([{ file: 'x', where: 'y', expr: 'sum(rate(up[5m]) by' }]).ok).toBe(false);
  });

  it('the committed dashboards are what tools/deploy/grafana-dashboards.ts generates (regenerate after editing it)', () => {
    const generated = dashboards();
    expect(dashboardFiles()).toEqual(
      Object.keys(generated)
        .sort()
        .map((n) => `deploy/grafana/${n}.json`),
    );
    for (const [name, d] of Object.entries(generated))
      expect({ name, json: readFileSync(join(REPO_ROOT, 'deploy', 'grafana', `${name}.json`), 'utf8') }).toEqual({
        name,
        json: dashboardJson(d),
      });
  });

  it('reports a dashboard Grafana could not load as meant: no data source variable, duplicate panel ids, a panel without query', () => {
    const root = mkdtempSync(join(tmpdir(), 'tokensvc-grafana-'));
    try {
      mkdirSync(join(root, 'deploy', 'grafana'), { recursive: true });
      const panel = (id: number, targets: unknown[]): unknown => ({
        id,
        type: 'timeseries',
        title: `p${id}`,
        gridPos: { x: 0, y: 0, w: 12, h: 8 },
        targets,
      });
      writeFileSync(
        join(root, 'deploy', 'grafana', 'a.json'),
        JSON.stringify({ uid: 'a', title: 'A', panels: [panel(1, [{ expr: 'up' }]), panel(1, [{ expr: 'up' }]), panel(2, [])] }),
      );
      expect(dashboardShapeProblems(root).map((p) => `${p.file}: ${p.where}: ${p.message}`)).toEqual([
        'deploy/grafana/a.json: templating: no `datasource` variable of type datasource (the queries use ${datasource})',
        'deploy/grafana/a.json: panel "p1": id 1 missing or not unique',
        'deploy/grafana/a.json: panel "p2": no query',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('finds metric names in PromQL and leaves functions, keywords, labels and durations out', () => {
    expect(
      metricNamesIn(
        'histogram_quantile(0.99, sum by (service, le) (rate(nats_handler_duration_seconds_bucket{outcome!~"ok|x{1}"}[5m] offset 1h)))',
      ),
    ).toEqual(['nats_handler_duration_seconds_bucket']);
    expect(
      metricNamesIn('a:b:ratio5m > 0.05 and on(service) sum without (instance) (up == 0) unless absent(c_total) or vector(1) > bool 2e3'),
    ).toEqual(['a:b:ratio5m', 'up', 'c_total']);
    expect(grafanaToPromQL('rate(x{network=~"${network:regex}", s="$service"}[$__rate_interval])')).toBe(
      'rate(x{network=~"var", s="var"}[5m])',
    );
  });
});
