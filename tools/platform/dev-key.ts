/**
 * The paid API key `npm start` prints. It is kept with the devnet state (`.devnet/dev-key.json`,
 * readable by its owner only) and reused on the next run while the database still knows it, it is
 * not revoked and it has more than a day left: one development key, not a new 7-day paid key per run.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from 'pg';
import { hashApiKey } from '@tokensvc/api';
import { ApiKeysRepository } from '@tokensvc/persistence';

export const DEV_KEY_FILE = 'dev-key.json';
const VALID_DAYS = 7;
/** a key with less than this left is replaced (a run may last a day) */
const MIN_LEFT_MS = 86_400_000;

export interface DevKey {
  key: string;
  expiresAt: Date;
  /** false: issued by this run */
  reused: boolean;
}

export async function devKey(databaseUrl: string, stateDir: string, now = new Date()): Promise<DevKey> {
  const file = join(stateDir, DEV_KEY_FILE);
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  try {
    const repo = new ApiKeysRepository(pool);
    const saved = readSaved(file);
    if (saved) {
      const record = await repo.findByHash(hashApiKey(saved));
      if (
        record &&
        record.tier === 'paid' &&
        !record.revokedAt &&
        record.expiresAt &&
        record.expiresAt.getTime() - now.getTime() > MIN_LEFT_MS
      ) {
        return { key: saved, expiresAt: record.expiresAt, reused: true };
      }
    }
    const issued = await repo.issue({
      tier: 'paid',
      label: 'npm start (development)',
      expiresAt: new Date(now.getTime() + VALID_DAYS * 86_400_000),
      rateLimitPerMinute: null,
    });
    writeFileSync(file, `${JSON.stringify({ key: issued.key })}\n`, { mode: 0o600 });
    return { key: issued.key, expiresAt: issued.record.expiresAt!, reused: false };
  } finally {
    await pool.end();
  }
}

function readSaved(file: string): string | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const key = (JSON.parse(readFileSync(file, 'utf8')) as { key?: unknown }).key;
    return typeof key === 'string' ? key : undefined;
  } catch {
    return undefined; // a damaged file: issue a new key
  }
}
