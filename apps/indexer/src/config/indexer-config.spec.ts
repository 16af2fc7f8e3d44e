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
    expect(() => loadIndexerConfig({ ...env, RPC_FALLBACK_URLS_BASE: 'http://ok.example,ws://nope.example' })).toThrow(/RPC_FALLBACK_URLS_BASE must be comma-separated http or https URLs, got "ws:\/\/nope.example"/);
  });
});
