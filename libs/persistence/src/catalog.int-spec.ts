import { CatalogRepository, createDataSource, dropDatabase, migrate, MIGRATIONS } from './index';
import { createTestDatabaseUrl } from '@tokensvc/testing';

describe('persistence: migrations and catalog', () => {
  const url = createTestDatabaseUrl('catalog');
  afterAll(() => dropDatabase(url));

  it('applies every migration, reverts each down() to an empty schema and applies them again', async () => {
    const names = MIGRATIONS.map((m) => m.name);
    expect(await migrate(url)).toEqual(names);
    expect(await migrate(url)).toEqual([]);
    const ds = createDataSource({ url, poolSize: 1 });
    await ds.initialize();
    for (let i = 0; i < names.length; i++) await ds.undoLastMigration();
    const tables: Array<{ table_name: string }> = await ds.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> 'schema_migrations'`,
    );
    expect(tables).toEqual([]);
    await ds.destroy();
    expect(await migrate(url)).toEqual(names);
  });

  it('syncs the catalogue and filters platforms by family or category', async () => {
    const ds = createDataSource({ url, poolSize: 2 });
    await ds.initialize();
    const repo = new CatalogRepository(ds);
    await repo.syncCatalog(
      [
        { network: 'ethereum', chainId: 1, name: 'Ethereum' },
        { network: 'base', chainId: 8453, name: 'Base' },
      ],
      [
        {
          network: 'ethereum',
          platform: 'uniswap-v2',
          name: 'Uniswap V2',
          image: 'i',
          family: 'uniswap-v2',
          category: 'dex',
          addresses: { factory: '0x01' },
        },
        { network: 'base', platform: 'basic', name: 'Basic', image: 'i', family: 'basic', category: 'basic', addresses: {} },
      ],
    );
    expect((await repo.enabledNetworks()).map((n) => n.network)).toEqual(['ethereum', 'base']);
    expect((await repo.enabledPlatforms('dex')).map((p) => p.platform)).toEqual(['uniswap-v2']);
    expect((await repo.enabledPlatforms('uniswap-v2')).map((p) => p.platform)).toEqual(['uniswap-v2']);
    // Disabling a network hides its platforms.
    await repo.syncCatalog(
      [{ network: 'base', chainId: 8453, name: 'Base' }],
      [{ network: 'base', platform: 'basic', name: 'Basic', image: 'i', family: 'basic', category: 'basic', addresses: {} }],
    );
    expect((await repo.enabledNetworks()).map((n) => n.network)).toEqual(['base']);
    expect((await repo.enabledPlatforms()).map((p) => p.network)).toEqual(['base']);
    await ds.destroy();
  });
});
