/**
 * Checks of the monitoring that ships with the service (deploy/prometheus, deploy/grafana):
 * - the metric names the code registers, read from the modules themselves: every non-test file of
 *   apps/ and libs/ that imports prom-client is loaded, and every metric it exports (alone, in an
 *   object, or in an exported Registry) is put in one registry and read back from its exposition;
 * - every metric name a Grafana panel, a recording rule or an alert names must be one of those (or
 *   a recording rule's, or one Prometheus makes itself such as `up`);
 * - promtool: rule syntax (`check rules`), the alert unit tests (`test rules`), the scrape config
 *   (`check config`), and the syntax of every dashboard query (checked as recording rules).
 * Run by tools/deploy/observability.spec.ts (npm test). promtool comes with Debian's `prometheus`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix, relative, sep } from 'node:path';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, Summary, type Metric } from 'prom-client';
import { parse } from 'yaml';

export const REPO_ROOT = join(__dirname, '..', '..');
export const PROMETHEUS_DIR = 'deploy/prometheus';
export const GRAFANA_DIR = 'deploy/grafana';
export const RULE_FILES = ['deploy/prometheus/rules/tokensvc-recording.yml', 'deploy/prometheus/rules/tokensvc-alerts.yml'];
export const RULE_TESTS = ['deploy/prometheus/tests/tokensvc-alerts.test.yml'];
export const SCRAPE_CONFIG = 'deploy/prometheus/prometheus.example.yml';

/** Series Prometheus writes itself for every target. */
export const PROMETHEUS_SERIES = [
  'up',
  'scrape_duration_seconds',
  'scrape_samples_scraped',
  'scrape_samples_post_metric_relabeling',
  'scrape_series_added',
];

export interface ObservabilityProblem {
  file: string;
  where: string;
  message: string;
}

/** Source files (repo-relative) of apps/ and libs/ that import prom-client, tests left out. */
export function metricModules(root = REPO_ROOT): string[] {
  const out: string[] = [];
  for (const top of ['apps', 'libs']) {
    for (const p of readdirSync(join(root, top), { recursive: true, encoding: 'utf8' })) {
      const rel = posix.join(top, p.split(sep).join('/'));
      if (!/\/src\/.*\.ts$/.test(rel) || /\.(spec|int-spec|e2e-spec)\.ts$/.test(rel) || rel.includes('/node_modules/')) continue;
      if (/from 'prom-client'/.test(readFileSync(join(root, rel), 'utf8'))) out.push(rel);
    }
  }
  return out.sort();
}

function collect(value: unknown, metrics: Set<Metric>, registries: Set<Registry>, depth = 0): void {
  if (value instanceof Counter || value instanceof Gauge || value instanceof Histogram || value instanceof Summary)
    metrics.add(value as Metric);
  else if (value instanceof Registry) registries.add(value);
  else if (depth < 2 && value !== null && typeof value === 'object')
    for (const v of Object.values(value)) collect(v, metrics, registries, depth + 1);
}

/** `# TYPE` lines of an exposition, histograms and summaries with their series suffixes. */
export function exposedNames(exposition: string): string[] {
  const names: string[] = [];
  for (const m of exposition.matchAll(/^# TYPE (\S+) (\w+)$/gm)) {
    const [, name, type] = m as unknown as [string, string, string];
    if (type === 'histogram') names.push(`${name}_bucket`, `${name}_sum`, `${name}_count`);
    else if (type === 'summary') names.push(name, `${name}_sum`, `${name}_count`);
    else names.push(name);
  }
  return names;
}

/** Every series name the apps can expose: their metric modules' metrics and the process metrics. */
export async function registeredMetricNames(root = REPO_ROOT): Promise<{ names: Set<string>; modules: string[] }> {
  const metrics = new Set<Metric>();
  const registries = new Set<Registry>();
  const modules = metricModules(root);
  for (const file of modules) collect(await import(join(root, file)), metrics, registries);
  const all = new Registry();
  collectDefaultMetrics({ register: all });
  const names = new Set(exposedNames(await all.metrics()));
  for (const r of registries) for (const n of exposedNames(await r.metrics())) names.add(n);
  const mine = new Registry();
  for (const m of metrics) {
    // the same metric exported twice (a module and its index) is one
    if (!mine.getSingleMetric((m as unknown as { name: string }).name)) mine.registerMetric(m);
  }
  for (const n of exposedNames(await mine.metrics())) names.add(n);
  return { names, modules };
}

const KEYWORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
  'and',
  'or',
  'unless',
  'offset',
  'inf',
  'nan',
  'atan2',
]);

/** Grafana's variables replaced so a panel query is plain PromQL. */
export function grafanaToPromQL(expr: string): string {
  return expr.replace(/\$__(rate_interval|interval|range)\b/g, '5m').replace(/\$\{(\w+)(:\w+)?\}|\$(\w+)/g, 'var');
}

/** `s` with every `open`...`close` section (label matchers, ranges) blanked, in one pass. */
function withoutDelimited(s: string, open: string, close: string): string {
  let out = '';
  let inside = false;
  for (const c of s) {
    if (!inside && c === open) inside = true;
    else if (inside && c === close) {
      inside = false;
      out += ' ';
    } else if (!inside) out += c;
  }
  return out;
}

/** Metric names a PromQL expression selects (functions, keywords, labels, strings and durations left out). */
export function metricNamesIn(expr: string): string[] {
  const quoted = expr.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""');
  const bare = withoutDelimited(withoutDelimited(quoted, '{', '}'), '[', ']').replace(
    /\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g,
    ' ',
  );
  const names = new Set<string>();
  for (const m of bare.matchAll(/(?<![\w:.])([a-zA-Z_:][\w:]*)(?=\s*(\(?))/g)) {
    const [, name, paren] = m as unknown as [string, string, string];
    if (paren === '(' || KEYWORDS.has(name.toLowerCase())) continue;
    names.add(name);
  }
  return [...names];
}

interface RuleFile {
  groups: Array<{ name: string; rules: Array<{ record?: string; alert?: string; expr: string }> }>;
}

const readYaml = <T>(root: string, file: string): T => parse(readFileSync(join(root, file), 'utf8')) as T;

export function ruleExprs(root = REPO_ROOT): Array<{ file: string; where: string; expr: string; record?: string; alert?: string }> {
  return RULE_FILES.flatMap((file) =>
    readYaml<RuleFile>(root, file).groups.flatMap((g) =>
      g.rules.map((r) => ({ file, where: `${g.name}/${r.record ?? r.alert}`, expr: r.expr, record: r.record, alert: r.alert })),
    ),
  );
}

interface Panel {
  title?: string;
  type?: string;
  targets?: Array<{ expr?: string; refId?: string }>;
  panels?: Panel[];
}

export function dashboardFiles(root = REPO_ROOT): string[] {
  return readdirSync(join(root, GRAFANA_DIR))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => posix.join(GRAFANA_DIR, f));
}

/** Every query of every panel (rows' nested panels included). */
export function dashboardExprs(root = REPO_ROOT): Array<{ file: string; where: string; expr: string }> {
  const out: Array<{ file: string; where: string; expr: string }> = [];
  for (const file of dashboardFiles(root)) {
    const walk = (panels: Panel[] | undefined): void => {
      for (const p of panels ?? []) {
        for (const t of p.targets ?? []) out.push({ file, where: `panel "${p.title ?? '?'}" query ${t.refId ?? '?'}`, expr: t.expr ?? '' });
        walk(p.panels);
      }
    };
    walk((JSON.parse(readFileSync(join(root, file), 'utf8')) as { panels?: Panel[] }).panels);
  }
  return out;
}

/**
 * The shape Grafana needs of each dashboard: a unique uid and a title, the Prometheus data source
 * variable the queries use, and panels with a unique id, a type, a grid position and (rows aside)
 * at least one query.
 */
export function dashboardShapeProblems(root = REPO_ROOT): ObservabilityProblem[] {
  const problems: ObservabilityProblem[] = [];
  const uids = new Map<string, string>();
  for (const file of dashboardFiles(root)) {
    const d = JSON.parse(readFileSync(join(root, file), 'utf8')) as {
      uid?: string;
      title?: string;
      panels?: Array<Panel & { id?: number; gridPos?: unknown }>;
      templating?: { list?: Array<{ name?: string; type?: string }> };
    };
    const at = (where: string, message: string): void => void problems.push({ file, where, message });
    if (!d.uid) at('uid', 'missing');
    else if (uids.has(d.uid)) at('uid', `"${d.uid}" is also ${uids.get(d.uid)}'s`);
    else uids.set(d.uid, file);
    if (!d.title) at('title', 'missing');
    if (!(d.templating?.list ?? []).some((v) => v.name === 'datasource' && v.type === 'datasource'))
      at('templating', 'no `datasource` variable of type datasource (the queries use ${datasource})');
    const ids = new Set<number>();
    for (const p of d.panels ?? []) {
      const where = `panel "${p.title ?? '?'}"`;
      if (typeof p.id !== 'number' || ids.has(p.id)) at(where, `id ${String(p.id)} missing or not unique`);
      else ids.add(p.id);
      if (!p.type) at(where, 'no type');
      if (!p.gridPos) at(where, 'no gridPos');
      if (p.type !== 'row' && (p.targets ?? []).length === 0) at(where, 'no query');
    }
    if ((d.panels ?? []).length === 0) at('panels', 'none');
  }
  return problems;
}

/** Metric names that rules and dashboards use but nothing registers (or records). */
export function unknownMetrics(
  queries: ReadonlyArray<{ file: string; where: string; expr: string }>,
  known: ReadonlySet<string>,
): ObservabilityProblem[] {
  const problems: ObservabilityProblem[] = [];
  for (const q of queries) {
    if (q.expr.trim() === '') problems.push({ file: q.file, where: q.where, message: 'empty query' });
    for (const name of metricNamesIn(grafanaToPromQL(q.expr))) {
      if (!known.has(name))
        problems.push({
          file: q.file,
          where: q.where,
          message: `names metric "${name}", which no metric module registers (nor a recording rule, nor Prometheus)`,
        });
    }
  }
  return problems;
}

/** Alerts of the rule files that no `promtool test rules` case evaluates. */
export function untestedAlerts(root = REPO_ROOT): string[] {
  const tested = new Set(
    RULE_TESTS.flatMap((f) =>
      readYaml<{ tests: Array<{ alert_rule_test?: Array<{ alertname: string; exp_alerts?: unknown[] }> }> }>(root, f).tests.flatMap((t) =>
        (t.alert_rule_test ?? []).filter((a) => (a.exp_alerts ?? []).length > 0).map((a) => a.alertname),
      ),
    ),
  );
  return ruleExprs(root)
    .filter((r) => r.alert && !tested.has(r.alert))
    .map((r) => r.alert!);
}

export class PromtoolMissing extends Error {}

/** Runs promtool; throws PromtoolMissing when it is not installed. */
export function promtool(args: readonly string[], root = REPO_ROOT): { ok: boolean; output: string } {
  const r = spawnSync('promtool', args, { cwd: root, encoding: 'utf8', timeout: 60_000 });
  if (r.error && (r.error as NodeJS.ErrnoException).code === 'ENOENT') {
    throw new PromtoolMissing(
      'promtool not found: it checks deploy/prometheus; install it with `apt-get install prometheus` (Debian/Ubuntu; .ci/run does this)',
    );
  }
  if (r.error) throw r.error;
  return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` };
}

/** Syntax of the dashboard queries: each one becomes a recording rule of a scratch file for `promtool check rules`. */
export function checkQuerySyntax(queries: ReadonlyArray<{ file: string; where: string; expr: string }>): { ok: boolean; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tokensvc-dashboards-'));
  try {
    const file = join(dir, 'dashboard-queries.yml');
    const rules = queries.map((q, i) => ({
      record: `dashboard_query_${i}`,
      expr: grafanaToPromQL(q.expr),
      labels: { source: `${q.file} ${q.where}` },
    }));
    writeFileSync(file, JSON.stringify({ groups: [{ name: 'dashboards', rules }] }, null, 1));
    return promtool(['check', 'rules', file]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const formatProblem = (p: ObservabilityProblem, root = REPO_ROOT): string =>
  `${relative(root, join(root, p.file))}: ${p.where}: ${p.message}`;
