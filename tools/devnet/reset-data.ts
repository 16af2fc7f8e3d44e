/**
 * `npm run devnet -- reset` forgets the chains, so the data indexed from them (and every order,
 * status and key stored next to it) describes blocks that no longer exist: it goes too. The
 * database is the one `npm start` uses (DATABASE_URL, default the local `tokensvc`).
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { dropDatabase } from '@tokensvc/persistence';
import { tcpReachableUrl } from '@tokensvc/testing';

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/tokensvc';

/** Something listens on the devnet's first port: `npm start` (or `devnet up`) is running. */
export async function devnetRunning(basePort: number): Promise<boolean> {
  return tcpReachableUrl(`http://127.0.0.1:${basePort}`);
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
  if (await tcpReachableUrl(databaseUrl)) {
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
