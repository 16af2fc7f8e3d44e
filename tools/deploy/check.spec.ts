import { checkDeploy, formatProblem, loadDeployInput, runDeployCheck, type DeployInput } from './check';
import { checkCompose, checkPort, interpolate } from './compose';
import { checkDockerfile, isIgnored } from './dockerfile';
import { checkK8s } from './k8s';
import type { Problem, SourceFile } from './validate';

const messages = (problems: readonly Problem[]): string => problems.map(formatProblem).join('\n');

/** A Deployment that passes every rule; each test breaks one thing in it. */
function deployment(o: { selector?: string; ports?: string; probePort?: string; image?: string | null } = {}): SourceFile {
  const image = o.image === null ? '' : `image: ${o.image ?? 'tokensvc/quote:1.0.0'}`;
  const text = `
apiVersion: apps/v1
kind: Deployment
metadata: { name: quote }
spec:
  selector: { matchLabels: { app: ${o.selector ?? 'quote'} } }
  template:
    metadata: { labels: { app: quote } }
    spec:
      securityContext: { runAsNonRoot: true }
      containers:
        - name: quote
          ${image}
          ports: [{ name: health, containerPort: ${o.ports ?? '3103'} }]
          livenessProbe: { httpGet: { path: /health, port: ${o.probePort ?? 'health'} } }
          readinessProbe: { httpGet: { path: /health/ready, port: ${o.probePort ?? 'health'} } }
          resources: { requests: { cpu: 100m, memory: 128Mi }, limits: { memory: 256Mi } }
          securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true }
`;
  return { path: 'deploy/test.yaml', text };
}

const k8s = (file: SourceFile): string => messages(checkK8s([file]).problems);

const APP_ENV = 'NATS_URL: nats://nats:4222\n      DATABASE_URL: postgres://db/x\n      REDIS_URL: redis://redis:6379';
function compose(services: string, extra = ''): string {
  return messages(checkCompose({ path: 'docker-compose.yml', text: `services:\n${services}\n${extra}` }).problems);
}

describe('deploy check', () => {
  // The fixture every other test mutates: the real files of this checkout.
  let real: DeployInput;
  beforeAll(() => {
    real = loadDeployInput();
  });
  const withFile = (path: string, edit: (text: string) => string): DeployInput => {
    const swap = (f: SourceFile): SourceFile => (f.path === path ? { path, text: edit(f.text) } : f);
    return {
      ...real,
      compose: swap(real.compose),
      realCompose: real.realCompose && swap(real.realCompose),
      dockerfile: swap(real.dockerfile),
      manifests: real.manifests.map(swap),
    };
  };

  it('passes on the repo files', () => {
    expect(messages(runDeployCheck())).toBe('');
    const { counts } = checkDeploy(real);
    expect(counts.apps).toBe(5);
    expect(counts.objects).toBeGreaterThan(10);
  });

  describe('Kubernetes', () => {
    it('accepts the well-formed fixture', () => {
      expect(k8s(deployment())).toBe('');
    });

    it('reports a selector that does not match the pod template labels', () => {
      expect(k8s(deployment({ selector: 'qoute' }))).toMatch(/Deployment\/quote: spec.selector .* does not match the pod template labels/);
    });

    it('reports probes on a port the container does not expose', () => {
      expect(k8s(deployment({ probePort: 'http' }))).toMatch(
        /livenessProbe targets port "http", which is not among the container's ports \(health\)/,
      );
      expect(k8s(deployment({ probePort: '8080' }))).toMatch(/readinessProbe targets port 8080/);
    });

    it('reports a container without an image', () => {
      expect(k8s(deployment({ image: null }))).toMatch(
        /Deployment\/quote: spec.template.spec.containers.0 must have required property 'image'/,
      );
    });

    it('reports YAML syntax errors and unknown kinds instead of throwing', () => {
      expect(k8s({ path: 'deploy/x.yaml', text: 'a: [1, 2' })).toMatch(/deploy\/x.yaml: document 1: YAML:/);
      expect(k8s({ path: 'deploy/x.yaml', text: 'apiVersion: v1\nkind: Pod\nmetadata: { name: p }' })).toMatch(
        /unsupported apiVersion\/kind/,
      );
    });
  });

  describe('compose for real networks (docker-compose.real.yml)', () => {
    it('is checked like docker-compose.yml: every app, built from the repo, with a configuration the app accepts', () => {
      expect(real.realCompose?.path).toBe('docker-compose.real.yml');
      const out = messages(
        checkDeploy(
          withFile('docker-compose.real.yml', (t) =>
            t
              .replace('NETWORKS: ${NETWORKS:-ethereum,arbitrum,base}', 'NETWORKS: ethereum,moon')
              .replace(/\n {2}status-tracker:\n[\s\S]*?(?=\nvolumes:)/, ''),
          ),
        ).problems,
      );
      expect(out).toMatch(/docker-compose.real.yml: services: no service named "status-tracker"/);
      expect(out).toMatch(
        /docker-compose.real.yml: services.indexer: the app would refuse this configuration: NETWORKS contains unknown network "moon"/,
      );
    });

    it('refuses a devnet manifest: the stack runs from the shipped registry', () => {
      const out = messages(
        checkDeploy(
          withFile('docker-compose.real.yml', (t) =>
            t.replace('  REGISTRY: shipped\n', '  REGISTRY: shipped\n  DEVNET_MANIFEST: /app/.devnet/deployment.json\n'),
          ),
        ).problems,
      );
      expect(out).toMatch(/docker-compose.real.yml: services.gateway.environment: names DEVNET_MANIFEST/);
    });
  });

  describe('compose', () => {
    it('reports depends_on on an unknown service', () => {
      expect(compose(`  api:\n    image: x\n    depends_on: [db]`)).toMatch(/services.api: depends_on "db", which is not a service/);
    });

    it('reports an app service built from the repo without DATABASE_URL', () => {
      const out = compose(
        `  quote:\n    build: { context: ., args: { APP: quote } }\n    environment:\n      NATS_URL: nats://nats:4222\n      REDIS_URL: redis://redis:6379`,
      );
      expect(out).toMatch(/services.quote.environment: app service needs DATABASE_URL/);
      expect(out).not.toMatch(/NATS_URL|REDIS_URL/);
    });

    it('reports a service with neither image nor build', () => {
      expect(compose(`  api:\n    command: ["node"]`)).toMatch(/services.api: has neither image nor build/);
    });

    it('reports service_healthy on a service without a healthcheck, undeclared volumes and bad ports', () => {
      const out = compose(
        `  db:\n    image: postgres\n    volumes: [data:/var/lib/x, ./local:/y]\n  api:\n    image: x\n    ports: ["70000:80", "\${P:-3000}:3000"]\n    depends_on: { db: { condition: service_healthy } }`,
      );
      expect(out).toMatch(/waits for "db" to be service_healthy, but db has no healthcheck/);
      expect(out).toMatch(/named volume "data" is not declared/);
      expect(out).not.toMatch(/"local"/);
      expect(out).toMatch(/published port "70000"/);
      expect(out.split('\n')).toHaveLength(3);
    });

    it('reports depends_on cycles', () => {
      expect(compose(`  a: { image: x, depends_on: [b] }\n  b: { image: x, depends_on: [a] }`)).toMatch(/depends_on cycle: a -> b -> a/);
    });

    it('accepts a well-formed app service', () => {
      expect(compose(`  quote:\n    build: .\n    environment:\n      ${APP_ENV}\n    volumes: [d:/data]`, 'volumes: { d: }')).toBe('');
    });

    it('interpolates what it can without the host environment', () => {
      expect(interpolate('${A:-x}:${B-y}$$')).toBe('x:y$');
      expect(interpolate('${A}')).toBeUndefined();
      expect(checkPort('127.0.0.1:8080:80/tcp')).toEqual([]);
      expect(checkPort('3000-3001:4000-4002')).toEqual(['"3000-3001:4000-4002": published and container ranges differ in size']);
      expect(checkPort('${HOST_PORT}:3000')).toEqual([]);
    });
  });

  describe('Dockerfile', () => {
    it('applies .dockerignore like docker build', () => {
      const ignore = 'node_modules\n**/*.spec.ts\ndeploy/k8s\n!deploy/k8s/keep.yaml';
      expect(isIgnored('libs/x/node_modules/y.js', '**/node_modules')).toBe(true);
      expect(isIgnored('apps/quote/src/a.spec.ts', ignore)).toBe(true);
      expect(isIgnored('deploy/k8s/base/x.yaml', ignore)).toBe(true);
      expect(isIgnored('deploy/k8s/keep.yaml', ignore)).toBe(false);
      expect(isIgnored('apps/quote/src/main.ts', ignore)).toBe(false);
    });

    it('reports an app the image would not contain', () => {
      const out = checkDockerfile(
        { ...real, dockerignore: { path: '.dockerignore', text: 'apps/quote' } },
        { gateway: 'apps/gateway/src/main.ts', quote: 'apps/quote/src/main.ts' },
      );
      expect([...out.buildable]).toEqual(['gateway']);
      expect(messages(out.problems)).toMatch(/APP=quote: apps\/quote\/src\/main.ts is excluded by .dockerignore/);
    });
  });

  describe('across files', () => {
    it('reports an app without a compose service', () => {
      const input = withFile('docker-compose.yml', (t) => t.replace(/^ {2}status-tracker:/m, '  tracker:'));
      expect(messages(checkDeploy(input).problems)).toMatch(/docker-compose.yml: services: no service named "status-tracker"/);
    });

    it('reports an app without a Deployment', () => {
      const input = withFile('deploy/k8s/base/token-data.yaml', (t) => t.replace(/^apiVersion: apps\/v1[\s\S]*?^---\n/m, ''));
      expect(messages(checkDeploy(input).problems)).toMatch(/no Deployment named "token-data"/);
    });

    it('reports a compose build of an APP the Dockerfile cannot build', () => {
      const input = withFile('docker-compose.yml', (t) => t.replace('args: { APP: migrate } }', 'args: { APP: migrations } }'));
      expect(messages(checkDeploy(input).problems)).toMatch(
        /services.migrate.build: build arg APP "migrations" is not an app the Dockerfile can build/,
      );
    });

    it("runs the apps' config loader on what they are given", () => {
      const input = withFile('deploy/k8s/base/config.yaml', (t) =>
        t.replace('NETWORKS: ethereum,arbitrum,base', 'NETWORKS: ethereum,optimism'),
      );
      expect(messages(checkDeploy(input).problems)).toMatch(
        /Deployment\/quote: the app would refuse this configuration: RPC_URL_OPTIMISM must be a URL/,
      );
      // Host-dependent values are not held against the file: a container path, a bare ${VAR}.
      const hostDependent = withFile('docker-compose.yml', (t) =>
        t
          .replace('${DEVNET_MANIFEST:-}', '${DEVNET_MANIFEST:-/app/.devnet/m.json}')
          .replace('${RPC_URL_ETHEREUM:-http://host.docker.internal:8545}', '${RPC_URL_ETHEREUM}'),
      );
      expect(messages(checkDeploy(hostDependent).problems)).toBe('');
    });

    it('reports a probe on a port the app does not listen on', () => {
      const input = withFile('deploy/k8s/base/quote.yaml', (t) =>
        t.replace('{ name: HEALTH_PORT, value: "3103" }', '{ name: HEALTH_PORT, value: "3200" }'),
      );
      expect(messages(checkDeploy(input).problems)).toMatch(
        /Deployment\/quote: the app listens on 3200, which container quote does not expose/,
      );
    });

    it('reports a health listener left on loopback (HEALTH_HOST), which probes from outside the container cannot reach', () => {
      const input = withFile('deploy/k8s/base/quote.yaml', (t) =>
        t.replace('{ name: HEALTH_HOST, value: "0.0.0.0" }', '{ name: HEALTH_HOST, value: "127.0.0.1" }'),
      );
      expect(messages(checkDeploy(input).problems)).toMatch(
        /Deployment\/quote: the app binds 127.0.0.1:3103 \(loopback\), which the kubelet's probes and Prometheus cannot reach: set HEALTH_HOST: "0.0.0.0"/,
      );
      const composed = withFile('docker-compose.yml', (t) => t.replace('  HEALTH_HOST: 0.0.0.0\n', ''));
      expect(messages(checkDeploy(composed).problems)).toMatch(
        /services.indexer: the app binds 127.0.0.1:3102 \(loopback\), which other containers cannot reach: set HEALTH_HOST: 0.0.0.0/,
      );
    });

    it('keeps a hot standby next to the indexer (lease): two replicas, rolling updates, a PDB', () => {
      const input = withFile('deploy/k8s/base/indexer.yaml', (t) =>
        t
          .replace('replicas: 2 #', 'replicas: 1 #')
          .replace(/type: RollingUpdate\n.*\n/, 'type: Recreate\n')
          .replace('kind: PodDisruptionBudget', 'kind: ConfigMap'),
      );
      const out = messages(checkDeploy(input).problems);
      expect(out).toMatch(/Deployment\/indexer: needs a hot standby: set spec.replicas: 2/);
      expect(out).toMatch(/Deployment\/indexer: needs strategy RollingUpdate with rollingUpdate.maxUnavailable: 0/);
      expect(out).toMatch(/Deployment\/indexer: needs a PodDisruptionBudget/);
    });
  });
});
