/**
 * Offline check of everything that ships the service: docker-compose.yml, the Dockerfile and
 * every manifest under deploy/. Each file is checked on its own (./compose, ./dockerfile, ./k8s),
 * then across files: every app has a Deployment, a compose service and a Dockerfile build, and
 * the configuration each one is given is accepted by the app's own config loader.
 *
 *   npm run deploy:check        (node -r ./tools/register.js tools/deploy/check.ts)
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, sep } from 'node:path';
import { ConfigError, DEFAULT_HEALTH_PORTS, loadGatewayConfig, loadServiceConfig, type Env } from '@tokensvc/config';
import { checkAppBus, checkNatsAuthFile } from './bus';
import { checkCompose, containerPorts, REQUIRED_APP_ENV, type ComposeService } from './compose';
import { BUILD_TARGETS } from '../build/targets';
import { checkDockerfile } from './dockerfile';
import { checkK8s, dataOf, selectorMatches, template, type Container, type K8sObject } from './k8s';
import { NATS_AUTH_FILE } from './nats-auth';
import { problem, type Problem, type SourceFile } from './validate';

export type { Problem } from './validate';

/** The five apps; the four microservices are exactly the keys of DEFAULT_HEALTH_PORTS. */
export const APPS = ['gateway', ...Object.keys(DEFAULT_HEALTH_PORTS)] as const;

/**
 * One writer per network through a lease (apps/indexer/README.md "Replicas"): a hot standby next
 * to the writer, replaced by rolling updates, never autoscaled.
 */
const LEASE_WRITERS = ['indexer'];

export interface DeployInput {
  readonly compose: SourceFile;
  /** docker-compose.real.yml: the same apps against real networks (REGISTRY=shipped, no devnet), checked like compose */
  readonly realCompose?: SourceFile;
  readonly dockerfile: SourceFile;
  readonly dockerignore: SourceFile | undefined;
  /** Every YAML file under deploy/ but deploy/prometheus/. */
  readonly manifests: readonly SourceFile[];
  readonly healthcheckJs: SourceFile | undefined;
  /** deploy/nats/tokensvc-auth.conf: the NATS users and permissions (bus.ts) */
  readonly natsAuth: SourceFile | undefined;
  readonly exists: (path: string) => boolean;
}

export interface DeployReport {
  readonly problems: Problem[];
  readonly counts: { readonly manifests: number; readonly objects: number; readonly services: number; readonly apps: number };
}

const REPO_ROOT = join(__dirname, '..', '..');

/** Reads the inputs from a checkout; missing files are left to the checks to report. */
export function loadDeployInput(root: string = REPO_ROOT): DeployInput {
  const read = (path: string): SourceFile | undefined =>
    existsSync(join(root, path)) ? { path, text: readFileSync(join(root, path), 'utf8') } : undefined;
  const yamlUnder = (dir: string): string[] =>
    readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
      .map((p) => posix.join(dir, p.split(sep).join('/')))
      .filter((p) => /\.ya?ml$/.test(p) && statSync(join(root, p)).isFile())
      .sort();
  return {
    compose: read('docker-compose.yml') ?? { path: 'docker-compose.yml', text: '' },
    realCompose: read('docker-compose.real.yml'),
    dockerfile: read('Dockerfile') ?? { path: 'Dockerfile', text: '' },
    dockerignore: read('.dockerignore'),
    // deploy/prometheus holds Prometheus configuration and rules (tools/deploy/observability.ts checks them)
    manifests: existsSync(join(root, 'deploy'))
      ? yamlUnder('deploy')
          .filter((p) => !p.startsWith('deploy/prometheus/'))
          .map((p) => read(p) as SourceFile)
      : [],
    healthcheckJs: read('deploy/docker/healthcheck.js'),
    natsAuth: read(NATS_AUTH_FILE),
    exists: (path) => existsSync(join(root, path)),
  };
}

/**
 * Runs the app's config loader on the environment it would get. Variables whose value only the
 * cluster or host knows (valueFrom, ${VAR} without default) are left out, and complaints about
 * them dropped. Returns the port the app listens on, or the loader's complaints.
 */
function loadAppConfig(app: string, given: Record<string, string | undefined>): { port?: number; host?: string; errors: string[] } {
  // A path inside the container: whether it exists cannot be told from the repo.
  const env: Record<string, string | undefined> = { ...given, ...(given['DEVNET_MANIFEST'] ? { DEVNET_MANIFEST: undefined } : {}) };
  const known: Env = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined));
  const unknown = Object.keys(env).filter((k) => env[k] === undefined);
  const portOf = (e: Env): { port: number; host?: string } => {
    if (app === 'gateway') return { port: loadGatewayConfig(e).port, host: loadGatewayConfig(e).host };
    const c = loadServiceConfig(app as keyof typeof DEFAULT_HEALTH_PORTS, e);
    return { port: c.healthPort, host: c.healthHost };
  };
  try {
    return { ...portOf(known), errors: [] };
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    const errors = e.problems.filter((p) => !unknown.some((k) => p.includes(k)));
    if (errors.length > 0) return { errors };
    // Only the cluster's values are missing, and some belong with a known one (NATS_PASSWORD with
    // NATS_USER): stand-ins for them tell the port, so the port checks still run.
    try {
      return { ...portOf({ ...known, ...Object.fromEntries(unknown.map((k) => [k, 'from-the-cluster'])) }), errors: [] };
    } catch {
      return { errors: [] };
    }
  }
}

/** A container's environment as the kubelet assembles it: envFrom sources in order, then env on top. */
function k8sEnv(c: Container, objects: readonly K8sObject[]): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const ref of c.envFrom ?? []) {
    const [kind, name] = ref.configMapRef ? ['ConfigMap', ref.configMapRef.name] : ['Secret', ref.secretRef?.name];
    const source = objects.find((o) => o.kind === kind && o.name === name);
    if (source) Object.assign(env, dataOf(source));
  }
  for (const e of c.env ?? []) env[e.name] = e.value; // valueFrom: decided by the cluster
  return env;
}

const imageName = (image: string): string => image.split('@', 1)[0]!.replace(/:[^/:]+$/, '');

function checkAppDeployment(app: string, objects: readonly K8sObject[], out: Problem[]): void {
  const d = objects.find((o) => o.kind === 'Deployment' && o.name === app);
  if (!d) return void out.push(problem('deploy/', app, `no Deployment named "${app}"`));
  const at = `Deployment/${app}`;
  const c = template(d)?.spec.containers.find((x) => imageName(x.image).split('/').pop() === app);
  if (!c) return void out.push(problem(d.file, at, `no container runs the ${app} image (…/${app}:<tag>)`));
  const env = k8sEnv(c, objects);
  for (const name of REQUIRED_APP_ENV)
    if (!(name in env)) out.push(problem(d.file, at, `container ${c.name} gets no ${name} (env or envFrom)`));
  const cfg = loadAppConfig(app, env);
  for (const e of cfg.errors) out.push(problem(d.file, at, `the app would refuse this configuration: ${e}`));
  if (cfg.port !== undefined) {
    const port = c.ports?.find((p) => p.containerPort === cfg.port);
    if (!port) out.push(problem(d.file, at, `the app listens on ${cfg.port}, which container ${c.name} does not expose`));
    if (isLoopback(cfg.host))
      out.push(
        problem(
          d.file,
          at,
          `the app binds ${cfg.host}:${cfg.port} (loopback), which the kubelet's probes and Prometheus cannot reach: set ${app === 'gateway' ? 'HOST' : 'HEALTH_HOST'}: "0.0.0.0"`,
        ),
      );
    for (const kind of ['startupProbe', 'livenessProbe', 'readinessProbe'] as const) {
      const target = c[kind]?.httpGet?.port;
      if (target !== undefined && target !== cfg.port && target !== port?.name)
        out.push(problem(d.file, at, `${kind} targets ${JSON.stringify(target)}, but the app listens on ${cfg.port}`));
    }
  }
  if (LEASE_WRITERS.includes(app)) {
    const spec = d.raw['spec'] as { replicas?: number; strategy?: { type?: string; rollingUpdate?: { maxUnavailable?: number | string } } };
    if ((spec.replicas ?? 1) < 2)
      out.push(
        problem(
          d.file,
          at,
          'needs a hot standby: set spec.replicas: 2 (the lease keeps one writer per network; the other takes over when it dies)',
        ),
      );
    const rolling = spec.strategy?.type === 'RollingUpdate' && [0, '0%'].includes(spec.strategy.rollingUpdate?.maxUnavailable ?? -1);
    if (!rolling)
      out.push(
        problem(d.file, at, 'needs strategy RollingUpdate with rollingUpdate.maxUnavailable: 0 (a standby is up before a pod goes)'),
      );
    const labels = template(d)?.metadata.labels ?? {};
    const pdb = objects.find(
      (o) =>
        o.kind === 'PodDisruptionBudget' &&
        selectorMatches((o.raw['spec'] as { selector: Parameters<typeof selectorMatches>[0] }).selector, labels),
    );
    if (!pdb)
      out.push(
        problem(d.file, at, 'needs a PodDisruptionBudget (maxUnavailable: 1): a drain must not take the writer and its standby at once'),
      );
    const hpa = objects.find(
      (o) => o.kind === 'HorizontalPodAutoscaler' && (o.raw['spec'] as { scaleTargetRef: { name: string } }).scaleTargetRef.name === app,
    );
    if (hpa) out.push(problem(hpa.file, `HorizontalPodAutoscaler/${hpa.name}`, `${app} must not be autoscaled (one writer per network)`));
  }
}

/** Microservices' health listeners default to loopback (HEALTH_HOST); a container's must be reachable from outside it. */
const isLoopback = (host: string | undefined): boolean =>
  host !== undefined && (host === 'localhost' || host === '::1' || host.startsWith('127.'));

function checkAppService(app: string, services: readonly ComposeService[], file: string, out: Problem[]): void {
  const svc = services.find((s) => s.name === app);
  if (!svc) return void out.push(problem(file, 'services', `no service named "${app}"`));
  const at = `services.${app}`;
  if (!svc.builtFromRepo || svc.buildArgs['APP'] !== app)
    return void out.push(problem(file, at, `must be built from the repo's Dockerfile with build arg APP: ${app}`));
  if (!svc.runsApp) out.push(problem(file, at, `overrides command/entrypoint, so it would not run ${app}`));
  const cfg = loadAppConfig(app, svc.env);
  for (const e of cfg.errors) out.push(problem(file, at, `the app would refuse this configuration: ${e}`));
  // the healthcheck runs inside the container, but other services (the gateway reading the indexer's /status) and scrapers do not
  if (cfg.port !== undefined && isLoopback(cfg.host))
    out.push(
      problem(
        file,
        at,
        `the app binds ${cfg.host}:${cfg.port} (loopback), which other containers cannot reach: set ${app === 'gateway' ? 'HOST' : 'HEALTH_HOST'}: 0.0.0.0`,
      ),
    );
  const published = containerPorts(svc);
  if (cfg.port !== undefined && published.length > 0 && !published.includes(cfg.port))
    out.push(problem(file, `${at}.ports`, `publishes ${published.join(', ')}, but the app listens on ${cfg.port}`));
}

/** deploy/docker/healthcheck.js is plain JS (no @tokensvc/config import): its copy of the ports must agree. */
function checkHealthcheckPorts(file: SourceFile | undefined, out: Problem[]): void {
  if (!file) return void out.push(problem('deploy/docker/healthcheck.js', '(file)', 'missing: the Dockerfile HEALTHCHECK runs it'));
  const literal = /DEFAULT_HEALTH_PORTS\s*=\s*\{([^}]*)\}/.exec(file.text)?.[1] ?? '';
  const ports = Object.fromEntries([...literal.matchAll(/(?<![\w-])['"]?([\w-]+)['"]?\s*:\s*(\d+)/g)].map((m) => [m[1], Number(m[2])]));
  const expected: Record<string, number> = DEFAULT_HEALTH_PORTS;
  const same = Object.keys(ports).length === Object.keys(expected).length && Object.entries(expected).every(([k, v]) => ports[k] === v);
  if (!same) {
    out.push(
      problem(
        file.path,
        'DEFAULT_HEALTH_PORTS',
        `${JSON.stringify(ports)} differs from libs/config's ${JSON.stringify(DEFAULT_HEALTH_PORTS)}`,
      ),
    );
  }
}

export function checkDeploy(input: DeployInput): DeployReport {
  const docker = checkDockerfile(input, BUILD_TARGETS);
  const compose = checkCompose(input.compose, { dockerfileHasHealthcheck: docker.hasHealthcheck });
  const k8s = checkK8s(input.manifests);
  const problems = [...docker.problems, ...compose.problems, ...k8s.problems];

  for (const app of APPS) {
    checkAppDeployment(app, k8s.objects, problems);
    checkAppService(app, compose.services, input.compose.path, problems);
    checkAppBus(app, k8s.objects, compose.services, input.compose.path, problems);
  }
  checkNatsAuthFile(input.natsAuth, problems);
  checkComposeBuilds(compose.services, input.compose.path, docker.buildable, problems);
  if (input.realCompose) {
    const real = checkCompose(input.realCompose, { dockerfileHasHealthcheck: docker.hasHealthcheck });
    problems.push(...real.problems);
    for (const app of APPS) checkAppService(app, real.services, input.realCompose.path, problems);
    checkComposeBuilds(real.services, input.realCompose.path, docker.buildable, problems);
    for (const s of real.services.filter((x) => x.runsApp && x.env['DEVNET_MANIFEST'] !== undefined))
      problems.push(
        problem(
          input.realCompose.path,
          `services.${s.name}.environment`,
          'names DEVNET_MANIFEST: the real-network stack runs from REGISTRY',
        ),
      );
  }
  checkHealthcheckPorts(input.healthcheckJs, problems);
  return {
    problems,
    counts: { manifests: input.manifests.length, objects: k8s.objects.length, services: compose.services.length, apps: APPS.length },
  };
}

/** Any repo-built service (migrate too) must name an APP the Dockerfile accepts, or the build stops. */
function checkComposeBuilds(services: readonly ComposeService[], file: string, buildable: ReadonlySet<string>, out: Problem[]): void {
  for (const s of services.filter((x) => x.builtFromRepo)) {
    const a = s.buildArgs['APP'];
    if (a === undefined || !buildable.has(a))
      out.push(
        problem(
          file,
          `services.${s.name}.build`,
          `build arg APP ${a === undefined ? 'is missing' : `"${a}" is not an app the Dockerfile can build`} (${Object.keys(BUILD_TARGETS).join(', ')})`,
        ),
      );
  }
}

export function runDeployCheck(root: string = REPO_ROOT): Problem[] {
  return checkDeploy(loadDeployInput(root)).problems;
}

export const formatProblem = (p: Problem): string => `${p.file}: ${p.where}: ${p.message}`;

if (require.main === module) {
  const started = process.hrtime.bigint();
  const { problems, counts } = checkDeploy(loadDeployInput());
  const ms = Number((process.hrtime.bigint() - started) / 1_000_000n);
  if (problems.length > 0) {
    for (const p of problems) process.stderr.write(`${formatProblem(p)}\n`);
    process.stderr.write(`deploy check: ${problems.length} problem(s)\n`);
    process.exit(1);
  }
  process.stdout.write(
    `deploy check OK: ${counts.apps} apps; ${counts.objects} Kubernetes objects in ${counts.manifests} manifests; ${counts.services} compose services; Dockerfile builds all apps (${ms} ms)\n`,
  );
}
