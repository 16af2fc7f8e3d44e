import { mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { migrate } from '@tokensvc/persistence';
import { createTestDatabaseUrl, freePort, INFRA } from '@tokensvc/testing';
import { resetIndexedData } from './reset-data';

jest.setTimeout(60_000);

/** `npm run devnet -- reset` also forgets the data indexed from the deleted chains (issue 17). */
describe('npm run devnet -- reset: the indexed data', () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'tokensvc-reset-'));
  afterAll(() => rmSync(stateDir, { recursive: true, force: true }));

  const exists = async (name: string): Promise<boolean> => {
    const admin = new Client({ connectionString: INFRA.postgres });
    await admin.connect();
    try {
      return (await admin.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [name])).rows.length > 0;
    } finally {
      await admin.end();
    }
  };

  it('drops the database npm start indexes into', async () => {
    const url = createTestDatabaseUrl('devnet_reset');
    await migrate(url);
    const name = new URL(url).pathname.slice(1);
    expect(await exists(name)).toBe(true);
    expect(await resetIndexedData(url, stateDir)).toMatch(/^indexed data deleted: database tokensvc_t_devnet_reset_\w+ dropped/);
    expect(await exists(name)).toBe(false);
  });

  it("deletes the embedded PostgreSQL's data when no server answers, and otherwise says what to run", async () => {
    const down = `postgres://postgres@127.0.0.1:${await freePort()}/tokensvc`;
    expect(await resetIndexedData(down, stateDir)).toMatch(
      /kept: it describes the deleted chains\. Once it is up, run: DATABASE_URL=.* npm run migrate:reset$/,
    );
    mkdirSync(join(stateDir, 'postgres'));
    writeFileSync(join(stateDir, 'postgres', 'PG_VERSION'), '15');
    expect(await resetIndexedData(down, stateDir)).toMatch(/^indexed data deleted: the embedded PostgreSQL data/);
    expect(existsSync(join(stateDir, 'postgres'))).toBe(false);
  });
});
