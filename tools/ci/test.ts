/**
 * `npm test`: every check CI runs, in order, failing fast:
 *   types (tsc), format (prettier), lint (module boundaries and habits), generated code up to date (proto, SDK types,
 *   docs/configuration.md, the address registry against its npm packages),
 *   packaging manifests (docker compose + Kubernetes schema check), then every Jest tier
 *   (unit, integration against real Postgres/Redis/NATS/anvil, end to end).
 * Extra arguments go to Jest (e.g. `npm test -- --selectProjects unit`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const bin = (name: string): string => join(ROOT, 'node_modules', '.bin', name);
const node = (script: string): string[] => [process.execPath, '-r', join(ROOT, 'tools', 'register.js'), join(ROOT, script)];

interface Step {
  name: string;
  cmd: string[];
  when?: () => boolean;
}

const jestArgs = process.argv.slice(2);
const jestOut = join(ROOT, 'tmp', 'jest-results.json');
mkdirSync(join(ROOT, 'tmp'), { recursive: true });
const steps: Step[] = [
  { name: 'typecheck', cmd: [bin('tsc'), '-p', 'tsconfig.json', '--noEmit'] },
  // prettier (.prettierrc.json: 140 columns); `npm run format` rewrites what this refuses
  { name: 'format', cmd: ['npm', 'run', '-s', 'format:check'] },
  { name: 'project graph', cmd: [bin('nx'), 'show', 'projects'] },
  { name: 'lint', cmd: [bin('eslint'), 'apps', 'libs', 'tools', 'bench', 'examples', '--max-warnings', '0'] },
  { name: 'proto up to date', cmd: node('tools/proto/gen.ts').concat('--check') },
  { name: 'sdk types up to date', cmd: node('tools/sdk/gen.ts').concat('--check') },
  { name: 'docs up to date', cmd: node('tools/docs/generate.ts').concat('--check') },
  { name: 'registry up to date', cmd: node('tools/registry/generate.ts').concat('--check') },
  { name: 'deploy manifests', cmd: node('tools/deploy/check.ts'), when: () => existsSync(join(ROOT, 'tools', 'deploy', 'check.ts')) },
  { name: 'jest', cmd: [bin('jest'), '--maxWorkers=2', '--json', `--outputFile=${jestOut}`, ...jestArgs] },
];

const skipStatic = jestArgs.length > 0;
let failed = false;
for (const step of steps) {
  if (skipStatic && step.name !== 'jest') continue;
  if (step.when && !step.when()) continue;
  const t = Date.now();
  process.stdout.write(`\n=== ${step.name}\n`);
  if (step.name === 'jest') rmSync(jestOut, { force: true });
  const [cmd, ...args] = step.cmd as [string, ...string[]];
  const res = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' } });
  process.stdout.write(`=== ${step.name}: ${res.status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - t) / 1000).toFixed(1)} s\n`);
  if (res.status !== 0) {
    failed = true;
    if (step.name !== 'jest') break;
  }
}

if (existsSync(jestOut)) {
  const r = JSON.parse(readFileSync(jestOut, 'utf8')) as { numPassedTests: number; numFailedTests: number; numPendingTests: number };
  process.stdout.write(`\n${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests} skipped\n`);
}
process.exit(failed ? 1 : 0);
