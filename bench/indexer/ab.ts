/**
 * A/B runs of two (or more) indexer source trees on the saved bench chain, alternately, each on a
 * fresh database migrated by the tree itself: wall time to the head, CPU seconds of the indexer process, of its
 * Postgres backends and of anvil (from /proc), peak RSS, the load average around each run, and a
 * digest of every table the indexer writes, so the trees' outputs can be compared byte for byte.
 *
 *   node -r ./tools/register.js bench/indexer/ab.ts --variant before=/tmp/orig --variant after=. \
 *     [--rounds 2] [--events 1000000] [--port 48545] [--env after:INDEXER_PREFETCH=1] [--node-args after:--max-semi-space-size=32]
 *     [--no-compare] [--output /tmp/ab]   (each run's indexer output to /tmp/ab-<variant>-<round>.log)
 *
 * A tree is any checkout of this repository with node_modules reachable (e.g. `git archive HEAD |
 * tar -x -C /tmp/orig && ln -s $PWD/node_modules /tmp/orig/`). The chain must have been generated
 * by `npm run bench -- indexer` with the same `--events` (it is loaded from .bench/indexer/).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { createTestDatabaseUrl, stopProcess } from '@tokensvc/testing';
import { ensureBenchChain } from './chain/generate';
import { planChain } from './chain/mix';
import { BENCH_DIR } from './chain/paths';
import { writeBenchManifest } from './manifest';
import { DEFAULT_OPTIONS } from './options';
import { benchIndexerEnv, endBenchIndexer } from './ours';
import { settlePostgres, sleep, startProcess, type BenchProcess } from './proc';

/** Columns that record when or in which batch a row was written, not what it says. */
const BOOKKEEPING: Record<string, readonly string[]> = {
  index_cursors: ['updated_at', 'published_seq', 'backfill_target'],
  indexer_leases: ['holder', 'expires_at'],
  pools: ['change_seq', 'restored'],
  networks: ['updated_at'],
  platforms: ['updated_at'],
};
/**
 * Rows compared: which blocks without events are stored depends on batch boundaries (range ends,
 * the dense tail), as in the indexer's own snapshots (testing/db-snapshot.ts).
 */
const ROWS: Record<string, string> = {
  blocks: `WHERE t.number IN (SELECT block_number FROM transfers UNION SELECT block_number FROM activities)`,
};
/** Tables that are not the indexer's output. */
const SKIPPED = new Set(['migrations', 'schema_migrations', 'typeorm_metadata', 'indexer_leases']);

const CLK_TCK = 100;

/** utime + stime of a process in seconds, undefined once it is gone. */
function cpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
  } catch {
    return undefined;
  }
}

function peakRssMb(pid: number): number | undefined {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

const loadAvg = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

interface Variant {
  name: string;
  root: string;
  env: Record<string, string>;
  nodeArgs: string[];
}

interface RunResult {
  variant: string;
  seconds: number;
  nodeCpu: number;
  pgCpu: number;
  anvilCpu: number;
  rssMb: number;
  load: string;
  digests: Record<string, string>;
}

function parseArgs(args: readonly string[]): {
  variants: Variant[];
  rounds: number;
  events: number;
  port: number;
  compare: boolean;
  output?: string;
} {
  const variants: Variant[] = [];
  let rounds = 2;
  let events = DEFAULT_OPTIONS.events;
  let port = DEFAULT_OPTIONS.port;
  let compare = true;
  let output: string | undefined;
  const byName = (spec: string, flag: string): [Variant, string] => {
    const i = spec.indexOf(':');
    const v = variants.find((x) => x.name === spec.slice(0, i));
    if (i < 0 || !v) throw new Error(`${flag} needs <variant>:<value> of a variant given before it, got ${spec}`);
    return [v, spec.slice(i + 1)];
  };
  for (let i = 0; i < args.length; i++) {
    const flag = args[i]!;
    const value = (): string => {
      const v = args[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    if (flag === '--variant') {
      const [name, root] = value().split('=', 2);
      if (!name || !root) throw new Error('--variant needs <name>=<source tree>');
      variants.push({ name, root: resolve(root), env: {}, nodeArgs: [] });
    } else if (flag === '--env') {
      const [v, kv] = byName(value(), flag);
      const [k, val] = kv.split('=', 2);
      if (!k || val === undefined) throw new Error('--env needs <variant>:<KEY>=<value>');
      v.env[k] = val;
    } else if (flag === '--node-args') {
      const [v, a] = byName(value(), flag);
      v.nodeArgs.push(...a.split(' ').filter((x) => x !== ''));
    } else if (flag === '--rounds') rounds = Number(value());
    else if (flag === '--events') events = Number(value());
    else if (flag === '--port') port = Number(value());
    else if (flag === '--no-compare') compare = false;
    else if (flag === '--output') output = value();
    else throw new Error(`unknown option ${flag}`);
  }
  if (variants.length === 0) throw new Error('give at least one --variant <name>=<source tree>');
  return { variants, rounds, events, port, compare, output };
}

/** md5 of every indexer table's rows (all columns but bookkeeping ones), sorted as text. */
async function tableDigests(db: Client): Promise<Record<string, string>> {
  const cols = await db.query<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
  );
  const tables = new Map<string, string[]>();
  for (const c of cols.rows) {
    if (SKIPPED.has(c.table_name) || BOOKKEEPING[c.table_name]?.includes(c.column_name)) continue;
    tables.set(c.table_name, [...(tables.get(c.table_name) ?? []), c.column_name]);
  }
  const out: Record<string, string> = {};
  for (const [table, columns] of tables) {
    const list = columns.map((c) => `t."${c}"`).join(', ');
    const r = await db.query<{ n: string; d: string | null }>(
      `SELECT count(*) AS n, md5(string_agg(x, E'\\n' ORDER BY x)) AS d FROM (SELECT ROW(${list})::text AS x FROM "${table}" t ${ROWS[table] ?? ''}) s`,
    );
    out[table] = `${r.rows[0]!.n}:${r.rows[0]!.d ?? '-'}`;
  }
  return out;
}

async function runOne(
  v: Variant,
  rpcUrl: string,
  manifest: string,
  head: number,
  anvilPid: number,
  log: (s: string) => void,
  outputFile?: string,
): Promise<RunResult> {
  const dbUrl = createTestDatabaseUrl('bench_ab');
  // With the variant's own migrations: a tree may change the schema.
  execFileSync(process.execPath, ['-r', './tools/register.js', 'libs/persistence/src/cli.ts', 'migrate'], {
    cwd: v.root,
    env: { ...process.env, DATABASE_URL: dbUrl },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const dbName = new URL(dbUrl).pathname.slice(1);
  const db = new Client({ connectionString: dbUrl });
  await db.connect();
  const tag = randomBytes(4).toString('hex');
  let proc: BenchProcess | undefined;
  try {
    const backendCpu = new Map<number, number>();
    const sampleBackends = async (): Promise<void> => {
      const r = await db.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [
        dbName,
      ]);
      for (const { pid } of r.rows) {
        const s = cpuSeconds(pid);
        if (s !== undefined) backendCpu.set(pid, s);
      }
    };
    await settlePostgres();
    const load = loadAvg();
    const anvil0 = cpuSeconds(anvilPid) ?? 0;
    const started = performance.now();
    proc = startProcess(
      `indexer-${v.name}`,
      [...v.nodeArgs, '-r', join(v.root, 'tools', 'register.js'), join(v.root, 'apps', 'indexer', 'src', 'main.ts')],
      { ...(await benchIndexerEnv(rpcUrl, manifest, dbUrl, tag)), INDEXER_REFRESH_HEAD_MS: '0', ...v.env },
      outputFile ? (line) => appendFileSync(outputFile, `${line}\n`) : undefined,
    );
    const pid = proc.child.pid!;
    let nodeCpu = 0;
    let exited: number | null | undefined;
    void proc.exited.then((c) => (exited = c));
    for (let polls = 0; ; polls++) {
      const at = Number(
        (await db.query<{ b: string }>(`SELECT block_number AS b FROM index_cursors WHERE network = 'ethereum'`)).rows[0]?.b ?? -1,
      );
      nodeCpu = cpuSeconds(pid) ?? nodeCpu;
      if (polls % 10 === 0) await sampleBackends();
      if (at >= head) break;
      if (exited !== undefined) throw new Error(`${v.name} exited with ${exited}: ${proc.tail().slice(-800)}`);
      if (performance.now() - started > 900_000) throw new Error(`${v.name} did not reach the head in 900 s`);
      await sleep(50);
    }
    const seconds = (performance.now() - started) / 1000;
    await sampleBackends();
    const rssMb = peakRssMb(pid) ?? 0;
    const anvilCpu = (cpuSeconds(anvilPid) ?? anvil0) - anvil0;
    const pgCpu = [...backendCpu.values()].reduce((a, b) => a + b, 0);
    const endLoad = loadAvg();
    // Let the last publishes and metrics settle before stopping, then read the tables.
    await stopProcess(proc, 15_000);
    const digests = await tableDigests(db);
    const r: RunResult = { variant: v.name, seconds, nodeCpu, pgCpu, anvilCpu, rssMb, load: `${load} -> ${endLoad}`, digests };
    log(
      `  ${v.name}: ${seconds.toFixed(2)} s, node CPU ${nodeCpu.toFixed(1)} s, postgres ${pgCpu.toFixed(1)} s, anvil ${anvilCpu.toFixed(1)} s, peak RSS ${rssMb.toFixed(0)} MB, load ${r.load}`,
    );
    return r;
  } finally {
    await endBenchIndexer(proc, db, dbUrl, tag);
  }
}

async function main(): Promise<void> {
  const log = (s: string): void => void process.stdout.write(`${s}\n`);
  const o = parseArgs(process.argv.slice(2));
  const plan = planChain(o.events, DEFAULT_OPTIONS.eventsPerTx, DEFAULT_OPTIONS.txsPerBlock);
  const chain = await ensureBenchChain(o.port, plan, log);
  const manifest = writeBenchManifest(chain.meta, join(BENCH_DIR, `ab-manifest-${process.pid}.json`));
  const results: RunResult[] = [];
  try {
    for (let round = 0; round < o.rounds; round++) {
      log(`round ${round + 1}/${o.rounds}`);
      // Alternate which variant goes first, so slow drifts of the machine's load even out.
      const order = round % 2 === 0 ? o.variants : [...o.variants].reverse();
      for (const v of order)
        results.push(
          await runOne(
            v,
            chain.anvil.rpcUrl,
            manifest,
            chain.meta.head,
            chain.anvil.pid,
            log,
            o.output && `${o.output}-${v.name}-${round + 1}.log`,
          ),
        );
    }
  } finally {
    await chain.anvil.stop();
  }
  log('\nvariant      wall s (each)                 node CPU s      postgres CPU s  anvil CPU s');
  for (const v of o.variants) {
    const rs = results.filter((r) => r.variant === v.name);
    const f = (k: 'seconds' | 'nodeCpu' | 'pgCpu' | 'anvilCpu'): string => rs.map((r) => r[k].toFixed(1)).join(' / ');
    log(`${v.name.padEnd(12)} ${f('seconds').padEnd(29)} ${f('nodeCpu').padEnd(15)} ${f('pgCpu').padEnd(15)} ${f('anvilCpu')}`);
  }
  if (!o.compare) return;
  const first = results[0]!;
  const differing = new Set<string>();
  for (const r of results.slice(1))
    for (const [t, d] of Object.entries(first.digests)) if (r.digests[t] !== d) differing.add(`${t} (${r.variant})`);
  for (const r of results.slice(1))
    for (const t of Object.keys(r.digests)) if (!(t in first.digests)) differing.add(`${t} (only in ${r.variant})`);
  log(
    `\ntables compared: ${Object.entries(first.digests)
      .map(([t, d]) => `${t} ${d.split(':')[0]} rows`)
      .join(', ')}`,
  );
  log(differing.size === 0 ? 'every table identical across all runs' : `DIFFERENT: ${[...differing].join(', ')}`);
  if (differing.size > 0) process.exitCode = 1;
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
