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
      natsUrl: 'nats://127.0.0.1:4222',
      swaps: 'on',
      swapSlippagePercent: 0.5,
      quoteTimeoutMs: 10_000,
    });
    expect(loadFillerConfig({ ...base, FILLER_MODE: 'no-inventory', FILLER_POLL_MS: '100' })).toMatchObject({ mode: 'no-inventory', pollMs: 100 });
    expect(loadFillerConfig({ ...base, NATS_URL: 'nats://10.0.0.2:4222', FILLER_SWAPS: 'off', FILLER_SWAP_SLIPPAGE: '1.25', FILLER_QUOTE_TIMEOUT_MS: '3000' })).toMatchObject({
      natsUrl: 'nats://10.0.0.2:4222',
      swaps: 'off',
      swapSlippagePercent: 1.25,
      quoteTimeoutMs: 3000,
    });
    // Without NETWORKS: every network with an RPC URL, like the apps.
    expect(loadFillerConfig({ DEVNET_MANIFEST: 'x', RPC_URL_ARBITRUM: 'http://127.0.0.1:8546' }).rpcUrls).toEqual({ arbitrum: 'http://127.0.0.1:8546' });
  });

  it('names every bad variable at once', () => {
    expect(() => loadFillerConfig({ NETWORKS: 'ethereum,mars', FILLER_MODE: 'sleepy', FILLER_PRIVATE_KEY: '0x12' })).toThrow(
      /DEVNET_MANIFEST is required[\s\S]*RPC_URL_ETHEREUM[\s\S]*mars[\s\S]*FILLER_PRIVATE_KEY[\s\S]*FILLER_MODE must be one of normal, offline, revert, no-inventory/,
    );
    expect(() => loadFillerConfig({ ...base, NATS_URL: 'http://x', FILLER_SWAPS: 'maybe', FILLER_SWAP_SLIPPAGE: '0.01' })).toThrow(
      /NATS_URL must use nats: or tls:[\s\S]*FILLER_SWAPS must be one of on, off[\s\S]*FILLER_SWAP_SLIPPAGE must be a number between 0.1 and 10/,
    );
  });
});
