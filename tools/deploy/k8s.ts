/**
 * Kubernetes manifests: each object against its JSON Schema (./schemas), then the rules a
 * schema cannot express - selectors that match their pods, probes on ports that exist, and
 * references between objects (ConfigMaps, Secrets, Services, HPAs, PDBs, kustomization).
 */
import { posix } from 'node:path';
import { describeErrors, isObject, parseYaml, problem, validator, type Problem, type SourceFile } from './validate';

// Minimal shapes of the objects, used only after the schema has accepted them.
type Labels = Record<string, string>;
interface Selector {
  matchLabels?: Labels;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}
interface Probe {
  httpGet?: { path?: string; port: number | string };
  tcpSocket?: { port: number | string };
  grpc?: { port: number };
  exec?: unknown;
}
interface SourceRef {
  name: string;
  optional?: boolean;
}
export interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: { name: string; value?: string }[];
  envFrom?: { configMapRef?: SourceRef; secretRef?: SourceRef }[];
  resources?: { requests?: Record<string, unknown>; limits?: Record<string, unknown> };
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  securityContext?: { runAsNonRoot?: boolean; allowPrivilegeEscalation?: boolean; readOnlyRootFilesystem?: boolean };
  volumeMounts?: { name: string }[];
}
interface PodTemplate {
  metadata: { labels: Labels };
  spec: { containers: Container[]; volumes?: { name: string }[]; securityContext?: { runAsNonRoot?: boolean } };
}

export interface K8sObject {
  readonly file: string;
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  /** The parsed object; typed accessors below. */
  readonly raw: Record<string, unknown>;
}

/** apiVersion/kind pairs this repo uses, and their schema. Anything else is reported. */
const SCHEMAS: Record<string, string> = {
  'apps/v1/Deployment': 'deployment.json',
  'v1/Service': 'service.json',
  'v1/ConfigMap': 'configmap.json',
  'v1/Secret': 'secret.json',
  'batch/v1/Job': 'job.json',
  'autoscaling/v2/HorizontalPodAutoscaler': 'hpa.json',
  'policy/v1/PodDisruptionBudget': 'pdb.json',
  'networking.k8s.io/v1/NetworkPolicy': 'networkpolicy.json',
  'kustomize.config.k8s.io/v1beta1/Kustomization': 'kustomization.json',
};

const where = (o: { kind: string; name: string }): string => `${o.kind}/${o.name}`;
export const template = (o: K8sObject): PodTemplate | undefined =>
  o.kind === 'Deployment' || o.kind === 'Job' ? ((o.raw['spec'] as Record<string, unknown>)['template'] as PodTemplate) : undefined;
const spec = <T>(o: K8sObject): T => o.raw['spec'] as T;

export function selectorMatches(sel: Selector, labels: Labels): boolean {
  const byLabels = Object.entries(sel.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
  const byExpr = (sel.matchExpressions ?? []).every((e) => {
    const has = e.key in labels;
    const inValues = has && (e.values ?? []).includes(labels[e.key] as string);
    return { In: inValues, NotIn: !inValues, Exists: has, DoesNotExist: !has }[e.operator] ?? false;
  });
  return byLabels && byExpr;
}

/** Parses and schema-validates; returns the objects that passed (the others are problems already). */
export function parseK8s(files: readonly SourceFile[], problems: Problem[]): K8sObject[] {
  const objects: K8sObject[] = [];
  for (const file of files) {
    for (const doc of parseYaml(file, problems)) {
      const at = `document ${doc.index + 1}`;
      if (!isObject(doc.value)) {
        problems.push(problem(file.path, at, 'not a Kubernetes object (expected a mapping)'));
        continue;
      }
      // kustomize has mishandled YAML anchors/aliases in several releases: keep manifests literal.
      if (doc.hasAlias) problems.push(problem(file.path, at, 'uses YAML anchors/aliases; write Kubernetes manifests out literally'));
      const { apiVersion, kind } = doc.value;
      const meta = doc.value['metadata'];
      const name =
        isObject(meta) && typeof meta['name'] === 'string' ? meta['name'] : kind === 'Kustomization' ? posix.dirname(file.path) : '?';
      const label = `${String(kind)}/${name}`;
      const schemaId = SCHEMAS[`${String(apiVersion)}/${String(kind)}`];
      if (!schemaId) {
        problems.push(
          problem(
            file.path,
            label,
            `unsupported apiVersion/kind "${String(apiVersion)}" / "${String(kind)}" (known: ${Object.keys(SCHEMAS).join(', ')})`,
          ),
        );
        continue;
      }
      const validate = validator(schemaId);
      if (!validate(doc.value)) {
        for (const line of describeErrors(validate.errors)) problems.push(problem(file.path, label, line));
        continue;
      }
      objects.push({ file: file.path, apiVersion: String(apiVersion), kind: String(kind), name, raw: doc.value });
    }
  }
  return objects;
}

function checkContainer(o: K8sObject, pod: PodTemplate, c: Container, longRunning: boolean, out: Problem[]): void {
  const at = `${where(o)} container ${c.name}`;
  const report = (msg: string): void => void out.push(problem(o.file, at, msg));
  const ports = c.ports ?? [];
  const names = ports.map((p) => p.name).filter((n): n is string => n !== undefined);
  if (new Set(names).size !== names.length) report('duplicate container port names');
  if (new Set(ports.map((p) => p.containerPort)).size !== ports.length) report('duplicate containerPort');

  for (const kind of ['startupProbe', 'livenessProbe', 'readinessProbe'] as const) {
    const probe = c[kind];
    if (!probe) {
      if (longRunning && kind !== 'startupProbe') report(`has no ${kind}`);
      continue;
    }
    const handlers = (['httpGet', 'tcpSocket', 'grpc', 'exec'] as const).filter((h) => probe[h] !== undefined);
    if (handlers.length !== 1) report(`${kind} needs exactly one of httpGet, tcpSocket, grpc, exec (has ${handlers.length})`);
    const port = probe.httpGet?.port ?? probe.tcpSocket?.port ?? probe.grpc?.port;
    if (port === undefined) continue;
    const exists = typeof port === 'number' ? ports.some((p) => p.containerPort === port) : names.includes(port);
    if (!exists)
      report(
        `${kind} targets port ${JSON.stringify(port)}, which is not among the container's ports (${ports.map((p) => p.name ?? p.containerPort).join(', ') || 'none'})`,
      );
  }

  const envNames = (c.env ?? []).map((e) => e.name);
  const dup = envNames.filter((n, i) => envNames.indexOf(n) !== i);
  if (dup.length > 0) report(`env sets ${[...new Set(dup)].join(', ')} more than once (the last one silently wins)`);

  const volumes = new Set((pod.spec.volumes ?? []).map((v) => v.name));
  for (const m of c.volumeMounts ?? []) if (!volumes.has(m.name)) report(`mounts volume "${m.name}", which the pod does not define`);

  // Policy for this repo's pods: non-root, no escalation, read-only root, sized.
  if (c.securityContext?.runAsNonRoot !== true && pod.spec.securityContext?.runAsNonRoot !== true)
    report('must run with runAsNonRoot: true (pod or container securityContext)');
  if (c.securityContext?.allowPrivilegeEscalation !== false) report('securityContext.allowPrivilegeEscalation must be false');
  if (c.securityContext?.readOnlyRootFilesystem !== true)
    report('securityContext.readOnlyRootFilesystem must be true (mount an emptyDir where it writes)');
  const req = c.resources?.requests ?? {};
  if (req['cpu'] === undefined || req['memory'] === undefined)
    report('resources.requests needs cpu and memory (the scheduler and HPAs use them)');
  if (c.resources?.limits?.['memory'] === undefined) report('resources.limits.memory is required (a leak must not take the node down)');
}

function checkObject(o: K8sObject, out: Problem[]): void {
  const pod = template(o);
  if (pod) {
    if (o.kind === 'Deployment') {
      const sel = spec<{ selector: Selector }>(o).selector;
      if (!selectorMatches(sel, pod.metadata.labels)) {
        out.push(
          problem(
            o.file,
            where(o),
            `spec.selector ${JSON.stringify(sel)} does not match the pod template labels ${JSON.stringify(pod.metadata.labels)}`,
          ),
        );
      }
    }
    for (const c of pod.spec.containers) checkContainer(o, pod, c, o.kind === 'Deployment', out);
  }
  if (o.kind === 'HorizontalPodAutoscaler') {
    const s = spec<{ minReplicas?: number; maxReplicas: number }>(o);
    if ((s.minReplicas ?? 1) > s.maxReplicas)
      out.push(problem(o.file, where(o), `minReplicas ${s.minReplicas} > maxReplicas ${s.maxReplicas}`));
  }
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Keys of a ConfigMap or Secret, as envFrom would import them. */
export function dataOf(o: K8sObject): Record<string, string> {
  const decoded = Object.fromEntries(
    Object.entries((o.raw['data'] as Record<string, string> | undefined) ?? {}).map(([k, v]) => [
      k,
      o.kind === 'Secret' ? Buffer.from(v, 'base64').toString('utf8') : v,
    ]),
  );
  return { ...decoded, ...((o.raw['stringData'] as Record<string, string> | undefined) ?? {}) };
}

function crossCheck(objects: readonly K8sObject[], files: readonly SourceFile[], out: Problem[]): void {
  const find = (kind: string, name: string): K8sObject | undefined => objects.find((o) => o.kind === kind && o.name === name);
  const seen = new Set<string>();
  for (const o of objects) {
    if (seen.has(where(o))) out.push(problem(o.file, where(o), 'defined more than once'));
    seen.add(where(o));
  }
  const workloads = objects.filter((o) => template(o) !== undefined);
  const deployments = objects.filter((o) => o.kind === 'Deployment');

  for (const w of workloads) {
    for (const c of (template(w) as PodTemplate).spec.containers) {
      for (const ref of c.envFrom ?? []) {
        const [kind, r] = ref.configMapRef ? ['ConfigMap', ref.configMapRef] : ['Secret', ref.secretRef as SourceRef];
        const source = find(kind, r.name);
        if (!source) {
          if (r.optional !== true)
            out.push(problem(w.file, `${where(w)} container ${c.name}`, `envFrom ${kind} "${r.name}" is not defined in deploy/`));
          continue;
        }
        // Kubernetes silently skips keys that are not valid variable names.
        for (const key of Object.keys(dataOf(source))) {
          if (!ENV_NAME.test(key))
            out.push(
              problem(source.file, where(source), `key "${key}" is imported with envFrom but is not a valid environment variable name`),
            );
        }
      }
    }
  }

  for (const svc of objects.filter((o) => o.kind === 'Service')) {
    const s = spec<{ selector?: Labels; ports: { name?: string; port: number; targetPort?: number | string }[] }>(svc);
    if (!s.selector) continue; // selector-less Services point at manual Endpoints
    const pods = workloads.filter((w) => selectorMatches({ matchLabels: s.selector }, (template(w) as PodTemplate).metadata.labels));
    if (pods.length === 0) {
      out.push(problem(svc.file, where(svc), `selector ${JSON.stringify(s.selector)} matches no pod template in deploy/`));
      continue;
    }
    for (const p of s.ports) {
      const target = p.targetPort ?? p.port;
      for (const w of pods) {
        const cports = (template(w) as PodTemplate).spec.containers.flatMap((c) => c.ports ?? []);
        const ok = cports.some((cp) => (typeof target === 'number' ? cp.containerPort === target : cp.name === target));
        if (!ok)
          out.push(
            problem(svc.file, where(svc), `port ${p.name ?? p.port} targets ${JSON.stringify(target)}, which ${where(w)} does not expose`),
          );
      }
    }
  }

  for (const hpa of objects.filter((o) => o.kind === 'HorizontalPodAutoscaler')) {
    const ref = spec<{ scaleTargetRef: { apiVersion: string; kind: string; name: string } }>(hpa).scaleTargetRef;
    const target = find(ref.kind, ref.name);
    if (ref.kind !== 'Deployment' || ref.apiVersion !== 'apps/v1' || !target) {
      out.push(problem(hpa.file, where(hpa), `scaleTargetRef ${ref.apiVersion} ${ref.kind}/${ref.name} is not a Deployment in deploy/`));
    } else if (spec<{ replicas?: number }>(target).replicas !== undefined) {
      out.push(
        problem(target.file, where(target), `is scaled by ${where(hpa)}: drop spec.replicas, or every apply resets the replica count`),
      );
    }
  }

  for (const pdb of objects.filter((o) => o.kind === 'PodDisruptionBudget')) {
    const sel = spec<{ selector: Selector }>(pdb).selector;
    if (!deployments.some((d) => selectorMatches(sel, (template(d) as PodTemplate).metadata.labels))) {
      out.push(problem(pdb.file, where(pdb), `selector ${JSON.stringify(sel)} matches no Deployment's pods`));
    }
  }

  for (const k of objects.filter((o) => o.kind === 'Kustomization')) checkKustomization(k, objects, files, out);
}

function checkKustomization(k: K8sObject, objects: readonly K8sObject[], files: readonly SourceFile[], out: Problem[]): void {
  const dir = posix.dirname(k.file);
  // Remote bases (URLs) cannot be checked offline.
  const resources = (k.raw['resources'] as string[])
    .filter((r) => !/^[a-z]+:\/\/|^github\.com\//.test(r))
    .map((r) => posix.normalize(posix.join(dir, r)));
  for (const r of resources)
    if (!files.some((f) => f.path === r || f.path.startsWith(`${r}/`)))
      out.push(problem(k.file, 'resources', `"${posix.relative(dir, r)}" does not exist`));
  // A manifest next to the kustomization but not listed is never applied: usually a mistake.
  for (const f of files) {
    if (posix.dirname(f.path) !== dir || f.path === k.file || f.path.endsWith('.example.yaml')) continue;
    if (!resources.includes(f.path))
      out.push(problem(k.file, 'resources', `${posix.basename(f.path)} is not listed (name it *.example.yaml if it is a template)`));
  }
  // An images entry whose name matches no container image silently changes nothing.
  const images = objects.flatMap((o) => template(o)?.spec.containers.map((c) => c.image.split('@', 1)[0]!.replace(/:[^/:]+$/, '')) ?? []);
  for (const img of (k.raw['images'] as { name: string }[] | undefined) ?? []) {
    if (!images.includes(img.name)) out.push(problem(k.file, 'images', `"${img.name}" matches no container image`));
  }
}

/** All Kubernetes checks over a set of manifest files (paths relative to the repo root). */
export function checkK8s(files: readonly SourceFile[]): { problems: Problem[]; objects: K8sObject[] } {
  const problems: Problem[] = [];
  const objects = parseK8s(files, problems);
  for (const o of objects) checkObject(o, problems);
  crossCheck(objects, files, problems);
  return { problems, objects };
}
