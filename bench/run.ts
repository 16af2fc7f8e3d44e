/**
 * `npm run bench [-- <name> [options]]`: every benchmark (or only the named one), each next to its
 * baseline measured in the same run. Names: catalog, gateway, query, tokens, routing, routing-scale, indexer, indexer-remote, fuzz, image, tracing (options: see bench/README.md).
 */
import { createTestDatabaseUrl, freePort, INFRA } from '@tokensvc/testing';
import { runCatalogBench, type BenchRow } from './catalog.bench';
import { runGatewayBench, TARGET_COST } from './gateway.bench';
import { runRoutingBench } from './routing.bench';
import { parseScaleOptions, runRoutingScaleBench } from './routing-scale.bench';
import { formatRoutingReport } from './routing/stats';
import { runIndexerBench } from './indexer/indexer.bench';
import { parseIndexerOptions } from './indexer/options';
import { formatReport } from './indexer/stats';
import { parseTokensOptions, runTokensBench } from './tokens.bench';
import { formatQueryValidationReport, runQueryValidationBench } from './query-validation.bench';
import { runTracingBench } from './tracing.bench';

function table(rows: BenchRow[]): string {
  const base = rows[0]!;
  const lines = rows.map((r) =>
    [
      r.name.padEnd(40),
      r.reqPerSec.toFixed(0).padStart(8),
      `${r.p50}`.padStart(6),
      `${r.p99}`.padStart(6),
      (r.reqPerSec / base.reqPerSec).toFixed(2).padStart(10),
      (r.p99 / Math.max(base.p99, 1)).toFixed(2).padStart(10),
      `${r.errors}`.padStart(6),
    ].join(' '),
  );
  return [
    [
      'target'.padEnd(40),
      'req/s'.padStart(8),
      'p50ms'.padStart(6),
      'p99ms'.padStart(6),
      'x rps'.padStart(10),
      'x p99'.padStart(10),
      'errors'.padStart(6),
    ].join(' '),
    ...lines,
  ].join('\n');
}

type Log = (s: string) => void;

const BENCHES: Record<string, (log: Log, args: string[]) => Promise<void>> = {
  catalog: async (log) => {
    const rows = await runCatalogBench(log);
    log(`\n/v2/platforms (ratios against the first row)\n${table(rows)}`);
  },
  gateway: async (log) => {
    for (const g of await runGatewayBench(log)) {
      log(`\n${g.title} (ratios against the first row)\n${table(g.rows)}`);
      log(`throughput cost of the checks: ${(g.cost * 100).toFixed(1)}% (target <= ${TARGET_COST * 100}%)`);
    }
  },
  tokens: async (log, args) => {
    const groups = await runTokensBench(log, parseTokensOptions(args));
    for (const g of groups) log(`\n${g.title} (ratios against the first row)\n${table(g.rows)}`);
    const p99 = (title: string): number => groups.find((g) => g.title.includes(title))?.rows[1]?.p99 ?? NaN;
    if (groups.some((g) => g.title.includes('page 400')) && groups.some((g) => g.title.includes('page 0'))) {
      log(`page 400 / page 0 p99, full path computed: ${(p99('page 400') / p99('page 0')).toFixed(2)} (target <= 1.5)`);
    }
  },
  // parseQuery next to Fastify's validator (Ajv) on the same schemas: time per query and the answers that differ
  query: async (log) => {
    log(
      `\nquery validation: parseQuery vs Fastify's validator (Ajv), same TypeBox schemas\n${formatQueryValidationReport(runQueryValidationBench())}`,
    );
  },
  routing: async (log) => {
    log(`\nroute quality (findRoute vs an independent optimum)\n${formatRoutingReport(await runRoutingBench(log))}`);
  },
  // findRoute on a generated ~50,000-pool graph next to the whole-graph router it replaced (options: --pools, --trades, --baseline-every, --seed)
  'routing-scale': async (log, args) => {
    log(`\nrouting at scale (same graph, same run)\n${await runRoutingScaleBench(log, parseScaleOptions(args))}`);
  },
  // The long run of the gateway parameter fuzz (its short run is in `npm test`): a process of its own, bounded in count and time.
  fuzz: async (log, args) => {
    const { spawnSync } = await import('node:child_process');
    const { join } = await import('node:path');
    const root = join(__dirname, '..');
    const env = {
      ...process.env,
      FUZZ_DATABASE_URL: createTestDatabaseUrl('gw_fuzz_soak'),
      FUZZ_REDIS_URL: INFRA.redis,
      FUZZ_CLOSED_NATS_URL: `nats://127.0.0.1:${await freePort()}`,
    };
    const r = spawnSync(
      process.execPath,
      ['-r', join(root, 'tools', 'register.js'), join(root, 'apps', 'gateway', 'bench', 'fuzz-soak.ts'), ...args],
      { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', maxBuffer: 1 << 30 },
    );
    log(
      r.stdout
        .split('\n')
        .filter((l) => !l.includes('"level":"error"'))
        .join('\n'),
    );
    if (r.status !== 0) throw new Error(`fuzz soak found unexpected answers (exit ${r.status})`);
  },
  // Image sizes and start times: tools/build/measure-images.ts, in a process of its own (the build tooling lives in tools/).
  image: async (log) => {
    const { spawnSync } = await import('node:child_process');
    const { join } = await import('node:path');
    const root = join(__dirname, '..');
    const r = spawnSync(process.execPath, ['-r', join(root, 'tools', 'register.js'), join(root, 'tools', 'build', 'measure-images.ts')], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
      encoding: 'utf8',
    });
    log(r.stdout);
    if (r.status !== 0) throw new Error(`image measurement failed (exit ${r.status})`);
  },
  indexer: async (log, args) => {
    const report = await runIndexerBench(log, parseIndexerOptions(args));
    log(`\nindexer backfill (same chain, same run)\n${formatReport(report)}`);
  },
  // the same bench with every contender behind the hosted-provider emulator (a paid plan's caps, 40 ms away)
  'indexer-remote': async (log, args) => {
    const report = await runIndexerBench(log, parseIndexerOptions(['--remote', ...args]));
    log(`\nindexer backfill over a remote-like RPC (same chain, same proxy, same run)\n${formatReport(report)}`);
  },
  tracing: async (log) => runTracingBench(log),
};

async function main(): Promise<void> {
  const log: Log = (s) => void process.stdout.write(`${s}\n`);
  const [first, ...rest] = process.argv.slice(2);
  if (first !== undefined && !first.startsWith('-')) {
    const bench = BENCHES[first];
    if (!bench) throw new Error(`unknown bench ${first} (have ${Object.keys(BENCHES).join(', ')})`);
    await bench(log, rest);
    return;
  }
  for (const bench of Object.values(BENCHES)) await bench(log, []);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
