import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadQuoteConfig } from './quote-config';

/** CROSS_CHAIN_BRIDGE: Across by default; Across from the devnet manifest or the registry, refused at start-up without SpokePools. */
describe('quote config: CROSS_CHAIN_BRIDGE', () => {
  const dir = mkdtempSync(join(tmpdir(), 'quote-bridge-'));
  const manifest = join(dir, 'deployment.json');
  const net = (network: string, chainId: number, contracts: Record<string, string>) => ({
    network,
    chainId,
    weth: `0x${'11'.repeat(20)}`,
    tokens: [{ symbol: 'USDC', address: `0x${'33'.repeat(20)}`, decimals: 6 }],
    contracts,
    platforms: [],
  });
  writeFileSync(
    manifest,
    JSON.stringify({
      networks: [
        net('ethereum', 1, { router: `0x${'22'.repeat(20)}` }),
        net('base', 8453, { router: `0x${'22'.repeat(20)}`, acrossSpokePool: `0x${'44'.repeat(20)}` }),
      ],
    }),
  );
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const rpc = { RPC_URL_ETHEREUM: 'http://127.0.0.1:8545', RPC_URL_BASE: 'http://127.0.0.1:8547' };

  it('is across by default; when only the default cannot be served, cross-chain orders are off (with the reason) and the service starts', () => {
    const cfg = loadQuoteConfig({ NETWORKS: 'ethereum,base', ...rpc, DEVNET_MANIFEST: manifest });
    expect(cfg.crossChainBridge).toBe('across');
    expect(cfg.across).toBeUndefined();
    expect(cfg.crossChainDisabled).toMatch(
      /^cross-chain orders are off: CROSS_CHAIN_BRIDGE=across: the devnet manifest has no Across SpokePool for ethereum/,
    );
    const single = loadQuoteConfig({ NETWORKS: 'ethereum', RPC_URL_ETHEREUM: rpc.RPC_URL_ETHEREUM, REGISTRY: 'shipped' });
    expect(single.crossChainDisabled).toMatch(/at least two enabled networks/);
    expect(loadQuoteConfig({ NETWORKS: 'ethereum,base', ...rpc, REGISTRY: 'shipped' }).across!.networks.map((n) => n.network)).toEqual([
      'ethereum',
      'base',
    ]);
    expect(loadQuoteConfig({ NETWORKS: 'ethereum,base', ...rpc, REGISTRY: 'shipped', CROSS_CHAIN_BRIDGE: 'none' })).toMatchObject({
      across: undefined,
      crossChainDisabled: 'cross-chain orders are off (CROSS_CHAIN_BRIDGE=none)',
    });
  });

  it('across from the shipped registry: the enabled networks with their SpokePools; no devnet bridge', () => {
    const cfg = loadQuoteConfig({ NETWORKS: 'ethereum,base', ...rpc, REGISTRY: 'shipped', CROSS_CHAIN_BRIDGE: 'across' });
    expect(cfg.crossChainBridge).toBe('across');
    expect(cfg.across!.networks.map((n) => [n.network, n.spokePool])).toEqual([
      ['ethereum', '0x5c7BCd6E7De5423a257D81B442095A1a6ced35C5'],
      ['base', expect.stringMatching(/^0x[0-9a-fA-F]{40}$/)],
    ]);
  });

  it('refuses to start on across without SpokePools for the enabled networks, saying what to set', () => {
    expect(() => loadQuoteConfig({ NETWORKS: 'ethereum,base', ...rpc, DEVNET_MANIFEST: manifest, CROSS_CHAIN_BRIDGE: 'across' })).toThrow(
      /CROSS_CHAIN_BRIDGE=across: the devnet manifest has no Across SpokePool for ethereum; rebuild the devnet/,
    );
    expect(() =>
      loadQuoteConfig({ NETWORKS: 'ethereum', RPC_URL_ETHEREUM: rpc.RPC_URL_ETHEREUM, REGISTRY: 'shipped', CROSS_CHAIN_BRIDGE: 'across' }),
    ).toThrow(
      /CROSS_CHAIN_BRIDGE=across needs Across SpokePools on at least two enabled networks \(NETWORKS\); the registry \(REGISTRY\) has them only on ethereum: enable more networks Across supports/,
    );
    expect(() =>
      loadQuoteConfig({
        NETWORKS: 'ethereum,base',
        ...rpc,
        CROSS_CHAIN_BRIDGE: 'across',
        WRAPPED_NATIVE_ETHEREUM: `0x${'11'.repeat(20)}`,
        WRAPPED_NATIVE_BASE: `0x${'11'.repeat(20)}`,
      }),
    ).toThrow(
      /CROSS_CHAIN_BRIDGE=across needs the Across SpokePools: set DEVNET_MANIFEST \(a devnet built with Across\) or REGISTRY=shipped/,
    );
    expect(() => loadQuoteConfig({ NETWORKS: 'ethereum,base', ...rpc, DEVNET_MANIFEST: manifest, CROSS_CHAIN_BRIDGE: 'wormhole' })).toThrow(
      /CROSS_CHAIN_BRIDGE must be one of across, none, got "wormhole"/,
    );
  });
});

describe('quote config: Across fee model (ACROSS_*)', () => {
  const rpc = { RPC_URL_ETHEREUM: 'http://127.0.0.1:8545', RPC_URL_BASE: 'http://127.0.0.1:8547' };
  const base = { NETWORKS: 'ethereum,base', ...rpc, REGISTRY: 'shipped' };

  it('defaults to the configured figures (4 + 1 bps, no minimum, 4 h fill window, no API)', () => {
    expect(loadQuoteConfig(base).acrossFees).toEqual({
      relayerFeeBps: 4,
      lpFeeBps: 1,
      minimumInput: {},
      fillDeadlineSeconds: 14_400,
      apiUrl: undefined,
      apiKey: undefined,
      apiTimeoutMs: 3_000,
    });
  });

  it('reads the figures, the per-symbol minimums and the API settings', () => {
    const cfg = loadQuoteConfig({
      ...base,
      ACROSS_RELAYER_FEE_BPS: '6',
      ACROSS_LP_FEE_BPS: '2',
      ACROSS_MIN_INPUT: 'USDC=1000000, WETH=300000000000000',
      ACROSS_FILL_DEADLINE_SECONDS: '7200',
      ACROSS_API_URL: 'https://app.across.to/api',
      ACROSS_API_KEY: 'k',
      ACROSS_API_TIMEOUT_MS: '1500',
    });
    expect(cfg.acrossFees).toEqual({
      relayerFeeBps: 6,
      lpFeeBps: 2,
      minimumInput: { USDC: 1_000_000n, WETH: 300_000_000_000_000n },
      fillDeadlineSeconds: 7200,
      apiUrl: 'https://app.across.to/api',
      apiKey: 'k',
      apiTimeoutMs: 1500,
    });
  });

  it('refuses malformed values at start, saying what is expected', () => {
    expect(() => loadQuoteConfig({ ...base, ACROSS_MIN_INPUT: 'USDC:1' })).toThrow(
      /ACROSS_MIN_INPUT must be SYMBOL=units pairs separated by commas .*got "USDC:1"/,
    );
    expect(() => loadQuoteConfig({ ...base, ACROSS_API_URL: 'across' })).toThrow(/ACROSS_API_URL must be an http\(s\) URL/);
    expect(() => loadQuoteConfig({ ...base, ACROSS_FILL_DEADLINE_SECONDS: '99999' })).toThrow(/ACROSS_FILL_DEADLINE_SECONDS/);
  });
});
