import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { dropDatabase, migrate } from '@tokensvc/persistence';
import { createTestDatabaseUrl } from '@tokensvc/testing';
import { TABLE_PURPOSES, TABLES_DOC, tableDocs, tablesMarkdown, type TableDoc } from './tables';

/** libs/persistence/TABLES.md says what the migrations create and what the code does with it. */
describe('libs/persistence/TABLES.md', () => {
  const url = createTestDatabaseUrl('tables_doc');
  let c: Client;
  let docs: TableDoc[];

  beforeAll(async () => {
    await migrate(url);
    c = new Client({ connectionString: url });
    await c.connect();
    docs = await tableDocs(c);
  });

  afterAll(async () => {
    await c?.end();
    await dropDatabase(url);
  });

  it('is what the migrations and the sources give now (else npm run db:doc)', () => {
    expect(readFileSync(TABLES_DOC, 'utf8')).toBe(tablesMarkdown(docs));
  });

  it('documents every table, each with a purpose, its columns and who writes it', () => {
    expect(docs.map((d) => d.name).sort()).toEqual(Object.keys(TABLE_PURPOSES).sort());
    for (const d of docs) {
      expect(d.columns.length).toBeGreaterThan(0);
      // schema_migrations is TypeORM's own; every other table has a writer in the sources
      if (d.name !== 'schema_migrations')
        expect({ table: d.name, writers: d.writers }).toEqual({
          table: d.name,
          writers: expect.arrayContaining([expect.stringMatching(/^(apps|libs)\//)]),
        });
    }
  });

  it('names the writers the code has: the indexer writes pools, the quote service relay_submissions, the tracker status_events', () => {
    const writers = (t: string): string[] => docs.find((d) => d.name === t)!.writers;
    expect(writers('pools')).toEqual(['apps/indexer']);
    expect(writers('relay_submissions')).toEqual(['apps/quote']);
    expect(writers('status_events')).toEqual(['apps/status-tracker']);
    expect(docs.find((d) => d.name === 'pools')!.readers).toEqual(expect.arrayContaining(['apps/indexer', 'apps/quote']));
  });
});
