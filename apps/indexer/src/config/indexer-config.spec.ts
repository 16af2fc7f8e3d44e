import { loadIndexerConfig } from './indexer-config';

describe('indexer config: RPC_FALLBACK_URLS_<NETWORK>', () => {
  const env = { NETWORKS: 'ethereum,base', RPC_URL_ETHEREUM: 'http://127.0.0.1:8545', RPC_URL_BASE: 'http://127.0.0.1:8547' };

  it('lists the fallback URLs of each network (none by default)', () => {
    const cfg = loadIndexerConfig({ ...env, RPC_FALLBACK_URLS_ETHEREUM: ' https://a.example/rpc , http://10.0.0.2:8545 ' });
    expect(cfg.indexing.map((n) => [n.network, n.fallbackRpcUrls])).toEqual([
      ['ethereum', ['https://a.example/rpc', 'http://10.0.0.2:8545']],
      ['base', []],
    ]);
  });

  it('refuses a value that is not a list of http(s) URLs, naming the variable', () => {
    expect(() => loadIndexerConfig({ ...env, RPC_FALLBACK_URLS_BASE: 'http://ok.example,ws://nope.example' })).toThrow(
      /RPC_FALLBACK_URLS_BASE must be comma-separated http or https URLs, got "ws:\/\/nope.example"/,
    );
  });
});

describe('indexer config: REGISTRY', () => {
  const env = { NETWORKS: 'ethereum,base', RPC_URL_ETHEREUM: 'http://127.0.0.1:8545', RPC_URL_BASE: 'http://127.0.0.1:8547' };

  it('lists the registry tokens of each enabled network (lowercase), history from START_BLOCK_<NETWORK>', () => {
    const cfg = loadIndexerConfig({ ...env, REGISTRY: 'shipped', START_BLOCK_BASE: '30000000' });
    const base = cfg.indexing.find((n) => n.network === 'base')!;
    expect(base.listedTokens).toEqual(
      expect.arrayContaining(['0x4200000000000000000000000000000000000006', '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913']),
    );
    expect(base.startBlock).toBe(30_000_000);
    expect(cfg.indexing.find((n) => n.network === 'ethereum')!.listedTokens).toContain('0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48');
  });

  it('lists no token without a registry or a manifest', () => {
    expect(loadIndexerConfig(env).indexing.map((n) => n.listedTokens)).toEqual([[], []]);
  });

  it('refuses an unknown registry path and a registry next to a devnet manifest, naming the variables', () => {
    expect(() => loadIndexerConfig({ ...env, REGISTRY: '/nonexistent/registry.json' })).toThrow(
      /REGISTRY must be "shipped" or the path of a registry file; "\/nonexistent\/registry.json" does not exist/,
    );
    expect(() => loadIndexerConfig({ ...env, REGISTRY: 'shipped', DEVNET_MANIFEST: __filename })).toThrow(
      /REGISTRY and DEVNET_MANIFEST are exclusive/,
    );
  });
});

describe('indexer config: INDEXER_POOLS and INDEXER_POOL_FLOOR_<NETWORK>', () => {
  const env = { NETWORKS: 'ethereum,base', RPC_URL_ETHEREUM: 'http://127.0.0.1:8545', RPC_URL_BASE: 'http://127.0.0.1:8547' };

  it('pools among listed tokens by default, no floor; `all` and a decimal floor per network when set', () => {
    expect(loadIndexerConfig(env).indexing.map((n) => [n.pools, n.poolFloorNative])).toEqual([
      ['listed', undefined],
      ['listed', undefined],
    ]);
    const cfg = loadIndexerConfig({ ...env, INDEXER_POOLS: 'all', INDEXER_POOL_FLOOR_BASE: '2.5' });
    expect(cfg.indexing.map((n) => [n.pools, n.poolFloorNative])).toEqual([
      ['all', undefined],
      ['all', '2.5'],
    ]);
  });

  it('refuses other values, naming the variable', () => {
    expect(() => loadIndexerConfig({ ...env, INDEXER_POOLS: 'some' })).toThrow(/INDEXER_POOLS/);
    expect(() => loadIndexerConfig({ ...env, INDEXER_POOL_FLOOR_ETHEREUM: '-1' })).toThrow(
      /INDEXER_POOL_FLOOR_ETHEREUM must be a non-negative decimal amount/,
    );
  });
});

describe('indexer config: the start-block bootstrap', () => {
  const env = {
    NETWORKS: 'ethereum,base',
    RPC_URL_ETHEREUM: 'http://127.0.0.1:8545',
    RPC_URL_BASE: 'http://127.0.0.1:8547',
    REGISTRY: 'shipped',
  };

  it('bootstraps a network started at START_BLOCK_<NETWORK> or START_DAYS_<NETWORK> (history before it is not read), not one read from block 0', () => {
    const cfg = loadIndexerConfig({ ...env, START_BLOCK_BASE: '30000000', START_DAYS_ETHEREUM: '7' });
    expect(cfg.indexing.map((n) => [n.network, n.bootstrap, n.wrappedNative])).toEqual([
      ['ethereum', true, '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2'],
      ['base', true, '0x4200000000000000000000000000000000000006'],
    ]);
    expect(loadIndexerConfig(env).indexing.map((n) => n.bootstrap)).toEqual([false, false]);
  });
});
