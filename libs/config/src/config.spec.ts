import { ConfigError, loadGatewayConfig, loadServiceConfig } from './index';

describe('config', () => {
  it('has working local defaults', () => {
    const cfg = loadGatewayConfig({});
    expect(cfg.port).toBe(3000);
    expect(cfg.natsUrl).toBe('nats://127.0.0.1:4222');
    expect(cfg.natsRequestTimeoutMs).toBe(5000);
    expect(cfg.networks).toEqual([]);
  });

  it('enables the networks listed and requires their RPC URLs', () => {
    const cfg = loadServiceConfig('token-data', {
      NETWORKS: 'ethereum,base',
      RPC_URL_ETHEREUM: 'http://127.0.0.1:8545',
      RPC_URL_BASE: 'http://127.0.0.1:8547',
    });
    expect(cfg.networks.map((n) => n.network)).toEqual(['ethereum', 'base']);
    expect(cfg.healthPort).toBe(3101);
  });

  it('binds the health and metrics listener to loopback unless HEALTH_HOST opens it', () => {
    for (const app of ['indexer', 'quote', 'status-tracker', 'token-data'] as const)
      expect(loadServiceConfig(app, {}).healthHost).toBe('127.0.0.1');
    expect(loadServiceConfig('indexer', { HEALTH_HOST: '0.0.0.0' }).healthHost).toBe('0.0.0.0');
  });

  it('takes several RPC URLs per network, comma-separated, each checked (one URL works as before)', () => {
    const cfg = loadServiceConfig('indexer', {
      NETWORKS: 'ethereum,base',
      RPC_URL_ETHEREUM: ' https://a.example/v2/key , http://10.0.0.2:8545',
      RPC_URL_BASE: 'wss://b.example',
    });
    expect(cfg.networks).toEqual([
      { network: 'ethereum', rpcUrl: 'https://a.example/v2/key', rpcUrls: ['https://a.example/v2/key', 'http://10.0.0.2:8545'], maxRps: 0 },
      { network: 'base', rpcUrl: 'wss://b.example', rpcUrls: ['wss://b.example'], maxRps: 0 },
    ]);
    expect(loadServiceConfig('indexer', { RPC_URL_ARBITRUM: 'http://x.example,http://y.example' }).networks[0]!.rpcUrls).toEqual([
      'http://x.example',
      'http://y.example',
    ]);
    expect(() => loadServiceConfig('indexer', { NETWORKS: 'ethereum', RPC_URL_ETHEREUM: 'http://ok.example,ws://nope.example' })).toThrow(
      /RPC_URL_ETHEREUM must be one URL or comma-separated http\(s\) URLs, got "ws:\/\/nope.example"/,
    );
    expect(() => loadServiceConfig('indexer', { RPC_URL_ETHEREUM: 'http://ok.example,' })).toThrow(
      /RPC_URL_ETHEREUM must be one URL or comma-separated/,
    );
  });

  it('reads RPC_MAX_RPS_<NETWORK> for every app (a per-URL budget of each process; 0, none, by default)', () => {
    for (const app of ['indexer', 'quote', 'status-tracker', 'token-data'] as const) {
      expect(
        loadServiceConfig(app, { RPC_URL_ETHEREUM: 'http://a.example,http://b.example', RPC_MAX_RPS_ETHEREUM: '25' }).networks[0],
      ).toMatchObject({ rpcUrls: ['http://a.example', 'http://b.example'], maxRps: 25 });
    }
    expect(() => loadServiceConfig('quote', { RPC_URL_ETHEREUM: 'http://a.example', RPC_MAX_RPS_ETHEREUM: '-1' })).toThrow(
      /RPC_MAX_RPS_ETHEREUM/,
    );
  });

  it('reads JETSTREAM_REPLICAS (stream copies, 1 by default, at most 5 as JetStream allows)', () => {
    expect(loadServiceConfig('indexer', {}).jetstreamReplicas).toBe(1);
    expect(loadServiceConfig('status-tracker', { JETSTREAM_REPLICAS: '3' }).jetstreamReplicas).toBe(3);
    expect(() => loadServiceConfig('indexer', { JETSTREAM_REPLICAS: '7' })).toThrow(/JETSTREAM_REPLICAS/);
  });

  it('reports every problem at once, naming the variable and the accepted values', () => {
    let err: unknown;
    try {
      loadGatewayConfig({ PORT: 'abc', NETWORKS: 'ethereum,mars', LOG_LEVEL: 'loud', NATS_URL: 'http://x' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const problems = (err as ConfigError).problems.join('\n');
    expect(problems).toContain('PORT must be an integer');
    expect(problems).toContain('unknown network "mars"');
    expect(problems).toContain('RPC_URL_ETHEREUM');
    expect(problems).toContain('LOG_LEVEL must be one of debug, info, warn, error');
    expect(problems).toContain('NATS_URL must use nats:');
  });
});
