/**
 * npm run db:doc: writes libs/persistence/TABLES.md (tools/persistence/tables.ts) from a scratch
 * database migrated from nothing on DATABASE_URL's server (default the local one), dropped after.
 */
import { writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { relative } from 'node:path';
import { Client } from 'pg';
import { dropDatabase, migrate } from '@tokensvc/persistence';
import { TABLES_DOC, tableDocs, tablesMarkdown } from './tables';

async function main(): Promise<void> {
  const server = new URL(process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/tokensvc');
  server.pathname = `/tokensvc_tables_doc_${randomBytes(4).toString('hex')}`;
  const url = server.toString();
  await migrate(url);
  const c = new Client({ connectionString: url });
  try {
    await c.connect();
    const docs = await tableDocs(c);
    writeFileSync(TABLES_DOC, tablesMarkdown(docs));
    process.stdout.write(`wrote ${relative(process.cwd(), TABLES_DOC)} (${docs.length} tables)\n`);
  } finally {
    await c.end();
    await dropDatabase(url);
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).message}\n`);
  process.exit(1);
});
