/**
 * Full path vs bare lower bound, same run: `GET /v2/platforms` through
 * gateway -> NATS request/reply -> token-data -> Postgres, next to a bare Fastify + pg handler
 * running the same SQL. Reports req/s, p50/p99 and the ratios. Loopback only, bounded in time.
 */
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { Pool } from 'pg';
import { ApiKeysRepository, CatalogRepository, createDataSource, dropDatabase, migrate } from '@tokensvc/persistence';
import { PLATFORM_FAMILIES, CATEGORY_BY_FAMILY, NETWORKS, NETWORK_INFO } from '@tokensvc/domain';
import { createTestDatabaseUrl, freePort, INFRA, startApp, stopProcess, waitForHttp, type AppProcess } from '@tokensvc/testing';
import { startGatewayTarget, type TargetProcess } from './gateway.bench';

export type { BenchRow } from './bench-row';
import type { BenchRow } from './bench-row';

const DURATION_S = Number(process.env['BENCH_DURATION_S'] ?? 8);
const CONNECTIONS = 32;

async function load(url: string, name: string, headers: Record<string, string> = {}): Promise<BenchRow> {
  // warm-up, then the measured run
  await autocannon({ url, headers, connections: CONNECTIONS, duration: 2 });
  const r = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_S });
  return { name, reqPerSec: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

/** The same SQL the repository runs for an unfiltered platform list. */
const PLATFORMS_SQL = `SELECT p.platform, p.name, p.image, p.network FROM platforms p JOIN networks n ON n.network = p.network AND n.enabled WHERE p.enabled ORDER BY p.platform, p.network`;

export async function runCatalogBench(log: (s: string) => void): Promise<BenchRow[]> {
  const dbUrl = createTestDatabaseUrl('bench_catalog');
  await migrate(dbUrl);
  const ds = createDataSource({ url: dbUrl, poolSize: 2 });
  await ds.initialize();
  // A catalogue as large as a real deployment's: 12 networks x ~25 platforms.
  await new CatalogRepository(ds).syncCatalog(
    NETWORKS.map((n) => ({ network: n, chainId: NETWORK_INFO[n].chainId, name: NETWORK_INFO[n].name })),
    NETWORKS.flatMap((n) =>
      Array.from({ length: 25 }, (_, i) => {
        const family = PLATFORM_FAMILIES[i % PLATFORM_FAMILIES.length]!;
        return {
          network: n,
          platform: `${family}-${i}`,
          name: `Platform ${i}`,
          image: `/img/${i}.svg`,
          family,
          category: CATEGORY_BY_FAMILY[family],
          addresses: {},
        };
      }),
    ),
  );
  await ds.destroy();

  const procs: AppProcess[] = [];
  let gateway: TargetProcess | undefined;
  const bare = Fastify();
  const pool = new Pool({ connectionString: dbUrl, max: 20 });
  try {
    const gatewayPort = await freePort();
    const env = {
      databaseUrl: dbUrl,
      natsUrl: INFRA.nats,
      redisUrl: INFRA.redis,
      rpcUrls: {},
      gatewayPort,
      healthPortBase: await freePort(),
      logLevel: 'error',
    };
    procs.push(startApp('token-data', env, () => undefined));
    // The gateway with its checks on (a paid key; limits raised so the load is never refused).
    const auth = { authorization: `Bearer ${(await new ApiKeysRepository(pool).issue({ tier: 'paid', label: 'bench' })).key}` };
    gateway = await startGatewayTarget(['gateway', 'on'], {
      PATH: process.env['PATH'],
      HOME: process.env['HOME'],
      DATABASE_URL: dbUrl,
      REDIS_URL: INFRA.redis,
      NATS_URL: INFRA.nats,
      LOG_LEVEL: 'error',
    });
    const gatewayUrl = `http://127.0.0.1:${gateway.port}/v2/platforms`;
    await waitForHttp(`http://127.0.0.1:${env.healthPortBase + 1}/health/ready`, 60_000);

    bare.get('/v2/platforms', async () => (await pool.query(PLATFORMS_SQL)).rows);
    const barePort = await freePort();
    await bare.listen({ port: barePort, host: '127.0.0.1' });

    log(`catalog: ${DURATION_S}s per target, ${CONNECTIONS} connections`);
    const baseline = await load(`http://127.0.0.1:${barePort}/v2/platforms`, 'bare fastify + pg');
    const full = await load(gatewayUrl, 'gateway -> NATS -> token-data -> pg', auth);
    return [baseline, full];
  } finally {
    await Promise.all([...procs.map((p) => stopProcess(p)), gateway?.stop()]);
    await bare.close();
    await pool.end();
    await dropDatabase(dbUrl);
  }
}
