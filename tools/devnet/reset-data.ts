/**
 * `npm run devnet -- reset` forgets the chains, so the data indexed from them (and every order,
 * status and key stored next to it) describes blocks that no longer exist: it goes too. The
 * database is the one `npm start` uses (DATABASE_URL, default the local `tokensvc`).
 */
import { existsSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { dropDatabase } from '@tokensvc/persistence';

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/tokensvc';

function answers(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = createConnection({ host, port });
    const done = (ok: boolean): void => {
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(timeoutMs, () => done(false));
    sock.once('connect', () => done(true));
    sock.once('error', () => done(false));
  });
}

/** Something listens on the devnet's first port: `npm start` (or `devnet up`) is running. */
export async function devnetRunning(basePort: number): Promise<boolean> {
  return answers('127.0.0.1', basePort);
}

/**
 * Drops the database at `databaseUrl` (the next `npm start` creates and migrates it, and indexes
 * the new chains from their first block). When Postgres is not reachable: the embedded one `npm
 * start` runs keeps its data in `<stateDir>/postgres`, which is deleted; otherwise nothing is
 * done and the message says what to run. Returns what was done, for the user.
 */
export async function resetIndexedData(databaseUrl: string, stateDir: string): Promise<string> {
  const u = new URL(databaseUrl);
  const name = decodeURIComponent(u.pathname.replace(/^\//, ''));
  if (await answers(u.hostname, Number(u.port) || 5432)) {
    await dropDatabase(databaseUrl);
    return `indexed data deleted: database ${name} dropped (with its orders, statuses and API keys); the next npm start creates it and indexes the new chains`;
  }
  const embedded = join(stateDir, 'postgres');
  if (existsSync(embedded)) {
    rmSync(embedded, { recursive: true, force: true });
    return `indexed data deleted: the embedded PostgreSQL data of npm start (${embedded})`;
  }
  return `PostgreSQL is not reachable at ${u.host}, so the indexed data was kept: it describes the deleted chains. Once it is up, run: DATABASE_URL=${databaseUrl} npm run migrate:reset`;
}
