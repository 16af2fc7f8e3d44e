/**
 * The bus and the stores trust nobody: each app connects to NATS as its own user and to Redis with
 * the password, both from Secrets (never a literal in the manifests), NATS runs the generated
 * permissions (deploy/nats/tokensvc-auth.conf, nats-auth.ts), and a NetworkPolicy limits who may
 * connect to each app's pods.
 */
import type { ComposeService } from './compose';
import { selectorMatches, template, type K8sObject } from './k8s';
import { NATS_AUTH_FILE, productionNatsAuth } from './nats-auth';
import { problem, type Problem, type SourceFile } from './validate';

/** the apps that use Redis (BullMQ queues, the gateway's limits, the relayer's counters) */
export const REDIS_USERS = ['gateway', 'quote', 'status-tracker'];

interface EnvEntry {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } };
}

interface Selector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

/** Problems of one app's Deployment and compose service. */
export function checkAppBus(
  app: string,
  objects: readonly K8sObject[],
  services: readonly ComposeService[],
  composeFile: string,
  out: Problem[],
): void {
  const d = objects.find((o) => o.kind === 'Deployment' && o.name === app);
  const pod = d ? template(d) : undefined;
  const c = pod?.spec.containers.find((x) => x.name === app) ?? pod?.spec.containers[0];
  if (d && pod && c) {
    const at = `Deployment/${app} container ${c.name}`;
    const env = (c.env ?? []) as EnvEntry[];
    const entry = (name: string): EnvEntry | undefined => env.find((e) => e.name === name);
    if (entry('NATS_USER')?.value !== app) out.push(problem(d.file, at, `needs env NATS_USER: ${app} (its own NATS user)`));
    const secret = (name: string): void => {
      const ref = entry(name)?.valueFrom?.secretKeyRef;
      if (!ref)
        out.push(
          problem(
            d.file,
            at,
            `needs env ${name} from a Secret (valueFrom.secretKeyRef): production requires it, with no value in the manifests`,
          ),
        );
      else if (ref.optional === true) out.push(problem(d.file, at, `${name} must not be optional: the app must not start without it`));
    };
    secret('NATS_PASSWORD');
    if (REDIS_USERS.includes(app)) secret('REDIS_PASSWORD');
    const labels = pod.metadata.labels;
    const guarded = objects.some((o) => {
      if (o.kind !== 'NetworkPolicy') return false;
      const spec = o.raw['spec'] as { podSelector: Selector; policyTypes: string[] };
      return spec.policyTypes.includes('Ingress') && selectorMatches(spec.podSelector, labels);
    });
    if (!guarded) out.push(problem(d.file, `Deployment/${app}`, 'no NetworkPolicy limits the ingress of its pods'));
  }
  const svc = services.find((s) => s.name === app);
  if (svc) {
    if (svc.env['NATS_USER'] !== app) out.push(problem(composeFile, `services.${app}.environment`, `needs NATS_USER: ${app}`));
    if (!('NATS_PASSWORD' in svc.env)) out.push(problem(composeFile, `services.${app}.environment`, 'needs NATS_PASSWORD'));
    if (REDIS_USERS.includes(app) && !('REDIS_PASSWORD' in svc.env))
      out.push(problem(composeFile, `services.${app}.environment`, 'needs REDIS_PASSWORD'));
  }
}

/** The committed NATS authorization block must be what the permissions code generates. */
export function checkNatsAuthFile(file: SourceFile | undefined, out: Problem[]): void {
  const want = productionNatsAuth();
  if (!file)
    return void out.push(
      problem(
        NATS_AUTH_FILE,
        '(file)',
        'missing: regenerate it with `node -r ./tools/register.js tools/deploy/nats-auth.ts > deploy/nats/tokensvc-auth.conf`',
      ),
    );
  if (file.text !== want)
    out.push(
      problem(
        file.path,
        '(file)',
        'differs from the bus permissions in libs/transport/src/nats-permissions.ts: regenerate it with `node -r ./tools/register.js tools/deploy/nats-auth.ts > deploy/nats/tokensvc-auth.conf`',
      ),
    );
}
