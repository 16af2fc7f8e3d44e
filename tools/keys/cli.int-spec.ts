import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Pool } from 'pg';
import { ApiKeysRepository, dropDatabase, migrate } from '@tokensvc/persistence';
import { createTestDatabaseUrl } from '@tokensvc/testing';

jest.setTimeout(60_000); // real services; Jest ignores the project-level testTimeout (default 5 s)

const ROOT = join(__dirname, '..', '..');

/** `npm run keys` as a process against a real database: create, list, rotate, revoke, usage. */
describe('keys CLI', () => {
  const url = createTestDatabaseUrl('keys_cli');
  const keys = (...args: string[]): { code: number | null; out: string; err: string } => {
    const r = spawnSync(process.execPath, ['-r', join(ROOT, 'tools', 'register.js'), join(ROOT, 'tools', 'keys', 'cli.ts'), ...args], {
      cwd: ROOT,
      env: { PATH: process.env['PATH'], DATABASE_URL: url },
      encoding: 'utf8',
    });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };

  beforeAll(() => migrate(url));
  afterAll(() => dropDatabase(url));

  it('creates, lists, rotates and revokes keys', async () => {
    const created = keys('create', '--tier', 'paid', '--label', 'acme');
    expect(created.code).toBe(0);
    const key = /key:\s+(tsk_live_\w{32})/.exec(created.out)![1]!;
    const id = /id:\s+([0-9a-f-]{36})/.exec(created.out)![1]!;

    const listed = keys('list');
    expect(listed.out).toContain(id);
    expect(listed.out).toContain(key.slice(0, 15));
    expect(listed.out).not.toContain(key);

    const rotated = keys('rotate', key.slice(0, 15));
    expect(rotated.code).toBe(0);
    expect(rotated.out).toContain(`replaces: ${id}`);
    const next = /key:\s+(tsk_live_\w{32})/.exec(rotated.out)![1]!;

    const pool = new Pool({ connectionString: url, max: 1 });
    try {
      const repo = new ApiKeysRepository(pool);
      expect((await repo.resolve(id)).revokedAt).not.toBeNull();
      const nextId = /id:\s+([0-9a-f-]{36})/.exec(rotated.out)![1]!;
      expect(keys('revoke', nextId).out).toMatch(/revoked \d{4}-/);
      expect((await repo.resolve(nextId)).revokedAt).not.toBeNull();
      expect(next).not.toBe(key);
      await repo.recordUsage([{ keyId: nextId, day: new Date().toISOString().slice(0, 10), calls: 42 }]);
      expect(keys('usage', nextId).out).toContain(' 42');
    } finally {
      await pool.end();
    }
    expect(keys('list').out).toMatch(/^0 keys$/m);
    expect(keys('list', '--all').out).toMatch(/^2 keys$/m);
  });

  it('explains what is wrong, with exit code 1', () => {
    const bad = keys('create', '--tier', 'gold');
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('invalid tier "gold": must be one of free, paid, enterprise; missing required query parameter label');
    expect(keys('revoke', 'tsk_live_nope00').err).toContain('no API key with prefix "tsk_live_nope00"');
    expect(keys('frobnicate').err).toContain('unknown command "frobnicate"');
  });
});
