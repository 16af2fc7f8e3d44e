import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'pg';
import { hashApiKey } from '@tokensvc/api';
import { ApiKeysRepository, dropDatabase, migrate } from '@tokensvc/persistence';
import { createTestDatabaseUrl } from '@tokensvc/testing';
import { DEV_KEY_FILE, devKey } from './dev-key';

jest.setTimeout(60_000);

/** `npm start`'s development key: kept with the devnet state and reused, replaced only when it no longer works. */
describe('npm start development key', () => {
  const url = createTestDatabaseUrl('dev_key');
  const dir = mkdtempSync(join(tmpdir(), 'dev-key-'));
  let pool: Pool;
  beforeAll(async () => {
    await migrate(url);
    pool = new Pool({ connectionString: url, max: 1 });
  });
  afterAll(async () => {
    await pool?.end();
    await dropDatabase(url);
    rmSync(dir, { recursive: true, force: true });
  });
  const count = async (): Promise<number> => Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM api_keys')).rows[0]!.n);

  it('reuses the saved key across runs instead of issuing a new one each time', async () => {
    const first = await devKey(url, dir);
    expect(first.reused).toBe(false);
    expect(statSync(join(dir, DEV_KEY_FILE)).mode & 0o077).toBe(0);
    const second = await devKey(url, dir);
    expect(second).toEqual({ key: first.key, expiresAt: first.expiresAt, reused: true });
    expect(await count()).toBe(1);
  });

  it('issues a new key when the saved one is revoked or about to expire', async () => {
    const current = await devKey(url, dir);
    const repo = new ApiKeysRepository(pool);
    await repo.revoke((await repo.findByHash(hashApiKey(current.key)))!.id);
    const replaced = await devKey(url, dir);
    expect(replaced.reused).toBe(false);
    expect(replaced.key).not.toBe(current.key);
    // six and a half days later the key has less than a day left
    const later = await devKey(url, dir, new Date(Date.now() + 6.5 * 86_400_000));
    expect(later.reused).toBe(false);
    expect(later.key).not.toBe(replaced.key);
  });
});
