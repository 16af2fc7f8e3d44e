import { ChainProviders } from '@tokensvc/chain';
import { loadServiceConfig } from '@tokensvc/config';
import { CatalogRepository, createDataSource, dropDatabase, migrate } from '@tokensvc/persistence';
import { createTestDatabaseUrl, testDevnet } from '@tokensvc/testing';
import { SyncCatalogUseCase } from './sync-catalog.usecase';

/**
 * REGISTRY=shipped, no devnet manifest: the indexer's catalogue (what /v2/platforms serves) holds
 * the real deployments from the registry. The devnet's chains stand in for the RPCs only to pass
 * the chain-id check (they answer ethereum's and base's chain ids).
 */
describe('indexer catalogue from the shipped registry', () => {
  const url = createTestDatabaseUrl('registry_catalog');
  afterAll(() => dropDatabase(url));

  it('writes the registry platforms of the enabled networks with their real addresses', async () => {
    await migrate(url);
    const { rpcUrls } = testDevnet();
    const config = loadServiceConfig('indexer', {
      DATABASE_URL: url,
      NETWORKS: 'ethereum,base',
      RPC_URL_ETHEREUM: rpcUrls.ethereum,
      RPC_URL_BASE: rpcUrls.base,
      REGISTRY: 'shipped',
    });
    const chains = new ChainProviders(config.networks);
    const ds = createDataSource({ url, poolSize: 2 });
    await ds.initialize();
    try {
      await new SyncCatalogUseCase(config, chains, ds).execute();
      const repo = new CatalogRepository(ds);
      const rows = await repo.enabledPlatforms();
      expect(rows.map((p) => `${p.network}/${p.platform}`).sort()).toEqual(
        ['aave-v3', 'aave-v3-static', 'basic', 'erc4626-vaults', 'native', 'sushiswap', 'uniswap-v2', 'uniswap-v3', 'uniswap-v4']
          .map((s) => `ethereum/${s}`)
          .concat(
            ['aave-v3', 'aave-v3-static', 'basic', 'native', 'sushiswap', 'uniswap-v2', 'uniswap-v3', 'uniswap-v4'].map((s) => `base/${s}`),
          )
          .sort(),
      );
      const lending = await repo.enabledPlatforms('lending');
      expect(lending.map((p) => [p.network, p.addresses['pool']])).toEqual([
        ['base', '0xa238dd80c259a72e81d7e4664a9801593f98d1c5'],
        ['ethereum', '0x87870bca3f3fd6335c3f4ce8392d69350b4fa4e2'],
      ]);
      const v3 = rows.find((p) => p.network === 'ethereum' && p.platform === 'uniswap-v3');
      expect(v3?.addresses).toMatchObject({
        factory: '0x1f98431c8ad98523631ae4a59f267346ea31f984',
        positionManager: '0xc36442b4a4522e871399cd717abdd847ab11fe88',
      });
    } finally {
      await ds.destroy();
      await chains.onApplicationShutdown();
    }
  });
});
