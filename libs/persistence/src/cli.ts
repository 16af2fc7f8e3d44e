/** npm run migrate | migrate:revert | migrate:reset  (DATABASE_URL, default the local tokensvc db) */
import { createDataSource, dropDatabase, migrate } from './data-source';

async function main(): Promise<void> {
  const url = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/tokensvc';
  const cmd = process.argv[2];
  switch (cmd) {
    case 'migrate': {
      const ran = await migrate(url);
      console.log(ran.length ? `applied: ${ran.join(', ')}` : 'schema is up to date');
      return;
    }
    case 'revert': {
      const ds = createDataSource({ url, poolSize: 1 });
      await ds.initialize();
      await ds.undoLastMigration({ transaction: 'each' });
      await ds.destroy();
      console.log('reverted the last migration');
      return;
    }
    case 'reset':
      await dropDatabase(url);
      console.log(`applied: ${(await migrate(url)).join(', ')}`);
      return;
    default:
      throw new Error(`unknown command "${cmd}"; use migrate, revert or reset`);
  }
}

main().catch((e: unknown) => {
  console.error((e as Error).message);
  process.exit(1);
});
