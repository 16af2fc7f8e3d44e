import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { DEFAULT_HEALTH_PORTS, rpcVar } from '@tokensvc/config';
import { relayerKeyEnv } from '@tokensvc/devnet';
import type { Network } from '@tokensvc/domain';

export const APPS = ['indexer', 'token-data', 'quote', 'status-tracker', 'gateway'] as const;
export type AppName = (typeof APPS)[number];

const ROOT = join(__dirname, '..', '..', '..');

export interface PlatformEnv {
  databaseUrl: string;
  natsUrl: string;
  redisUrl: string;
  rpcUrls: Partial<Record<Network, string>>;
  manifestPath?: string;
  gatewayPort: number;
  /** health ports are basePort+1..+4 when given; defaults 3101..3104 */
  healthPortBase?: number;
  natsRequestTimeoutMs?: number;
  logLevel?: string;
  /** per app: its NATS password, the user being the app's name (a bus with permissions: PrivateNatsServer auth, npm start) */
  natsPasswords?: Partial<Record<string, string>>;
  /** more variables for every app, applied last: private queue prefixes, streams, tracker rhythm */
  extraEnv?: Record<string, string>;
}

export interface AppProcess {
  name: AppName;
  child: ChildProcess;
  /** resolves with the exit code once the process has exited */
  exited: Promise<number | null>;
}

export function appEnv(app: AppName, env: PlatformEnv): NodeJS.ProcessEnv {
  const networks = Object.keys(env.rpcUrls) as Network[];
  const out: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'],
    HOME: process.env['HOME'],
    NODE_ENV: 'production',
    DATABASE_URL: env.databaseUrl,
    NATS_URL: env.natsUrl,
    REDIS_URL: env.redisUrl,
    NETWORKS: networks.join(','),
    LOG_LEVEL: env.logLevel ?? 'info',
    PORT: String(env.gatewayPort),
    HOST: '127.0.0.1',
    NATS_REQUEST_TIMEOUT_MS: String(env.natsRequestTimeoutMs ?? 5000),
  };
  for (const n of networks) out[rpcVar(n)] = env.rpcUrls[n];
  if (env.manifestPath) {
    out['DEVNET_MANIFEST'] = env.manifestPath;
    // a devnet: the quote's gas wallets are the manifest's relayer accounts, handed over as its variables
    if (app === 'quote') Object.assign(out, relayerKeyEnv(env.manifestPath));
  }
  Object.assign(out, natsCredentialsEnv(app, env));
  if (app !== 'gateway') {
    const base = env.healthPortBase;
    out['HEALTH_PORT'] = String(
      base === undefined ? DEFAULT_HEALTH_PORTS[app] : base + 1 + ['token-data', 'indexer', 'quote', 'status-tracker'].indexOf(app),
    );
  }
  return { ...out, ...env.extraEnv };
}

/** NATS_USER / NATS_PASSWORD of one bus user, when the platform's bus has users. */
export function natsCredentialsEnv(user: string, env: Pick<PlatformEnv, 'natsPasswords'>): Record<string, string> {
  const password = env.natsPasswords?.[user];
  return password === undefined ? {} : { NATS_USER: user, NATS_PASSWORD: password };
}

/** Every line a child process writes, on stdout or stderr, to `onLine` (node's readline splits them). */
export function eachLine(child: ChildProcess, onLine: (line: string) => void): void {
  for (const stream of [child.stdout, child.stderr]) if (stream) createInterface({ input: stream, crlfDelay: Infinity }).on('line', onLine);
}

/** Starts one app from its TypeScript sources; its output lines go to `onLine`. */
export function startApp(app: AppName, env: PlatformEnv, onLine: (app: AppName, line: string) => void): AppProcess {
  const child = spawn(process.execPath, ['-r', join(ROOT, 'tools', 'register.js'), join(ROOT, 'apps', app, 'src', 'main.ts')], {
    cwd: ROOT,
    env: appEnv(app, env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  eachLine(child, (line) => onLine(app, line));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { name: app, child, exited };
}

/** SIGTERM, then SIGKILL after `graceMs`; by PID, only for processes this code started. */
export async function stopProcess(p: { child: ChildProcess; exited: Promise<number | null> }, graceMs = 8000): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  p.child.kill('SIGTERM');
  const timer = setTimeout(() => p.child.kill('SIGKILL'), graceMs);
  await p.exited;
  clearTimeout(timer);
}

export async function waitForHttp(
  url: string,
  timeoutMs: number,
  ok: (status: number, body: string) => boolean = (s) => s === 200,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      const body = await res.text();
      if (ok(res.status, body)) return;
      last = `${res.status} ${body.slice(0, 200)}`;
    } catch (e) {
      last = (e as Error).message;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms (last: ${last})`);
}

/**
 * The app settings that keep a test platform's queues (and, on the shared bus, its JetStream
 * streams) apart from every other test's: BullMQ prefixes always, stream names and subject
 * prefixes when it has no NATS of its own.
 */
export function isolatedQueuesEnv(queuePrefix: string, ownNats: boolean): Record<string, string> {
  const env: Record<string, string> = { TRACKER_QUEUE_PREFIX: queuePrefix, RELAY_QUEUE_PREFIX: queuePrefix };
  if (!ownNats) {
    Object.assign(env, {
      INDEXER_EVENTS_STREAM: `${queuePrefix}_CHAIN`,
      INDEXER_EVENTS_PREFIX: `${queuePrefix}-chain`,
      QUOTE_EVENTS_STREAM: `${queuePrefix}_CHAIN`,
      QUOTE_EVENTS_PREFIX: `${queuePrefix}-chain`,
      STATUS_EVENTS_STREAM: `${queuePrefix}_STATUS`,
      STATUS_EVENTS_PREFIX: `${queuePrefix}-status`,
    });
  }
  return env;
}
