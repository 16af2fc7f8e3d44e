/**
 * Gateway overhead: the same routes through the same gateway code with auth + rate limit + monthly
 * quota + query validation on, and with them off, in one run (alternating rounds, so drift on a
 * shared machine hits both). Each gateway and the NATS stand-in for token-data run as their own
 * processes; keys rotate over many paid keys so the limiter's sorted sets stay a realistic size.
 * Loopback only, bounded in time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Pool } from 'pg';
import { ApiKeysRepository, dropDatabase, migrate } from '@tokensvc/persistence';
import { createTestDatabaseUrl, freePort, INFRA, PrivateNatsServer } from '@tokensvc/testing';
import type { BenchRow } from './bench-row';

const ROOT = join(__dirname, '..');
const TARGET = join(ROOT, 'apps', 'gateway', 'bench', 'overhead-target.ts');
const DURATION_S = Number(process.env['BENCH_DURATION_S'] ?? 8);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 2);
const CONNECTIONS = 32;
const KEYS = 50;
/** The issue's target: auth + limits + validation cost at most 15 % of throughput. */
export const TARGET_COST = 0.15;

export interface TargetProcess {
  readonly port: number;
  stop(): Promise<void>;
}

/** Starts `overhead-target.ts` with the given role; resolves once it prints "ready <port>". */
export function startGatewayTarget(args: string[], env: NodeJS.ProcessEnv): Promise<TargetProcess> {
  const child: ChildProcess = spawn(process.execPath, ['-r', join(ROOT, 'tools', 'register.js'), TARGET, ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start within 60 s`)), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      buf += chunk.toString();
      const m = /ready (\d+)/.exec(buf);
      if (m) {
        clearTimeout(timer);
        resolve({ port: Number(m[1]), stop });
      }
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code} before it was ready`)));
  });
}

interface Target {
  readonly name: string;
  readonly port: number;
  readonly path: string;
  readonly expect: number;
  readonly keys: readonly string[];
}

async function measure(t: Target, seconds: number): Promise<BenchRow> {
  let i = 0;
  const requests = [
    {
      method: 'GET' as const,
      path: t.path,
      setupRequest: (req: autocannon.Request) =>
        t.keys.length ? { ...req, headers: { ...req.headers, authorization: `Bearer ${t.keys[i++ % t.keys.length]}` } } : req,
    },
  ];
  const r = await autocannon({ url: `http://127.0.0.1:${t.port}`, connections: CONNECTIONS, duration: seconds, requests });
  const answered = Object.entries(r.statusCodeStats ?? {}).reduce(
    (n, [code, s]) => n + (Number(code) === t.expect ? 0 : (s.count ?? 0)),
    0,
  );
  return { name: t.name, reqPerSec: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts + answered };
}

function mean(name: string, rows: BenchRow[]): BenchRow {
  const avg = (f: (r: BenchRow) => number): number => rows.reduce((a, r) => a + f(r), 0) / rows.length;
  return {
    name,
    reqPerSec: avg((r) => r.reqPerSec),
    p50: Math.round(avg((r) => r.p50) * 10) / 10,
    p99: Math.round(avg((r) => r.p99) * 10) / 10,
    errors: rows.reduce((a, r) => a + r.errors, 0),
  };
}

export interface BenchGroup {
  readonly title: string;
  readonly rows: BenchRow[];
  /** 1 - (req/s with checks) / (req/s without) */
  readonly cost: number;
}

export async function runGatewayBench(log: (s: string) => void): Promise<BenchGroup[]> {
  const dbUrl = createTestDatabaseUrl('bench_gateway');
  await migrate(dbUrl);
  const pool = new Pool({ connectionString: dbUrl, max: 2 });
  const nats = new PrivateNatsServer(await freePort());
  const procs: TargetProcess[] = [];
  try {
    const repo = new ApiKeysRepository(pool);
    const keys = await Promise.all(
      Array.from({ length: KEYS }, async (_, i) => (await repo.issue({ tier: 'paid', label: `bench-${i}` })).key),
    );
    await nats.start();
    const env = {
      PATH: process.env['PATH'],
      HOME: process.env['HOME'],
      DATABASE_URL: dbUrl,
      REDIS_URL: INFRA.redis,
      NATS_URL: nats.url,
      LOG_LEVEL: 'error',
    };
    procs.push(await startGatewayTarget(['responder'], env));
    const off = await startGatewayTarget(['gateway', 'off'], env);
    procs.push(off);
    const on = await startGatewayTarget(['gateway', 'on'], env);
    procs.push(on);

    const tokens = '/v2/tokens?networks=ethereum,base&sortBy=liquidity&sortDirection=desc&limit=50&minLiquidity=1000';
    const groups = [
      { title: 'GET /v1/networks through NATS (gateway -> NATS -> stand-in)', path: '/v1/networks', expect: 200 },
      { title: `GET ${tokens} (501: no upstream, gateway work only; worst case)`, path: tokens, expect: 501 },
    ];
    log(`gateway overhead: ${ROUNDS} rounds x ${DURATION_S}s per target, ${CONNECTIONS} connections, ${KEYS} paid keys`);
    const out: BenchGroup[] = [];
    for (const g of groups) {
      const targets: Target[] = [
        { name: 'checks off', port: off.port, path: g.path, expect: g.expect, keys: [] },
        { name: 'auth + limit + quota + validation', port: on.port, path: g.path, expect: g.expect, keys },
      ];
      for (const t of targets) await measure(t, 2); // warm-up
      const results: BenchRow[][] = targets.map(() => []);
      for (let round = 0; round < ROUNDS; round++) {
        // Alternate the order each round so neither side always runs first.
        const order = round % 2 === 0 ? [0, 1] : [1, 0];
        for (const i of order) results[i]!.push(await measure(targets[i]!, DURATION_S));
      }
      const rows = targets.map((t, i) => mean(t.name, results[i]!));
      const cost = 1 - rows[1]!.reqPerSec / rows[0]!.reqPerSec;
      out.push({ title: g.title, rows, cost });
    }
    return out;
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
    await nats.dispose();
    await pool.end();
    await dropDatabase(dbUrl);
  }
}
