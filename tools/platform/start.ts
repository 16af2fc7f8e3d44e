/**
 * `npm start`: the whole platform on one machine. Devnets (saved state or deploy + seed),
 * Postgres/Redis/NATS (started locally when not reachable, and a NATS with users and a Redis with a
 * password beside ones that serve clients without credentials: infra.ts), migrations, the five apps and Across's
 * devnet relayer and data worker (libs/devnet/src/across; ACROSS_RELAYER_MODE=offline|slow|partial-inventory
 * for failure tests).
 * Prints the gateway URL, each devnet RPC URL and the funded test accounts. The gateway lets browser
 * apps on local origins call it (CORS_ORIGINS=local unless CORS_ORIGINS is set). Ctrl-C stops
 * everything it started.
 */
import { join, resolve as resolvePath } from 'node:path';
import { DEFAULT_HEALTH_PORTS } from '@tokensvc/config';
import { isNetwork, type Network } from '@tokensvc/domain';
import { DEFAULT_NETWORKS, startDevnet, TEST_ACCOUNTS, type DevnetHandle } from '@tokensvc/devnet';
import { migrate } from '@tokensvc/persistence';
import { devPlatformCors, startAcrossRelayerProcess, type AcrossRelayerStarted, type PlatformEnv } from '@tokensvc/testing';
import { buildConsole } from '../console/build';
import { devKey as ensureDevKey, type DevKey } from './dev-key';
import { followIndexing, indexerStatusReader } from './indexing-progress';
import { ensureInfra, type StartedInfra } from './infra';
import { platformRunner, waitForGateway } from './platform-runner';

const ROOT = join(__dirname, '..', '..');
// DEVNET_STATE_DIR: another folder for the devnet build, its kept chains and the dev key (a test
// runs its own platform beside a developer's without touching their chains).
const STATE_DIR = process.env['DEVNET_STATE_DIR'] ? resolvePath(process.env['DEVNET_STATE_DIR']) : join(ROOT, '.devnet');
const t0 = Date.now();
const elapsed = (): string => `${((Date.now() - t0) / 1000).toFixed(1)}s`;
const say = (s: string): void => void process.stdout.write(`[start ${elapsed()}] ${s}\n`);

async function main(): Promise<void> {
  const env = process.env;
  const urls = {
    databaseUrl: env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/tokensvc',
    redisUrl: env['REDIS_URL'] ?? 'redis://127.0.0.1:6379',
    natsUrl: env['NATS_URL'] ?? 'nats://127.0.0.1:4222',
  };
  const gatewayPort = Number(env['PORT'] ?? 3000);
  const verbose = env['LOG_LEVEL'] === 'debug' || process.argv.includes('--verbose');

  let infra: StartedInfra | undefined;
  let devnet: DevnetHandle | undefined;
  const run = platformRunner(say, verbose, async () => {
    await devnet?.stop();
    await infra?.stop();
  });

  try {
    const networks = devnetNetworks(env['NETWORKS']);
    infra = await ensureInfra(urls, STATE_DIR, say);
    say(infra.bus);
    // The chain is kept across a stop and a start (dumped on exit into .devnet/live/), so it stays
    // together with the database indexed from it; `npm run devnet -- reset` forgets both.
    devnet = await startDevnet({
      networks,
      basePort: Number(env['DEVNET_BASE_PORT'] ?? 8545),
      stateDir: STATE_DIR,
      keepState: true,
      log: (l) => say(`devnet: ${l}`),
    });
    const applied = await migrate(urls.databaseUrl);
    say(applied.length ? `migrations applied: ${applied.join(', ')}` : 'database schema up to date');
    const devKey = await ensureDevKey(urls.databaseUrl, STATE_DIR);

    // The console (served by the gateway at /console) from its sources: esbuild only, about a second.
    await buildConsole({ check: false }).then(
      (b) => say(`console built into ${b.dir} in ${b.ms} ms`),
      (e: unknown) => say(`console not built (the gateway answers 503 at /console): ${(e as Error).message}`),
    );
    const healthPortBase = env['HEALTH_PORT_BASE'] ? Number(env['HEALTH_PORT_BASE']) : undefined;
    const indexerHealthPort = healthPortBase === undefined ? DEFAULT_HEALTH_PORTS.indexer : healthPortBase + 2;
    const cors = devPlatformCors(env);
    const platformEnv: PlatformEnv = {
      ...urls,
      natsUrl: infra.natsUrl,
      redisUrl: infra.redisUrl,
      natsPasswords: infra.natsPasswords,
      rpcUrls: devnet.rpcUrls,
      manifestPath: join(STATE_DIR, 'deployment.json'),
      gatewayPort,
      healthPortBase,
      logLevel: env['LOG_LEVEL'] ?? 'info',
      // the console's indexing page reads the indexer's progress through the gateway
      extraEnv: { INDEXER_STATUS_URL: `http://127.0.0.1:${indexerHealthPort}/status`, ...cors.env },
    };
    // Across's devnet relayer and data worker: fills cross-chain deposits, refunds expired ones every
    // 10 s. Started (and funded) before the apps: its funding may mine blocks, and the first block
    // after a loaded chain state takes that state's block away from anyone still reading it.
    const relayer = startAcrossRelayerProcess(
      platformEnv,
      { mode: env['ACROSS_RELAYER_MODE'] ?? 'normal', bundleEverySeconds: 10, fund: true },
      (line) => run.print('across-relayer', line),
    );
    run.watch('across-relayer', relayer);
    const relayerStart = await relayer.started;
    run.startApps(platformEnv);
    const base = `http://127.0.0.1:${gatewayPort}`;
    await waitForGateway(base);
    printSummary(base, devnet, devKey, relayerStart, cors.summary);
    // The indexer's progress (its health port's /status) every few seconds until every network
    // is caught up, then one line saying so.
    void followIndexing(indexerStatusReader(`http://127.0.0.1:${indexerHealthPort}/status`), say, { stopped: run.stopping });
  } catch (e) {
    process.stderr.write(`npm start failed: ${(e as Error).message}\n`);
    await run.shutdown(1);
  }
}

/** The devnet chains to run: NETWORKS (comma-separated) when set, else every devnet network. */
function devnetNetworks(list: string | undefined): Network[] {
  if (!list?.trim()) return [...DEFAULT_NETWORKS];
  const names = list
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !isNetwork(n) || !DEFAULT_NETWORKS.includes(n));
  if (unknown.length) throw new Error(`NETWORKS names ${unknown.join(', ')}; the devnet runs ${DEFAULT_NETWORKS.join(', ')}`);
  return names as Network[];
}

function printSummary(base: string, devnet: DevnetHandle, devKey: DevKey, relayer: AcrossRelayerStarted, cors: string): void {
  const auth = `-H "Authorization: Bearer ${devKey.key}"`;
  const lines = [
    '',
    `Platform ready in ${elapsed()}.`,
    `  Gateway:  ${base}   (API docs: ${base}/docs; console: ${base}/console, key management on the admin listener's /console when ADMIN_TOKEN is set)`,
    `  Paid development key (${devKey.reused ? 'kept' : 'new, kept'} in ${join(STATE_DIR, 'dev-key.json')}; valid until ${devKey.expiresAt.toISOString().slice(0, 10)}): ${devKey.key}`,
    `    curl ${auth} ${base}/v1/networks`,
    `    curl ${auth} '${base}/v2/tokens?networks=ethereum&sortBy=liquidity&sortDirection=desc&limit=5'`,
    '    more keys: npm run keys -- create --tier free|paid|enterprise --label <owner>',
    `  ${cors}`,
    '  Devnet RPC URLs:',
    ...devnet.chains.map((c) => `    ${c.network.padEnd(9)} chain id ${String(c.chainId).padEnd(6)} ${c.rpcUrl}`),
    `  Across relayer (devnet): running as ${relayer.address} on ${relayer.networks.join(', ')}, ${
      relayer.mode === 'normal'
        ? 'filling cross-chain deposits'
        : `in failure mode ${relayer.mode} (ACROSS_RELAYER_MODE; see libs/devnet/README.md)`
    }; its data worker refunds expired deposits every ${relayer.bundleEverySeconds ?? 10} s`,
    '  Funded test accounts (anvil dev accounts 5-9; never used by the simulator):',
    ...TEST_ACCOUNTS.map((a) => `    ${a.address}  private key ${a.privateKey}`),
    'Ctrl-C stops everything.',
    '',
  ];
  process.stdout.write(lines.join('\n'));
}

void main();
