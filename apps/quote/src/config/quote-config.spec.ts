import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@tokensvc/config';
import { loadQuoteConfig } from './quote-config';

/** The relayer's gas wallet never comes from a devnet manifest unless the devnet is asked for explicitly. */
describe('quote config: relayer keys', () => {
  const dir = mkdtempSync(join(tmpdir(), 'quote-config-'));
  const manifest = join(dir, 'deployment.json');
  const DEVNET_KEY = `0x${'a1'.repeat(32)}`;
  const OWN_KEY = `0x${'b2'.repeat(32)}`;
  writeFileSync(manifest, JSON.stringify({
    networks: [{ network: 'ethereum', chainId: 1, weth: `0x${'11'.repeat(20)}`, contracts: { router: `0x${'22'.repeat(20)}` }, accounts: { relayer: { privateKey: DEVNET_KEY } }, platforms: [] }],
  }));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const base = { NETWORKS: 'ethereum', RPC_URL_ETHEREUM: 'http://127.0.0.1:8545', DEVNET_MANIFEST: manifest };

  it('does not take the manifest relayer key by default (a manifest used as platform registry on a real network)', () => {
    expect(loadQuoteConfig(base).relay.wallets.get('ethereum')).toBeUndefined();
  });

  it('takes it with RELAYER_KEYS_FROM_DEVNET=on, and an explicit key always wins', () => {
    expect(loadQuoteConfig({ ...base, RELAYER_KEYS_FROM_DEVNET: 'on' }).relay.wallets.get('ethereum')).toBe(DEVNET_KEY);
    expect(loadQuoteConfig({ ...base, RELAYER_KEYS_FROM_DEVNET: 'on', RELAYER_PRIVATE_KEY_ETHEREUM: OWN_KEY }).relay.wallets.get('ethereum')).toBe(OWN_KEY);
    expect(loadQuoteConfig({ ...base, RELAYER_PRIVATE_KEY_ETHEREUM: OWN_KEY }).relay.wallets.get('ethereum')).toBe(OWN_KEY);
  });

  it('refuses RELAYER_KEYS_FROM_DEVNET=on without a manifest', () => {
    expect(() => loadQuoteConfig({ NETWORKS: 'ethereum', RPC_URL_ETHEREUM: 'http://127.0.0.1:8545', ROUTER_ADDRESS_ETHEREUM: `0x${'22'.repeat(20)}`, WRAPPED_NATIVE_ETHEREUM: `0x${'11'.repeat(20)}`, RELAYER_KEYS_FROM_DEVNET: 'on' })).toThrow(ConfigError);
  });
});

describe('quote config: relayer fee ceiling', () => {
  const base = { NETWORKS: 'ethereum', RPC_URL_ETHEREUM: 'http://127.0.0.1:8545', ROUTER_ADDRESS_ETHEREUM: `0x${'22'.repeat(20)}`, WRAPPED_NATIVE_ETHEREUM: `0x${'11'.repeat(20)}` };

  it('RELAY_MAX_FEE_MULTIPLIER: 3 by default, a decimal from 1 to 100, anything else refused naming the variable', () => {
    expect(loadQuoteConfig(base).relay.maxFeeMultiplier).toBe(3);
    expect(loadQuoteConfig({ ...base, RELAY_MAX_FEE_MULTIPLIER: '1.5' }).relay.maxFeeMultiplier).toBe(1.5);
    for (const bad of ['0.5', '101', 'x', '-2', '1e3']) expect(() => loadQuoteConfig({ ...base, RELAY_MAX_FEE_MULTIPLIER: bad })).toThrow(/RELAY_MAX_FEE_MULTIPLIER must be a number between 1 and 100/);
  });
});
