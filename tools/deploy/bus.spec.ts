import { checkDeploy, formatProblem, loadDeployInput, type DeployInput } from './check';
import type { SourceFile } from './validate';

/** The bus and store credentials and the NetworkPolicies, as `npm run deploy:check` requires them (bus.ts). */
describe('deploy check: bus and stores', () => {
  let real: DeployInput;
  beforeAll(() => {
    real = loadDeployInput();
  });
  const withFile = (path: string, edit: (text: string) => string): DeployInput => {
    const swap = (f: SourceFile): SourceFile => (f.path === path ? { path, text: edit(f.text) } : f);
    return { ...real, compose: swap(real.compose), manifests: real.manifests.map(swap), natsAuth: real.natsAuth && swap(real.natsAuth) };
  };
  const problems = (input: DeployInput): string => checkDeploy(input).problems.map(formatProblem).join('\n');
  const BUS = /NATS_|REDIS_PASSWORD|NetworkPolicy|tokensvc-auth\.conf/;

  it('finds every app with its own NATS user, its secrets and a NetworkPolicy in the repo files', () => {
    expect(
      checkDeploy(real)
        .problems.map(formatProblem)
        .filter((p) => BUS.test(p)),
    ).toEqual([]);
  });

  it('wants the NATS password from a Secret, required, never a literal', () => {
    const literal = withFile('deploy/k8s/base/quote.yaml', (t) =>
      t.replace(
        /- name: NATS_PASSWORD\n\s+valueFrom: \{ secretKeyRef: \{ name: tokensvc-nats, key: quote \} \}/,
        '- { name: NATS_PASSWORD, value: hunter2 }',
      ),
    );
    expect(problems(literal)).toMatch(/Deployment\/quote container quote: needs env NATS_PASSWORD from a Secret/);
    const optional = withFile('deploy/k8s/base/quote.yaml', (t) =>
      t.replace('{ name: tokensvc-nats, key: quote }', '{ name: tokensvc-nats, key: quote, optional: true }'),
    );
    expect(problems(optional)).toMatch(/Deployment\/quote container quote: NATS_PASSWORD must not be optional/);
    const shared = withFile('deploy/k8s/base/quote.yaml', (t) =>
      t.replace('{ name: NATS_USER, value: quote }', '{ name: NATS_USER, value: gateway }'),
    );
    expect(problems(shared)).toMatch(/Deployment\/quote container quote: needs env NATS_USER: quote/);
  });

  it('wants the Redis password in the apps that use Redis', () => {
    const input = withFile('deploy/k8s/base/status-tracker.yaml', (t) =>
      t.replace(
        '            - name: REDIS_PASSWORD\n              valueFrom: { secretKeyRef: { name: tokensvc-redis, key: REDIS_PASSWORD } }\n',
        '',
      ),
    );
    expect(problems(input)).toMatch(/Deployment\/status-tracker container status-tracker: needs env REDIS_PASSWORD from a Secret/);
  });

  it('wants a NetworkPolicy on every app', () => {
    const input = withFile('deploy/k8s/base/network-policies.yaml', (t) =>
      t.replace(
        'matchLabels: { app.kubernetes.io/name: indexer, app.kubernetes.io/part-of: tokensvc }',
        'matchLabels: { app.kubernetes.io/name: indexer-old }',
      ),
    );
    expect(problems(input)).toMatch(/Deployment\/indexer: no NetworkPolicy limits the ingress of its pods/);
    const typo = withFile('deploy/k8s/base/network-policies.yaml', (t) => t.replace('policyTypes: [Ingress]', 'policyTypes: [Ingres]'));
    expect(problems(typo)).toMatch(/NetworkPolicy\/gateway/);
  });

  it('wants the committed NATS permissions to be the generated ones, and compose to use per-app users', () => {
    const stale = withFile('deploy/nats/tokensvc-auth.conf', (t) => t.replace('"token-data.>", "indexer.>"', '">"'));
    expect(problems(stale)).toMatch(/tokensvc-auth\.conf: \(file\): differs from the bus permissions/);
    const compose = withFile('docker-compose.yml', (t) => t.replace('      NATS_USER: indexer\n', ''));
    expect(problems(compose)).toMatch(/services\.indexer\.environment: needs NATS_USER: indexer/);
  });
});
