/**
 * `npm run bench -- image` (which runs this file): what each image ships and how fast its app starts, next to the image
 * before the compile stage (all TypeScript sources, every production dependency, started through
 * the SWC hook with a warm transpile cache), measured in the same run without a container engine.
 *
 * Shipped bytes: the compiled output (JS, maps apart) plus the production node_modules closure of
 * the packages it requires (from the lock file, sized on disk); the base image (node:22-bookworm-slim
 * and tini) comes on top of both and is the same for both. Start: spawn to /health/ready of
 * token-data and to /health/live of the gateway, against local Postgres, Redis and NATS; median of runs.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createTestDatabaseUrl, freePort, INFRA } from '@tokensvc/testing';
import { BUILD_TARGETS } from './targets';
import { buildRunnable, productionClosure, runToEnd, startAndWait } from './compiled-app';

const ROOT = join(__dirname, '..', '..');
const MB = 1024 * 1024;

export interface ImageRow {
  target: string;
  jsBytes: number;
  mapBytes: number;
  modulesBytes: number;
  packages: number;
}

export interface ImageReport {
  rows: ImageRow[];
  baseline: { sourceBytes: number; modulesBytes: number; packages: number };
  starts: Array<{ app: string; compiledMs: number; sourcesMs: number }>;
}

function bytesBy(dir: string, test: (file: string) => boolean): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.isSymbolicLink()) continue;
    const p = join(dir, e.name);
    total += e.isDirectory() ? bytesBy(p, test) : test(p) ? statSync(p).size : 0;
  }
  return total;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

export async function runImageBench(log: (s: string) => void, runs = 3): Promise<ImageReport> {
  const out = mkdtempSync(join(tmpdir(), 'tokensvc-image-bench-'));
  const dbUrl = createTestDatabaseUrl('image_bench');
  const dbName = new URL(dbUrl).pathname.slice(1);
  const admin = new Client({ connectionString: INFRA.postgres });
  await admin.connect();
  try {
    const rows: ImageRow[] = [];
    for (const target of Object.keys(BUILD_TARGETS)) {
      const r = buildRunnable(target, join(out, target));
      const closure = productionClosure(Object.keys(r.packages));
      rows.push({
        target,
        jsBytes: bytesBy(r.outDir, (f) => f.endsWith('.js')),
        mapBytes: bytesBy(r.outDir, (f) => f.endsWith('.map')),
        modulesBytes: closure.bytes,
        packages: closure.paths.length,
      });
      log(`built ${target}: ${r.files} files`);
    }
    const declared = Object.keys(
      (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies,
    );
    const all = productionClosure(declared);
    // what the old image copied: apps and libs without tests (its .dockerignore)
    const notTest = (f: string): boolean => !/\.(int-|e2e-)?spec\.ts$/.test(f);
    const sourceBytes = bytesBy(join(ROOT, 'apps'), notTest) + bytesBy(join(ROOT, 'libs'), notTest);

    await admin.query(`CREATE DATABASE ${dbName}`);
    const migrated = await runToEnd(join(out, 'migrate'), ['main.js', 'migrate'], { DATABASE_URL: dbUrl });
    if (migrated.code !== 0) throw new Error(`migrate failed\n${migrated.output}`);
    const env = {
      DATABASE_URL: dbUrl,
      NATS_URL: INFRA.nats,
      REDIS_URL: INFRA.redis,
      NETWORKS: 'ethereum',
      RPC_URL_ETHEREUM: 'http://127.0.0.1:9',
      LOG_LEVEL: 'warn',
    };
    const register = join(ROOT, 'tools', 'register.js');
    const starts: ImageReport['starts'] = [];
    for (const app of ['token-data', 'gateway'] as const) {
      const compiled: number[] = [];
      const sources: number[] = [];
      for (let i = 0; i < runs; i++) {
        for (const mode of ['compiled', 'sources'] as const) {
          const port = await freePort();
          const appEnv = app === 'gateway' ? { ...env, HOST: '127.0.0.1', PORT: String(port) } : { ...env, HEALTH_PORT: String(port) };
          const url = `http://127.0.0.1:${port}/health/${app === 'gateway' ? 'live' : 'ready'}`;
          const s =
            mode === 'compiled'
              ? await startAndWait(join(out, app), ['main.js'], appEnv, url, 60_000)
              : await startAndWait(ROOT, ['-r', register, join(ROOT, 'apps', app, 'src', 'main.ts')], appEnv, url, 60_000);
          (mode === 'compiled' ? compiled : sources).push(s.ms);
          await s.stop();
        }
      }
      starts.push({ app, compiledMs: median(compiled), sourcesMs: median(sources) });
    }
    return { rows, baseline: { sourceBytes, modulesBytes: all.bytes, packages: all.paths.length }, starts };
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
    rmSync(out, { recursive: true, force: true });
  }
}

export function formatImageReport(r: ImageReport): string {
  const baseTotal = r.baseline.sourceBytes + r.baseline.modulesBytes;
  const lines = [
    [
      'image'.padEnd(16),
      'JS MB'.padStart(7),
      'maps MB'.padStart(8),
      'deps MB'.padStart(8),
      'packages'.padStart(9),
      'total MB'.padStart(9),
      'x before'.padStart(9),
    ].join(' '),
    [
      'before (any app)'.padEnd(16),
      (r.baseline.sourceBytes / MB).toFixed(1).padStart(7),
      '-'.padStart(8),
      (r.baseline.modulesBytes / MB).toFixed(1).padStart(8),
      `${r.baseline.packages}`.padStart(9),
      (baseTotal / MB).toFixed(1).padStart(9),
      '1.00'.padStart(9),
    ].join(' '),
    ...r.rows.map((x) => {
      const total = x.jsBytes + x.mapBytes + x.modulesBytes;
      return [
        x.target.padEnd(16),
        (x.jsBytes / MB).toFixed(1).padStart(7),
        (x.mapBytes / MB).toFixed(1).padStart(8),
        (x.modulesBytes / MB).toFixed(1).padStart(8),
        `${x.packages}`.padStart(9),
        (total / MB).toFixed(1).padStart(9),
        (total / baseTotal).toFixed(2).padStart(9),
      ].join(' ');
    }),
    '',
    ['start (median)'.padEnd(16), 'compiled ms'.padStart(12), 'sources ms'.padStart(11), 'x sources'.padStart(10)].join(' '),
    ...r.starts.map((s) =>
      [
        s.app.padEnd(16),
        s.compiledMs.toFixed(0).padStart(12),
        s.sourcesMs.toFixed(0).padStart(11),
        (s.compiledMs / s.sourcesMs).toFixed(2).padStart(10),
      ].join(' '),
    ),
  ];
  return lines.join('\n');
}

if (require.main === module) {
  const log = (s: string): void => void process.stdout.write(`${s}\n`);
  runImageBench(log)
    .then((r) =>
      log(`\nimages: what each ships and how fast it starts, against the image before the compile stage\n${formatImageReport(r)}`),
    )
    .catch((e: unknown) => {
      process.stderr.write(`${String((e as Error).stack ?? e)}\n`);
      process.exit(1);
    });
}
