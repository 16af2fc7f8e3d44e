/**
 * The data surface under load, same run: GET /v2/tokens (filtered + sorted, page 0 and page 400),
 * /v2/tokens/history and /v2/account through gateway (checks on, a paid key) -> NATS -> token-data
 * -> Postgres, next to a bare Fastify + pg handler running the same SQL with a pool of the same
 * size (20), over a generated catalogue of 60,000 tokens. Each request is measured rotating over
 * more distinct parameters than token-data's reply cache holds (every request computed), and the
 * full path once more with one fixed hot request (served from the per-block cache). The apps talk
 * over a private nats-server; each row also gives the CPU time per request of every process.
 */
import { isDeepStrictEqual } from 'node:util';
import autocannon from 'autocannon';
import { Pool } from 'pg';
import { NETWORK_INFO, type Network } from '@tokensvc/domain';
import { ApiKeysRepository, CatalogRepository, createDataSource, dropDatabase, migrate } from '@tokensvc/persistence';
import {
  createTestDatabaseUrl,
  freePort,
  INFRA,
  PrivateNatsServer,
  startApp,
  stopProcess,
  waitForHttp,
  type AppProcess,
} from '@tokensvc/testing';
import type { BenchRow } from './bench-row';
import { startGatewayTarget, type TargetProcess } from './gateway.bench';
import { bareServer } from './tokens/bare';
import { backendPids, childPids, cpuOver, type CpuProbe } from './tokens/cpu';
import { scenarios, type Scenario } from './tokens/scenarios';
import { SEED, seedCatalogue } from './tokens/seed';

const DURATION_S = Number(process.env['BENCH_DURATION_S'] ?? 8);
const CONNECTIONS = 32;
const POOL_SIZE = 20; // token-data's PersistenceModule pool

export interface TokensBenchOptions {
  /** run only the scenarios whose path contains one of these (`--only account`, `--only tokens,history`) */
  readonly only: readonly string[];
}

export function parseTokensOptions(args: readonly string[]): TokensBenchOptions {
  const only: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--only' && args[i + 1] !== undefined) only.push(...args[++i]!.split(',').filter(Boolean));
    else throw new Error(`tokens: unknown option ${args[i]} (have --only <path part>[,...])`);
  }
  return { only };
}

export interface TokensBenchGroup {
  readonly title: string;
  /** bare (rotating), full path (rotating), full path (hot, cached) */
  readonly rows: BenchRow[];
  /** CPU ms per request of each process group, per row (see tokens/cpu.ts) */
  readonly cpu: Array<Record<string, number>>;
}

interface Measured extends BenchRow {
  requests: number;
}

/** autocannon for `seconds`, or for `amount` requests when given */
async function measure(
  name: string,
  base: string,
  next: () => string,
  headers: Record<string, string>,
  seconds: number,
  amount?: number,
): Promise<Measured> {
  const requests = [
    {
      method: 'GET' as const,
      setupRequest: (req: autocannon.Request) => ({ ...req, path: next(), headers: { ...req.headers, ...headers } }),
    },
  ];
  const r = await autocannon({
    url: base,
    connections: CONNECTIONS,
    ...(amount === undefined ? { duration: seconds } : { amount }),
    requests,
  });
  return {
    name,
    reqPerSec: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts + r.non2xx,
    requests: r.requests.total,
  };
}

/** `name 1.23` per process group, in CPU ms per request, and their sum */
function cpuLine(cpu: Record<string, number>, requests: number): string {
  const per = Object.entries(cpu).map(([k, ms]) => [k, ms / Math.max(requests, 1)] as const);
  const total = per.reduce((sum, [, v]) => sum + (Number.isFinite(v) ? v : 0), 0);
  return `${per.map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')}; total ${total.toFixed(2)}`;
}

async function getJson(url: string, headers: Record<string, string>): Promise<Record<string, unknown>> {
  const res = await fetch(url, { headers });
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${(await res.text()).slice(0, 300)}`);
  return (await res.json()) as Record<string, unknown>;
}

/** Both sides must answer the same rows in the same order before their speeds mean anything. */
async function checkSameAnswer(s: Scenario, bare: string, full: string, auth: Record<string, string>): Promise<void> {
  for (const path of [s.fixed, s.rotating(7)]) {
    const [b, f] = await Promise.all([getJson(bare + path, {}), getJson(full + path, auth)]);
    const [fb, ff] = [s.fingerprint(b), s.fingerprint(f)];
    if (!isDeepStrictEqual(fb, ff))
      throw new Error(`${path}: bare and full path disagree: ${JSON.stringify(fb).slice(0, 300)} vs ${JSON.stringify(ff).slice(0, 300)}`);
    if (JSON.stringify(fb).length < 40) throw new Error(`${path}: empty answer ${JSON.stringify(fb)}`);
  }
}

async function prepareDatabase(dbUrl: string, log: (s: string) => void): Promise<void> {
  await migrate(dbUrl);
  const ds = createDataSource({ url: dbUrl, poolSize: 2 });
  await ds.initialize();
  try {
    await new CatalogRepository(ds).syncCatalog(
      SEED.networks.map((n) => ({ network: n, chainId: NETWORK_INFO[n as Network].chainId, name: NETWORK_INFO[n as Network].name })),
      SEED.networks.flatMap((n) =>
        SEED.platforms.map(([platform, family]) => ({
          network: n,
          platform,
          name: platform,
          image: '',
          family,
          category: 'dex' as const,
          addresses: {},
        })),
      ),
    );
  } finally {
    await ds.destroy();
  }
  const pool = new Pool({ connectionString: dbUrl, max: 1 });
  try {
    await seedCatalogue(pool, log);
  } finally {
    await pool.end();
  }
}

export async function runTokensBench(log: (s: string) => void, options: TokensBenchOptions = { only: [] }): Promise<TokensBenchGroup[]> {
  const dbUrl = createTestDatabaseUrl('bench_tokens');
  const procs: AppProcess[] = [];
  let gateway: TargetProcess | undefined;
  // a private bus: no other traffic on it, and its CPU is this bench's alone
  const nats = new PrivateNatsServer(await freePort());
  const pool = new Pool({ connectionString: dbUrl, max: POOL_SIZE, application_name: 'bench-bare' });
  const bare = bareServer(pool);
  try {
    await prepareDatabase(dbUrl, log);
    await nats.start();
    const env = {
      databaseUrl: dbUrl,
      natsUrl: nats.url,
      redisUrl: INFRA.redis,
      rpcUrls: {},
      gatewayPort: await freePort(),
      healthPortBase: await freePort(),
      logLevel: 'error',
    };
    procs.push(startApp('token-data', env, (_app, line) => void (/"level":"(error|fatal)"/.test(line) && log(`token-data: ${line}`))));
    const auth = { authorization: `Bearer ${(await new ApiKeysRepository(pool).issue({ tier: 'paid', label: 'bench tokens' })).key}` };
    gateway = await startGatewayTarget(['gateway', 'on'], {
      PATH: process.env['PATH'],
      HOME: process.env['HOME'],
      DATABASE_URL: dbUrl,
      REDIS_URL: INFRA.redis,
      NATS_URL: nats.url,
      LOG_LEVEL: 'error',
    });
    await waitForHttp(`http://127.0.0.1:${env.healthPortBase + 1}/health/ready`, 60_000);
    const barePort = await freePort();
    await bare.listen({ port: barePort, host: '127.0.0.1' });
    const [bareUrl, fullUrl] = [`http://127.0.0.1:${barePort}`, `http://127.0.0.1:${gateway.port}`];

    const groups: TokensBenchGroup[] = [];
    log(`tokens: ${DURATION_S}s per target after 2 s warm-up, ${CONNECTIONS} connections, pg pool ${POOL_SIZE} on both sides`);
    const tokenData = procs[0]!.child.pid!;
    const bareProbes: CpuProbe[] = [
      { name: 'bench process (autocannon + bare handler)', pids: () => [process.pid] },
      { name: 'postgres', pids: () => backendPids(pool, 'bench-bare') },
    ];
    const fullProbes: CpuProbe[] = [
      { name: 'bench process (autocannon)', pids: () => [process.pid] },
      { name: 'gateway', pids: () => childPids(process.pid, /overhead-target/) },
      { name: 'nats-server', pids: () => childPids(process.pid, /nats-server/) },
      { name: 'token-data', pids: () => [tokenData] },
      { name: 'postgres', pids: () => backendPids(pool, 'token-data') },
    ];
    const chosen = scenarios(Math.floor(Date.now() / 1000)).filter(
      (s) => options.only.length === 0 || options.only.some((part) => s.fixed.includes(part)),
    );
    if (chosen.length === 0) throw new Error(`tokens: no scenario matches --only ${options.only.join(',')}`);
    for (const s of chosen) {
      await checkSameAnswer(s, bareUrl, fullUrl, auth);
      const cpu: Array<Record<string, number>> = [];
      const run = async (
        name: string,
        base: string,
        path: (i: number) => string,
        headers: Record<string, string>,
        probes: CpuProbe[],
      ): Promise<BenchRow> => {
        // one rotation across warm-up and measurement: the measured requests are not the warm-up's
        // again (those would still be in the reply cache, within its TTL)
        let i = 0;
        const next = (): string => path(i++);
        await measure(name, base, next, headers, 2);
        if (i < (s.warmupRequests ?? 0)) await measure(name, base, next, headers, 0, Math.max(s.warmupRequests! - i, CONNECTIONS));
        const { result, cpu: used } = await cpuOver(probes, () => measure(name, base, next, headers, DURATION_S));
        cpu.push(Object.fromEntries(Object.entries(used).map(([k, ms]) => [k, ms / Math.max(result.requests, 1)])));
        log(`    ${name}: CPU ms/request ${cpuLine(used, result.requests)}`);
        const { requests: _requests, ...row } = result;
        return row;
      };
      const rows = [
        await run('bare fastify + pg (rotating params)', bareUrl, s.rotating, {}, bareProbes),
        await run('full path, every request computed', fullUrl, s.rotating, auth, fullProbes),
        await run('full path, hot request (reply cache)', fullUrl, () => s.fixed, auth, fullProbes),
      ];
      groups.push({ title: s.title, rows, cpu });
      log(`  ${s.title}: ${rows.map((r) => `${r.name} ${r.reqPerSec.toFixed(0)} req/s p99 ${r.p99} ms`).join('; ')}`);
    }
    return groups;
  } finally {
    // the gateway first, so requests it still holds are not answered 503 by a stopped token-data
    await gateway?.stop();
    await Promise.all(procs.map((p) => stopProcess(p)));
    await nats.dispose();
    await bare.close();
    await pool.end();
    await dropDatabase(dbUrl);
  }
}
