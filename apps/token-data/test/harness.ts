/**
 * One running data surface for an e2e file: a fresh migrated database, the indexer, token-data
 * and the gateway as processes over real NATS/Postgres/Redis and the shared test devnet
 * (read-only), indexed up to each network's head, plus issued API keys.
 */
import { Pool } from 'pg';
import { ApiKeysRepository, dropDatabase, migrate } from '@tokensvc/persistence';

/**
 * The parts of @tokensvc/testing the harness uses, passed in by the spec file (module boundaries
 * let only test files import the testing library).
 */
export type TestingKit = Pick<
  typeof import('@tokensvc/testing'),
  | 'createTestDatabaseUrl'
  | 'freePort'
  | 'freePortRange'
  | 'hasBinary'
  | 'INFRA'
  | 'PrivateNatsServer'
  | 'startApp'
  | 'stopProcess'
  | 'testDevnet'
  | 'waitForHttp'
>;
type AppName = Parameters<TestingKit['startApp']>[0];
type PlatformEnv = Parameters<TestingKit['startApp']>[1];

export interface HttpAnswer {
  status: number;
  // Test code reads arbitrary JSON shapes.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface DataSurface {
  pool: Pool;
  rpcUrls: Record<string, string>;
  manifestPath: string;
  /**
   * the bus of this surface: a private nats-server when the binary is there, so two data surfaces
   * running at once (two test files) never answer each other's gateway from their own databases
   */
  natsUrl: string;
  /** GET through the gateway with a paid key (rotating over several so the per-key limit never bites) */
  paid(path: string): Promise<HttpAnswer>;
  free(path: string): Promise<HttpAnswer>;
  stop(): Promise<void>;
}

const SURFACE_APPS: AppName[] = ['indexer', 'token-data', 'gateway'];
const PAID_KEYS = 8;

async function rpc<T>(url: string, method: string, params: unknown[]): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

export function ethCall(url: string, to: string, data: string): Promise<string> {
  return rpc<string>(url, 'eth_call', [{ to, data }, 'latest']);
}
export function ethBalance(url: string, owner: string): Promise<string> {
  return rpc<string>(url, 'eth_getBalance', [owner, 'latest']);
}
/** ERC-20 balanceOf(owner) at the latest block, as a decimal string. */
export async function balanceOf(url: string, token: string, owner: string): Promise<string> {
  const hex = await ethCall(url, token, `0x70a08231${owner.toLowerCase().replace(/^0x/, '').padStart(64, '0')}`);
  return BigInt(hex).toString();
}

async function waitIndexed(pool: Pool, rpcUrls: Record<string, string>, timeoutMs: number): Promise<void> {
  const heads = Object.fromEntries(
    await Promise.all(
      Object.entries(rpcUrls).map(async ([n, u]) => [n, Number(BigInt(await rpc<string>(u, 'eth_blockNumber', [])))] as const),
    ),
  );
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await pool.query<{ network: string; block_number: string }>('SELECT network, block_number FROM index_cursors');
    const at = Object.fromEntries(rows.map((r) => [r.network, Number(r.block_number)]));
    if (Object.entries(heads).every(([n, h]) => (at[n] ?? -1) >= h)) return;
    if (Date.now() > deadline) throw new Error(`indexer not at head after ${timeoutMs} ms: ${JSON.stringify({ heads, at })}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

export async function startDataSurface(kit: TestingKit, label: string, onLine: (line: string) => void): Promise<DataSurface> {
  const {
    createTestDatabaseUrl,
    freePort,
    freePortRange,
    hasBinary,
    INFRA,
    PrivateNatsServer,
    startApp,
    stopProcess,
    testDevnet,
    waitForHttp,
  } = kit;
  const nats = hasBinary('nats-server') ? new PrivateNatsServer(await freePort()) : undefined;
  await nats?.start();
  const natsUrl = nats?.url ?? INFRA.nats;
  const dbUrl = createTestDatabaseUrl(label);
  await migrate(dbUrl);
  const pool = new Pool({ connectionString: dbUrl, max: 4 });
  const keys = new ApiKeysRepository(pool);
  const paidKeys: string[] = [];
  for (let i = 0; i < PAID_KEYS; i++) paidKeys.push((await keys.issue({ tier: 'paid', label: `${label} paid ${i}` })).key);
  const freeKey = (await keys.issue({ tier: 'free', label: `${label} free` })).key;
  const devnet = testDevnet();
  const rpcUrls = devnet.rpcUrls as Record<string, string>;
  const env: PlatformEnv = {
    databaseUrl: dbUrl,
    natsUrl,
    redisUrl: INFRA.redis,
    rpcUrls: devnet.rpcUrls,
    manifestPath: devnet.manifestPath,
    gatewayPort: await freePort(),
    healthPortBase: await freePortRange(5),
    natsRequestTimeoutMs: 10_000,
    logLevel: 'warn',
  };
  const procs = SURFACE_APPS.map((app) => startApp(app, env, (name, line) => onLine(`[${name}] ${line}`)));
  const base = `http://127.0.0.1:${env.gatewayPort}`;
  const stop = async (): Promise<void> => {
    await Promise.all(procs.map((p) => stopProcess(p)));
    await nats?.dispose();
    await pool.end();
    await dropDatabase(dbUrl);
  };
  let n = 0;
  const get = async (key: string, path: string): Promise<HttpAnswer> => {
    const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(20_000) });
    return { status: res.status, body: await res.json() };
  };
  try {
    await waitForHttp(`${base}/health`, 90_000);
    await waitIndexed(pool, rpcUrls, 240_000);
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    pool,
    rpcUrls,
    manifestPath: devnet.manifestPath,
    natsUrl,
    stop,
    paid: (path) => get(paidKeys[n++ % paidKeys.length]!, path),
    free: (path) => get(freeKey, path),
  };
}
