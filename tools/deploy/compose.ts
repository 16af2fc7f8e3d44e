/**
 * docker-compose.yml: the file against ./schemas/compose.json (after YAML merge keys), then what
 * `docker compose config` would only notice at `up` time, or not at all: dangling depends_on,
 * service_healthy on a service without a healthcheck, malformed ports, undeclared volumes and
 * networks, and app services missing the connection URLs they cannot start without.
 */
import { describeErrors, isObject, parseYaml, problem, validator, type Json, type Problem, type SourceFile } from './validate';

/** Every app reads these at boot; the defaults point at 127.0.0.1, which inside a container is the container itself. */
export const REQUIRED_APP_ENV = ['NATS_URL', 'DATABASE_URL', 'REDIS_URL'] as const;

export interface ComposeService {
  readonly name: string;
  readonly raw: Json;
  /** environment as a map; values interpolated with their ${VAR:-default}s, undefined when only the host's env decides. */
  readonly env: Record<string, string | undefined>;
  /** Built from the repo's own Dockerfile (context "." and dockerfile "Dockerfile"). */
  readonly builtFromRepo: boolean;
  readonly buildArgs: Record<string, string>;
  /** Built from the repo and runs the image's CMD (the app named by APP), not a one-off command such as migrate. */
  readonly runsApp: boolean;
}

export interface ComposeOptions {
  /** The repo's Dockerfile declares a HEALTHCHECK, so repo-built services have one without a compose healthcheck. */
  readonly dockerfileHasHealthcheck?: boolean;
}

/**
 * Compose variable interpolation, as far as it can be done without the host's environment:
 * ${VAR:-default} and ${VAR-default} give the default, $$ is a literal $, and a bare $VAR or
 * ${VAR} makes the result unknowable (undefined).
 */
export function interpolate(value: string): string | undefined {
  let unknown = false;
  const out = value.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (m, _braced, op: string | undefined, arg: string | undefined) => {
      if (m === '$$') return '$';
      if (op === ':-' || op === '-') return arg ?? '';
      unknown = true;
      return '';
    },
  );
  return unknown ? undefined : out;
}

const str = (v: unknown): string | undefined => (v === null || v === undefined ? undefined : String(v));

function envMap(environment: unknown): Record<string, string | undefined> {
  const pairs: [string, unknown][] = Array.isArray(environment)
    ? environment.map((e: string) => (e.includes('=') ? [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)] : [e, undefined]))
    : Object.entries(isObject(environment) ? environment : {});
  // A bare key (list "KEY" or map "KEY:") passes the host's value through: unknowable here.
  return Object.fromEntries(pairs.map(([k, v]) => [k, v === undefined || v === null ? undefined : interpolate(String(v))]));
}

function toService(name: string, raw: Json): ComposeService {
  const build = raw['build'];
  const b: Json = typeof build === 'string' ? { context: build } : isObject(build) ? build : {};
  const context = str(b['context']);
  const builtFromRepo =
    build !== undefined && (context === '.' || context === './') && (str(b['dockerfile']) ?? 'Dockerfile') === 'Dockerfile';
  const argsRaw = b['args'];
  const buildArgs = Object.fromEntries(Object.entries(envMap(argsRaw)).filter((e): e is [string, string] => e[1] !== undefined));
  const runsApp = builtFromRepo && raw['command'] === undefined && raw['entrypoint'] === undefined;
  return { name, raw, env: envMap(raw['environment']), builtFromRepo, buildArgs, runsApp };
}

/** One port mapping, short ("[ip:][host:]container[/proto]", ranges allowed) or long syntax; problems as strings. */
export function checkPort(spec: unknown): string[] {
  const inRange = (p: string): boolean => /^\d+$/.test(p) && Number(p) >= 1 && Number(p) <= 65535;
  const range = (r: string, what: string): string[] => {
    const [lo, hi, ...rest] = r.split('-');
    if (rest.length > 0 || !inRange(lo ?? '') || (hi !== undefined && (!inRange(hi) || Number(hi) < Number(lo))))
      return [`${what} port "${r}" is not a port (1-65535) or range`];
    return [];
  };
  const width = (r: string): number => (r.includes('-') ? Number(r.split('-')[1]) - Number(r.split('-')[0]) : 0);
  if (typeof spec === 'number') return range(String(spec), 'container');
  if (isObject(spec)) {
    const target = str(spec['target']);
    const published = str(spec['published']);
    const out = target === undefined ? ['long-syntax port needs "target"'] : range(interpolate(target) ?? '1', 'container');
    const pub = published === undefined ? undefined : interpolate(published);
    return pub === undefined || pub === '' ? out : [...out, ...range(pub, 'published')];
  }
  if (typeof spec !== 'string') return ['port must be a string, number or mapping'];
  const s = interpolate(spec);
  if (s === undefined) return []; // decided by the host's environment
  const [mapping = '', proto] = s.split('/');
  const out: string[] =
    proto !== undefined && !['tcp', 'udp', 'sctp'].includes(proto) ? [`protocol "${proto}" is not tcp, udp or sctp`] : [];
  // An IPv6 host IP is bracketed ("[::1]:80:80"); drop the IP, keep [host:]container.
  const parts = mapping.replace(/^\[[^\]]*\]:/, '').split(':');
  if (parts.length === 3 && /^[\d.]+$/.test(parts[0] ?? '')) parts.shift();
  if (parts.length > 2 || parts.length === 0) return [...out, `"${spec}" is not [ip:][host:]container[/protocol]`];
  const container = parts[parts.length - 1] ?? '';
  const host = parts.length === 2 ? (parts[0] ?? '') : undefined;
  out.push(...range(container, 'container'));
  if (host !== undefined && host !== '') {
    out.push(...range(host, 'published'));
    if (host.includes('-') && width(host) !== width(container)) out.push(`"${spec}": published and container ranges differ in size`);
  }
  return out;
}

/** Container side of each port mapping that could be read (for cross-checks with what the app listens on). */
export function containerPorts(svc: ComposeService): number[] {
  const ports = Array.isArray(svc.raw['ports']) ? svc.raw['ports'] : [];
  return ports.flatMap((p: unknown) => {
    const s = isObject(p) ? str(p['target']) : typeof p === 'string' ? interpolate(p) : str(p);
    const n = Number(s?.split('/')[0]?.split(':').pop());
    return Number.isInteger(n) ? [n] : [];
  });
}

function hasHealthcheck(svc: ComposeService, opts: ComposeOptions): boolean {
  const hc = svc.raw['healthcheck'];
  if (isObject(hc)) {
    if (hc['disable'] === true) return false;
    const test = hc['test'];
    if (Array.isArray(test) && test[0] === 'NONE') return false;
    if (test !== undefined) return true;
  }
  // No test of its own: the image's HEALTHCHECK applies (only known for the repo's Dockerfile).
  return svc.builtFromRepo && opts.dockerfileHasHealthcheck === true;
}

function dependsOn(svc: ComposeService): Record<string, string> {
  const d = svc.raw['depends_on'];
  if (Array.isArray(d)) return Object.fromEntries(d.map((n: string) => [n, 'service_started']));
  return Object.fromEntries(
    Object.entries(isObject(d) ? d : {}).map(([n, v]) => [n, String(isObject(v) ? v['condition'] : 'service_started')]),
  );
}

/** Named-volume sources (not bind mounts) of a service's volumes. */
function namedVolumes(svc: ComposeService): string[] {
  const vols = Array.isArray(svc.raw['volumes']) ? svc.raw['volumes'] : [];
  return vols.flatMap((v: unknown) => {
    if (isObject(v)) return v['type'] === 'volume' && typeof v['source'] === 'string' ? [v['source']] : [];
    if (typeof v !== 'string' || !v.includes(':')) return []; // "/path" alone is an anonymous volume
    const source = v.slice(0, v.indexOf(':'));
    return /^[.~/$]/.test(source) ? [] : [source];
  });
}

function findCycle(graph: Record<string, string[]>): string[] | undefined {
  const state = new Map<string, 'visiting' | 'done'>();
  const walk = (n: string, path: string[]): string[] | undefined => {
    if (state.get(n) === 'visiting') return [...path.slice(path.indexOf(n)), n];
    if (state.get(n) === 'done' || !(n in graph)) return undefined;
    state.set(n, 'visiting');
    for (const m of graph[n] ?? []) {
      const c = walk(m, [...path, n]);
      if (c) return c;
    }
    state.set(n, 'done');
    return undefined;
  };
  for (const n of Object.keys(graph)) {
    const c = walk(n, []);
    if (c) return c;
  }
  return undefined;
}

export function checkCompose(file: SourceFile, opts: ComposeOptions = {}): { problems: Problem[]; services: ComposeService[] } {
  const problems: Problem[] = [];
  const report = (where: string, message: string): void => void problems.push(problem(file.path, where, message));
  // Compose resolves `<<: *anchor` merge keys; so must we, or every service would look empty.
  const docs = parseYaml(file, problems, { merge: true });
  if (docs.length !== 1 || !isObject(docs[0]?.value)) {
    if (problems.length === 0) report('(root)', 'expected exactly one YAML document holding a mapping');
    return { problems, services: [] };
  }
  const root = docs[0].value;
  const validate = validator('compose.json');
  if (!validate(root)) for (const line of describeErrors(validate.errors)) report(line.split(' ')[0] ?? '(root)', line);

  const services = Object.entries(isObject(root['services']) ? root['services'] : {})
    .filter((e): e is [string, Json] => isObject(e[1]))
    .map(([name, raw]) => toService(name, raw));
  const byName = new Map(services.map((s) => [s.name, s]));
  const declaredVolumes = new Set(Object.keys(isObject(root['volumes']) ? root['volumes'] : {}));
  const declaredNetworks = new Set(['default', ...Object.keys(isObject(root['networks']) ? root['networks'] : {})]);

  for (const svc of services) {
    const at = `services.${svc.name}`;
    if (svc.raw['image'] === undefined && svc.raw['build'] === undefined) report(at, 'has neither image nor build');

    for (const [dep, condition] of Object.entries(dependsOn(svc))) {
      const target = byName.get(dep);
      if (dep === svc.name) report(at, 'depends_on itself');
      else if (!target) report(at, `depends_on "${dep}", which is not a service in this file`);
      else if (condition === 'service_healthy' && !hasHealthcheck(target, opts))
        report(at, `waits for "${dep}" to be service_healthy, but ${dep} has no healthcheck (it would never become healthy)`);
      else if (condition === 'service_completed_successfully' && ['always', 'unless-stopped'].includes(String(target.raw['restart']))) {
        report(
          at,
          `waits for "${dep}" to complete, but ${dep} has restart: ${String(target.raw['restart'])} (a restarted one-shot never counts as completed)`,
        );
      }
    }

    const ports: unknown[] = Array.isArray(svc.raw['ports']) ? svc.raw['ports'] : [];
    for (const p of ports) for (const msg of checkPort(p)) report(`${at}.ports`, msg);

    for (const v of namedVolumes(svc))
      if (!declaredVolumes.has(v)) report(`${at}.volumes`, `named volume "${v}" is not declared under top-level volumes`);
    const nets = svc.raw['networks'];
    for (const n of Array.isArray(nets) ? nets : Object.keys(isObject(nets) ? nets : {})) {
      if (!declaredNetworks.has(String(n))) report(`${at}.networks`, `network "${String(n)}" is not declared under top-level networks`);
    }

    if (svc.runsApp) {
      for (const name of REQUIRED_APP_ENV) {
        // Present but unknowable (host env) is fine; absent or empty means the app dials 127.0.0.1 inside its container.
        if (!(name in svc.env) || svc.env[name] === '')
          report(`${at}.environment`, `app service needs ${name} (its default, 127.0.0.1, is the container itself)`);
      }
    }
  }

  const cycle = findCycle(Object.fromEntries(services.map((s) => [s.name, Object.keys(dependsOn(s))])));
  if (cycle) report('services', `depends_on cycle: ${cycle.join(' -> ')}`);
  return { problems, services };
}
