import { loadFillerConfig } from './config';

describe('filler config from the environment', () => {
  const base = { DEVNET_MANIFEST: '/tmp/deployment.json', NETWORKS: 'ethereum,base', RPC_URL_ETHEREUM: 'http://127.0.0.1:8545', RPC_URL_BASE: 'http://127.0.0.1:8547' };

  it('reads the manifest, the networks and the mode, with defaults', () => {
    expect(loadFillerConfig(base)).toEqual({
      manifestPath: '/tmp/deployment.json',
      rpcUrls: { ethereum: 'http://127.0.0.1:8545', base: 'http://127.0.0.1:8547' },
      mode: 'normal',
      pollMs: 500,
      lookbackSeconds: 2_400,
      logLevel: 'info',
      privateKey: undefined,
    });
    expect(loadFillerConfig({ ...base, FILLER_MODE: 'no-inventory', FILLER_POLL_MS: '100' })).toMatchObject({ mode: 'no-inventory', pollMs: 100 });
    // Without NETWORKS: every network with an RPC URL, like the apps.
    expect(loadFillerConfig({ DEVNET_MANIFEST: 'x', RPC_URL_ARBITRUM: 'http://127.0.0.1:8546' }).rpcUrls).toEqual({ arbitrum: 'http://127.0.0.1:8546' });
  });

  it('names every bad variable at once', () => {
    expect(() => loadFillerConfig({ NETWORKS: 'ethereum,mars', FILLER_MODE: 'sleepy', FILLER_PRIVATE_KEY: '0x12' })).toThrow(
      /DEVNET_MANIFEST is required[\s\S]*RPC_URL_ETHEREUM[\s\S]*mars[\s\S]*FILLER_PRIVATE_KEY[\s\S]*FILLER_MODE must be one of normal, offline, revert, no-inventory/,
    );
  });
});
