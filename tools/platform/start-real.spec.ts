import { DEFAULT_START_DAYS, realSettings } from './start-real';

describe('npm run start:real settings', () => {
  it('serves the networks that have an RPC URL, from the shipped registry, over the last day by default', () => {
    const s = realSettings({
      RPC_URL_ETHEREUM: 'https://a.example/k1,https://b.example/k2',
      RPC_URL_BASE: 'https://c.example',
      START_BLOCK_BASE: '30000000',
      ROUTER_ADDRESS_BASE: '0x' + '1'.repeat(40),
      PATH: '/bin',
    });
    expect(s.problems).toEqual([]);
    expect(s.networks).toEqual(['ethereum', 'base']);
    expect(s.extraEnv).toEqual({
      REGISTRY: 'shipped',
      RPC_URL_ETHEREUM: 'https://a.example/k1,https://b.example/k2',
      RPC_URL_BASE: 'https://c.example',
      START_BLOCK_BASE: '30000000',
      ROUTER_ADDRESS_BASE: '0x' + '1'.repeat(40),
      START_DAYS_ETHEREUM: String(DEFAULT_START_DAYS),
    });
  });

  it('keeps a registry file of the user', () => {
    expect(realSettings({ RPC_URL_ETHEREUM: 'https://a.example', REGISTRY: '/etc/tokensvc/registry.json' }).extraEnv['REGISTRY']).toBe(
      '/etc/tokensvc/registry.json',
    );
  });

  it('says what to set when something is missing or devnet-only', () => {
    expect(realSettings({}).problems).toEqual([expect.stringMatching(/^no network: set RPC_URL_<NETWORK>/)]);
    expect(realSettings({ NETWORKS: 'ethereum,moon' }).problems).toEqual([
      expect.stringMatching(/^RPC_URL_ETHEREUM is not set/),
      expect.stringMatching(/^NETWORKS names "moon"/),
    ]);
    expect(realSettings({ RPC_URL_ETHEREUM: 'https://a.example', DEVNET_MANIFEST: '.devnet/deployment.json' }).problems).toEqual([
      expect.stringMatching(/^DEVNET_MANIFEST is set/),
    ]);
  });
});
