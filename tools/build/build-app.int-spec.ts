/**
 * The images' build, checked without Docker: every target compiles to JavaScript that carries only
 * its own code, requires only production dependencies the root package.json declares, and runs:
 * the compiled migration CLI migrates a fresh database, and the compiled token-data and gateway
 * start and answer their probes with `node main.js`, as the image's CMD does.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Client } from 'pg';
import { createTestDatabaseUrl, freePort, INFRA, PrivateNatsServer } from '@tokensvc/testing';
import { BUILD_TARGETS } from './targets';
import { buildRunnable, runToEnd, startAndWait, type Started } from './compiled-app';

const ROOT = join(__dirname, '..', '..');

/** Every file under `root` (node_modules aside), relative to it. */
function files(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name === 'node_modules') return [];
    const p = join(dir, e.name);
    return e.isDirectory() ? files(root, p) : [relative(root, p)];
  });
}

describe('compiled images (tools/build/build-app.ts)', () => {
  const out = mkdtempSync(join(tmpdir(), 'tokensvc-build-'));
  const dbUrl = createTestDatabaseUrl('build');
  const dbName = new URL(dbUrl).pathname.slice(1);
  const started: Started[] = [];
  let nats: PrivateNatsServer;

  beforeAll(async () => {
    // a bus of its own: no other test's token-data can answer this gateway
    nats = new PrivateNatsServer(await freePort());
    await nats.start();
    const admin = new Client({ connectionString: INFRA.postgres });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
  });

  afterAll(async () => {
    await Promise.all(started.map((s) => s.stop()));
    await nats.stop();
    const admin = new Client({ connectionString: INFRA.postgres });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
    rmSync(out, { recursive: true, force: true });
  });

  it('compiles each target to its own code and its declared production dependencies only', () => {
    const declared = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> })
      .dependencies;
    for (const target of Object.keys(BUILD_TARGETS)) {
      const result = buildRunnable(target, join(out, target));
      const shipped = files(result.outDir);
      expect(shipped).toContain('main.js');
      expect(shipped).toContain('package.json');
      // no test, devnet or test-infrastructure code, and no other app
      expect(
        shipped.filter((f) => /\.(int-|e2e-)?spec\.js$/.test(f) || f.startsWith('libs/testing/') || f.startsWith('libs/devnet/')),
      ).toEqual([]);
      const apps = new Set(shipped.filter((f) => f.startsWith('apps/')).map((f) => f.split('/')[1]));
      expect([...apps]).toEqual(target === 'migrate' ? [] : [target]);
      // what the image installs is what package.json declares for production, at the same version
      for (const [name, version] of Object.entries(result.packages)) expect({ name, version: declared[name] }).toEqual({ name, version });
      // each file reached is shipped once (the data files the code reads by path come on top)
      expect(result.files).toBe(
        shipped.filter(
          (f) =>
            !f.endsWith('.map') &&
            f !== 'package.json' &&
            f !== 'main.js' &&
            !f.startsWith('libs/contracts/generated/') &&
            f !== 'libs/chain/src/registry/networks.registry.json',
        ).length,
      );
    }
  });

  it('the compiled indexer and quote ship the registry and read it (REGISTRY=shipped)', async () => {
    for (const app of ['indexer', 'quote']) {
      const dir = join(out, app);
      expect(files(dir)).toContain('libs/chain/src/registry/networks.registry.json');
      const script =
        "const { loadRegistry, registryPlatforms } = require('./libs/chain/src/registry/shipped-registry.js'); process.stdout.write(registryPlatforms(loadRegistry('shipped'), ['base']).find((p) => p.slug === 'uniswap-v3').addresses.factory)";
      const run = await runToEnd(dir, ['-e', script], {});
      expect(run.output).toBe('0x33128a8fc17869897dce68ed026d694621f6fdfd');
    }
  });

  it('the compiled quote loads the Router ABI from the shipped artifacts, with no Solidity sources or solc', async () => {
    const dir = join(out, 'quote');
    expect(files(dir)).toEqual(expect.arrayContaining(['libs/contracts/generated/Router.json', 'libs/contracts/generated/Executor.json']));
    expect(files(dir).some((f) => f.startsWith('libs/contracts/solidity/'))).toBe(false);
    const script =
      "const { routerInterface } = require('./libs/contracts/src/router/abi.js'); process.stdout.write(routerInterface().getFunction('execute').selector)";
    const run = await runToEnd(dir, ['-e', script], {});
    expect(run.output).toMatch(/^0x[0-9a-f]{8}$/);
  });

  it('the compiled migration CLI migrates a fresh database', async () => {
    const run = await runToEnd(join(out, 'migrate'), ['main.js', 'migrate'], { DATABASE_URL: dbUrl });
    expect(run).toEqual(expect.objectContaining({ code: 0 }));
    const db = new Client({ connectionString: dbUrl });
    await db.connect();
    const { rows } = await db.query<{ n: string }>(`SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = 'public'`);
    await db.end();
    expect(Number(rows[0]?.n)).toBeGreaterThan(10);
  });

  it('the compiled token-data and gateway start and answer their probes', async () => {
    const [healthPort, gatewayPort] = [await freePort(), await freePort()];
    const env = {
      DATABASE_URL: dbUrl,
      NATS_URL: nats.url,
      REDIS_URL: INFRA.redis,
      NETWORKS: 'ethereum',
      RPC_URL_ETHEREUM: 'http://127.0.0.1:9',
      LOG_LEVEL: 'warn',
    };
    const tokenData = await startAndWait(
      join(out, 'token-data'),
      ['main.js'],
      { ...env, HEALTH_PORT: String(healthPort) },
      `http://127.0.0.1:${healthPort}/health/ready`,
      60_000,
    );
    started.push(tokenData);
    const gateway = await startAndWait(
      join(out, 'gateway'),
      ['main.js'],
      { ...env, HOST: '127.0.0.1', PORT: String(gatewayPort) },
      `http://127.0.0.1:${gatewayPort}/health/live`,
      60_000,
    );
    started.push(gateway);
    // The gateway reaches the compiled token-data over the bus (its ping), Postgres and Redis.
    const ready = (await (await fetch(`http://127.0.0.1:${gatewayPort}/health/ready`)).json()) as {
      checks: Record<string, string>;
      services: Record<string, string>;
    };
    expect(ready.checks).toEqual({ nats: 'up', postgres: 'up', redis: 'up' });
    expect(ready.services['token-data']).toBe('up');
    // Errors in the compiled code point into the TypeScript sources (source maps shipped).
    expect(readFileSync(join(out, 'gateway', 'apps', 'gateway', 'src', 'main.js.map'), 'utf8')).toContain('main.ts');
  });
});
