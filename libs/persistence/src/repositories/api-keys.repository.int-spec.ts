import { Pool } from 'pg';
import { hashApiKey } from '@tokensvc/api';
import { createTestDatabaseUrl } from '@tokensvc/testing';
import { createDataSource, dropDatabase, migrate } from '../data-source';
import { ApiKeys1763942400000 } from '../migrations/1763942400000-api-keys';
import { ApiKeyNotFoundError, ApiKeysRepository } from './api-keys.repository';

jest.setTimeout(60_000); // real services; Jest ignores the project-level testTimeout (default 5 s)

describe('ApiKeysRepository (real Postgres)', () => {
  const url = createTestDatabaseUrl('api_keys');
  let pool: Pool;
  let repo: ApiKeysRepository;

  beforeAll(async () => {
    await migrate(url);
    pool = new Pool({ connectionString: url, max: 3 });
    repo = new ApiKeysRepository(pool);
  });

  afterAll(async () => {
    await pool?.end();
    await dropDatabase(url);
  });

  it('stores only the hash and the display prefix of a key', async () => {
    const { key, record } = await repo.issue({ tier: 'paid', label: 'acme' });
    const { rows } = await pool.query(`SELECT row_to_json(k)::text AS j FROM api_keys k WHERE id = $1`, [record.id]);
    expect(rows[0].j).not.toContain(key);
    expect(rows[0].j).toContain(hashApiKey(key));
    expect(await repo.findByHash(hashApiKey(key))).toEqual(record);
  });

  it('resolves by id or prefix and refuses an unknown or ambiguous prefix', async () => {
    const { record } = await repo.issue({ tier: 'free', label: 'a' });
    expect((await repo.resolve(record.id)).id).toBe(record.id);
    expect((await repo.resolve(record.displayPrefix)).id).toBe(record.id);
    await expect(repo.resolve('tsk_live_nope00')).rejects.toThrow(ApiKeyNotFoundError);
    await pool.query(
      `UPDATE api_keys SET display_prefix = 'tsk_live_dup000' WHERE id IN (SELECT id FROM api_keys ORDER BY created_at LIMIT 2)`,
    );
    await expect(repo.resolve('tsk_live_dup000')).rejects.toThrow(/matches several keys/);
  });

  it('rotates with and without a grace period, and refuses to rotate a revoked key', async () => {
    const { record } = await repo.issue({ tier: 'enterprise', label: 'big', rateLimitPerMinute: 2500 });
    const next = await repo.rotate(record.id);
    expect(next.record).toMatchObject({ tier: 'enterprise', label: 'big', rateLimitPerMinute: 2500, rotatedFrom: record.id });
    expect((await repo.resolve(record.id)).revokedAt).not.toBeNull();
    await expect(repo.rotate(record.id)).rejects.toThrow(/is revoked/);
    await repo.rotate(next.record.id, 60);
    const old = await repo.resolve(next.record.id);
    expect(old.revokedAt).toBeNull();
    expect(old.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 50_000);
    expect(old.expiresAt!.getTime()).toBeLessThan(Date.now() + 70_000);
  });

  it('adds usage per key and day in one statement, including repeated rows of a batch', async () => {
    const { record } = await repo.issue({ tier: 'free', label: 'u' });
    await repo.recordUsage([
      { keyId: record.id, day: '2025-01-01', calls: 5 },
      { keyId: record.id, day: '2025-01-01', calls: 2 },
      { keyId: record.id, day: '2025-01-02', calls: 1 },
      // a key deleted meanwhile is skipped, not an error
      { keyId: '00000000-0000-0000-0000-000000000000', day: '2025-01-01', calls: 9 },
    ]);
    await repo.recordUsage([{ keyId: record.id, day: '2025-01-02', calls: 10 }]);
    expect(await repo.usage(record.id, '2025-01-01')).toEqual([
      { day: '2025-01-01', calls: 7 },
      { day: '2025-01-02', calls: 11 },
    ]);
    expect((await repo.resolve(record.id)).lastUsedAt).not.toBeNull();
  });

  it('enforces the tier and custom-rate rules in the schema too', async () => {
    await expect(
      pool.query(`INSERT INTO api_keys (key_hash, display_prefix, tier, label) VALUES (repeat('a', 64), 'p', 'gold', 'x')`),
    ).rejects.toThrow(/check/);
    await expect(repo.issue({ tier: 'free', label: 'x', rateLimitPerMinute: 10 })).rejects.toThrow(/check/);
    await expect(repo.issue({ tier: 'enterprise', label: 'x', rateLimitPerMinute: 3001 })).rejects.toThrow(/check/);
  });

  it('migrates down and up again', async () => {
    // The migration's own down/up (not "the last migration": later ones may follow it).
    const ds = createDataSource({ url, poolSize: 1 });
    await ds.initialize();
    const runner = ds.createQueryRunner();
    const count = async (): Promise<number> =>
      (await runner.query(`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name IN ('api_keys', 'api_key_usage')`))[0]
        .n;
    try {
      await new ApiKeys1763942400000().down(runner);
      expect(await count()).toBe(0);
      await new ApiKeys1763942400000().up(runner);
      expect(await count()).toBe(2);
    } finally {
      await runner.release();
      await ds.destroy();
    }
  });
});
