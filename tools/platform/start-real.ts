/**
 * `npm run start:real`: the whole platform against real networks, in the production configuration:
 * the shipped address book (REGISTRY=shipped), a bounded scope (the last START_DAYS_<NETWORK> days,
 * 1 by default), no devnet, no devnet manifest, no devnet relayer (Across's own relayers fill). The RPC URLs are the user's
 * (RPC_URL_<NETWORK>, comma-separated for several providers). Postgres, Redis and NATS as for
 * `npm start` (used when reachable, else started locally where possible; a NATS with users and a
 * Redis with a password beside ones without: the apps refuse an open bus in this configuration). Prints the gateway URL,
 * a development key and each network's backfill progress. Ctrl-C stops everything it started.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve as resolvePath } from 'node:path';
import { DEFAULT_HEALTH_PORTS, redactUrl, rpcVar } from '@tokensvc/config';
import { isNetwork, NETWORKS, type Network } from '@tokensvc/domain';
import { migrate } from '@tokensvc/persistence';
import type { PlatformEnv } from '@tokensvc/testing';
import { buildConsole } from '../console/build';
import { devKey as ensureDevKey } from './dev-key';
import { followIndexing, indexerStatusReader } from './indexing-progress';
import { ensureInfra, type StartedInfra } from './infra';
import { platformRunner, waitForGateway } from './platform-runner';

const ROOT = join(__dirname, '..', '..');
const STATE_DIR = process.env['REAL_STATE_DIR'] ? resolvePath(process.env['REAL_STATE_DIR']) : join(ROOT, '.real');
/** the scope when neither START_BLOCK_<NETWORK> nor START_DAYS_<NETWORK> is set */
export const DEFAULT_START_DAYS = 1;
/** the user's settings the apps read, passed through as they are */
const PASSED =
  /^(RPC_|ROUTER_ADDRESS_|RELAYER_PRIVATE_KEY_|WRAPPED_NATIVE_|START_BLOCK_|START_DAYS_|FINALITY_DEPTH_|MAX_LOG_RANGE_|INDEXER_|QUOTE_|OTEL_|ADMIN_|CORS_|TRUSTED_PROXIES$|REGISTRY$|CROSS_CHAIN_BRIDGE$|ACROSS_)/;

const t0 = Date.now();
const say = (s: string): void => void process.stdout.write(`[start:real ${((Date.now() - t0) / 1000).toFixed(1)}s] ${s}\n`);

/** The enabled networks and the settings the apps get, or the problems (each says what to set). */
export function realSettings(env: NodeJS.ProcessEnv): { networks: Network[]; extraEnv: Record<string, string>; problems: string[] } {
  const problems: string[] = [];
  if (env['DEVNET_MANIFEST'])
    problems.push(
      'DEVNET_MANIFEST is set: `npm run start:real` runs real networks from the shipped registry; unset it (the devnet is `npm start`)',
    );
  const listed = env['NETWORKS']
    ?.split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  const networks = (listed ?? NETWORKS.filter((n) => env[rpcVar(n)])) as Network[];
  for (const n of networks) {
    if (!isNetwork(n)) problems.push(`NETWORKS names "${n}"; accepted: ${NETWORKS.join(', ')}`);
    else if (!env[rpcVar(n)])
      problems.push(`${rpcVar(n)} is not set: give the network's JSON-RPC URL (several, comma-separated, for failover)`);
  }
  if (networks.length === 0)
    problems.push(
      'no network: set RPC_URL_<NETWORK> for each network to serve (e.g. RPC_URL_ETHEREUM=https://<provider>/<key>), and NETWORKS to choose among them',
    );
  const extraEnv: Record<string, string> = { REGISTRY: 'shipped' };
  for (const [k, v] of Object.entries(env)) if (PASSED.test(k) && v !== undefined) extraEnv[k] = v;
  for (const n of networks.filter(isNetwork)) {
    const suffix = n.toUpperCase();
    if (env[`START_BLOCK_${suffix}`] === undefined && env[`START_DAYS_${suffix}`] === undefined)
      extraEnv[`START_DAYS_${suffix}`] = String(DEFAULT_START_DAYS);
  }
  return { networks, extraEnv, problems };
}

async function main(): Promise<void> {
  const env = process.env;
  const settings = realSettings(env);
  if (settings.problems.length > 0) {
    process.stderr.write(`npm run start:real cannot start:\n- ${settings.problems.join('\n- ')}\n`);
    process.exit(2);
  }
  const urls = {
    databaseUrl: env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/tokensvc_real',
    redisUrl: env['REDIS_URL'] ?? 'redis://127.0.0.1:6379',
    natsUrl: env['NATS_URL'] ?? 'nats://127.0.0.1:4222',
  };
  const gatewayPort = Number(env['PORT'] ?? 3000);
  let infra: StartedInfra | undefined;
  const run = platformRunner(say, env['LOG_LEVEL'] === 'debug' || process.argv.includes('--verbose'), async () => {
    await infra?.stop();
  });
  try {
    mkdirSync(STATE_DIR, { recursive: true });
    infra = await ensureInfra(urls, STATE_DIR, say);
    say(infra.bus);
    const applied = await migrate(urls.databaseUrl);
    say(applied.length ? `migrations applied: ${applied.join(', ')}` : 'database schema up to date');
    const key = await ensureDevKey(urls.databaseUrl, STATE_DIR);
    await buildConsole({ check: false }).catch((e: unknown) =>
      say(`console not built (the gateway answers 503 at /console): ${(e as Error).message}`),
    );
    const healthPortBase = env['HEALTH_PORT_BASE'] ? Number(env['HEALTH_PORT_BASE']) : undefined;
    const indexerStatus = `http://127.0.0.1:${healthPortBase === undefined ? DEFAULT_HEALTH_PORTS.indexer : healthPortBase + 2}/status`;
    const rpcUrls = Object.fromEntries(settings.networks.map((n) => [n, env[rpcVar(n)]!]));
    const platformEnv: PlatformEnv = {
      ...urls,
      natsUrl: infra.natsUrl,
      redisUrl: infra.redisUrl,
      natsPasswords: infra.natsPasswords,
      rpcUrls,
      gatewayPort,
      healthPortBase,
      logLevel: env['LOG_LEVEL'] ?? 'info',
      extraEnv: { ...settings.extraEnv, INDEXER_STATUS_URL: indexerStatus },
    };
    say(
      `networks: ${settings.networks
        .map(
          (n) =>
            `${n} (${env[rpcVar(n)]!.split(',')
              .map((u) => redactUrl(u.trim()))
              .join(', ')}; ${scopeOf(n, platformEnv.extraEnv!)})`,
        )
        .join('; ')}`,
    );
    run.startApps(platformEnv);
    const base = `http://127.0.0.1:${gatewayPort}`;
    await waitForGateway(base, 120_000);
    const routers = settings.networks.filter((n) => env[`ROUTER_ADDRESS_${n.toUpperCase()}`]);
    process.stdout.write(
      [
        '',
        `Platform ready against real networks (address book: ${platformEnv.extraEnv!['REGISTRY']}).`,
        `  Gateway: ${base}   (API docs: ${base}/docs; console: ${base}/console)`,
        `  Paid development key (kept in ${join(STATE_DIR, 'dev-key.json')}): ${key.key}`,
        `    curl -H "Authorization: Bearer ${key.key}" '${base}/v2/tokens?networks=${settings.networks[0]}&sortBy=liquidity&sortDirection=desc&limit=5'`,
        `  Orders: ${routers.length ? `Router configured on ${routers.join(', ')}` : 'no ROUTER_ADDRESS_<NETWORK> set: data only, quotes are refused'} (README, "Run against real networks")`,
        'Ctrl-C stops everything.',
        '',
      ].join('\n'),
    );
    void followIndexing(indexerStatusReader(indexerStatus), say, { stopped: run.stopping });
  } catch (e) {
    process.stderr.write(`npm run start:real failed: ${(e as Error).message}\n`);
    await run.shutdown(1);
  }
}

function scopeOf(n: Network, extra: Record<string, string>): string {
  const suffix = n.toUpperCase();
  return extra[`START_BLOCK_${suffix}`]
    ? `from block ${extra[`START_BLOCK_${suffix}`]}`
    : `the last ${extra[`START_DAYS_${suffix}`]} day(s)`;
}

if (require.main === module) void main();
