import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@tokensvc/config';
import { loadQuoteConfig, routerMissingMessage } from './quote-config';

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

describe('quote config: the Router per network', () => {
  const dir = mkdtempSync(join(tmpdir(), 'quote-config-router-'));
  const manifest = join(dir, 'deployment.json');
  writeFileSync(manifest, JSON.stringify({ networks: [{ network: 'ethereum', chainId: 1, weth: `0x${'11'.repeat(20)}`, contracts: { router: `0x${'2A'.repeat(20)}` }, platforms: [] }] }));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const WETH = { WRAPPED_NATIVE_ETHEREUM: `0x${'11'.repeat(20)}`, WRAPPED_NATIVE_BASE: `0x${'42'.repeat(20)}` };
  const routerOf = (env: Record<string, string>, network = 'ethereum'): string | undefined =>
    loadQuoteConfig({ NETWORKS: 'ethereum,base', RPC_URL_ETHEREUM: 'http://127.0.0.1:8545', RPC_URL_BASE: 'http://127.0.0.1:8547', ...WETH, ...env }).deployments.find((d) => d.network === network)!.router;

  it('reads ROUTER_ADDRESS_<NET> (lowercased), else the devnet manifest; a network with neither starts without one', () => {
    expect(routerOf({ ROUTER_ADDRESS_ETHEREUM: `0x${'AB'.repeat(20)}` })).toBe(`0x${'ab'.repeat(20)}`);
    expect(routerOf({ DEVNET_MANIFEST: manifest })).toBe(`0x${'2a'.repeat(20)}`);
    expect(routerOf({ DEVNET_MANIFEST: manifest, ROUTER_ADDRESS_ETHEREUM: `0x${'cd'.repeat(20)}` })).toBe(`0x${'cd'.repeat(20)}`);
    expect(routerOf({}, 'base')).toBeUndefined();
    expect(routerOf({ DEVNET_MANIFEST: manifest }, 'base')).toBeUndefined();
  });

  it('refuses a ROUTER_ADDRESS_<NET> that is not an address, naming the variable', () => {
    expect(() => routerOf({ ROUTER_ADDRESS_BASE: '0x1234' })).toThrow(/ROUTER_ADDRESS_BASE must be a 0x address, got "0x1234"/);
  });

  it('the refusal names the network, the deploy command and the variable', () => {
    expect(routerMissingMessage('base')).toBe(
      'no Router is configured for base, so this service cannot build orders, estimates or approvals there: deploy it with `npm run router -- deploy --network base` and set ROUTER_ADDRESS_BASE to the address it prints',
    );
  });
});
