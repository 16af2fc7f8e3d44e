import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { relayerKeyEnv } from '@tokensvc/devnet';
import { loadQuoteConfig, routerMissingMessage } from './quote-config';

/** The relayer's gas wallet comes from the environment only, never from a devnet manifest. */
describe('quote config: relayer keys', () => {
  const dir = mkdtempSync(join(tmpdir(), 'quote-config-'));
  const manifest = join(dir, 'deployment.json');
  const DEVNET_KEY = `0x${'a1'.repeat(32)}`;
  const OWN_KEY = `0x${'b2'.repeat(32)}`;
  writeFileSync(
    manifest,
    JSON.stringify({
      networks: [
        {
          network: 'ethereum',
          chainId: 1,
          weth: `0x${'11'.repeat(20)}`,
          contracts: { router: `0x${'22'.repeat(20)}` },
          accounts: { relayer: { privateKey: DEVNET_KEY } },
          platforms: [],
        },
      ],
    }),
  );
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const base = { NETWORKS: 'ethereum', RPC_URL_ETHEREUM: 'http://127.0.0.1:8545', DEVNET_MANIFEST: manifest };

  it('never takes a key from a manifest, even with the old RELAYER_KEYS_FROM_DEVNET=on (a manifest used as platform registry on a real network)', () => {
    expect(loadQuoteConfig(base).relay.wallets.get('ethereum')).toBeUndefined();
    expect(loadQuoteConfig({ ...base, RELAYER_KEYS_FROM_DEVNET: 'on' }).relay.wallets.get('ethereum')).toBeUndefined();
  });

  it('takes RELAYER_PRIVATE_KEY_<NETWORK>, which the devnet tooling sets from its manifest (relayerKeyEnv)', () => {
    expect(relayerKeyEnv(manifest)).toEqual({ RELAYER_PRIVATE_KEY_ETHEREUM: DEVNET_KEY });
    expect(loadQuoteConfig({ ...base, ...relayerKeyEnv(manifest) }).relay.wallets.get('ethereum')).toBe(DEVNET_KEY);
    expect(loadQuoteConfig({ ...base, RELAYER_PRIVATE_KEY_ETHEREUM: OWN_KEY }).relay.wallets.get('ethereum')).toBe(OWN_KEY);
    expect(() => loadQuoteConfig({ ...base, RELAYER_PRIVATE_KEY_ETHEREUM: '0x12' })).toThrow(
      /RELAYER_PRIVATE_KEY_ETHEREUM must be 0x \+ 64 hex characters/,
    );
  });
});

describe('quote config: relayer fee ceiling', () => {
  const base = {
    NETWORKS: 'ethereum',
    RPC_URL_ETHEREUM: 'http://127.0.0.1:8545',
    ROUTER_ADDRESS_ETHEREUM: `0x${'22'.repeat(20)}`,
    WRAPPED_NATIVE_ETHEREUM: `0x${'11'.repeat(20)}`,
  };

  it('RELAY_MAX_FEE_MULTIPLIER: 3 by default, a decimal from 1 to 100, anything else refused naming the variable', () => {
    expect(loadQuoteConfig(base).relay.maxFeeMultiplier).toBe(3);
    expect(loadQuoteConfig({ ...base, RELAY_MAX_FEE_MULTIPLIER: '1.5' }).relay.maxFeeMultiplier).toBe(1.5);
    for (const bad of ['0.5', '101', 'x', '-2', '1e3'])
      expect(() => loadQuoteConfig({ ...base, RELAY_MAX_FEE_MULTIPLIER: bad })).toThrow(
        /RELAY_MAX_FEE_MULTIPLIER must be a number between 1 and 100/,
      );
  });
});

/** Real networks without a devnet: the shipped registry gives the platforms and the wrapped native token. */
describe('quote config: REGISTRY', () => {
  const base = {
    NETWORKS: 'ethereum,base',
    RPC_URL_ETHEREUM: 'http://127.0.0.1:8545',
    RPC_URL_BASE: 'http://127.0.0.1:8547',
    ROUTER_ADDRESS_ETHEREUM: `0x${'22'.repeat(20)}`,
    ROUTER_ADDRESS_BASE: `0x${'33'.repeat(20)}`,
  };

  it('takes the platforms and the wrapped native token of each enabled network from the shipped registry', () => {
    const cfg = loadQuoteConfig({ ...base, REGISTRY: 'shipped' });
    const eth = cfg.deployments.find((d) => d.network === 'ethereum')!;
    const baseNet = cfg.deployments.find((d) => d.network === 'base')!;
    expect(eth.wrappedNative).toBe('0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2');
    expect(baseNet.wrappedNative).toBe('0x4200000000000000000000000000000000000006');
    expect(eth.platforms.get('uniswap-v2')).toEqual({
      factory: '0x5c69bee701ef814a2b6a3edd4b1652cb9cc5aa6f',
      router: '0x7a250d5630b4cf539739df2c5dacb4c659f2488d',
    });
    expect(baseNet.platforms.get('sushiswap')?.['router']).toBe('0x6bded42c6da8fbf0d2ba55b2fa120c5e0c8d7891');
    expect(baseNet.platforms.get('aave-v3')?.['pool']).toBe('0xa238dd80c259a72e81d7e4664a9801593f98d1c5');
    const slugs = ['aave-v3', 'aave-v3-static', 'basic', 'erc4626-vaults', 'native', 'sushiswap', 'uniswap-v2', 'uniswap-v3', 'uniswap-v4'];
    expect([...eth.platforms.keys()].sort()).toEqual(slugs);
    expect(cfg.across).toBeDefined();
  });

  it('knows only the generic platforms without it, and then needs WRAPPED_NATIVE_<NETWORK>', () => {
    expect(() => loadQuoteConfig(base)).toThrow(
      /WRAPPED_NATIVE_ETHEREUM must be a 0x address \(the address book names none: none is set \(REGISTRY=shipped/,
    );
    const cfg = loadQuoteConfig({ ...base, WRAPPED_NATIVE_ETHEREUM: `0x${'11'.repeat(20)}`, WRAPPED_NATIVE_BASE: `0x${'11'.repeat(20)}` });
    expect([...cfg.deployments[0]!.platforms.keys()]).toEqual(['native', 'basic']);
  });

  it('names no order Router (the project deploys its own; no package names it): the network starts without one', () => {
    expect(
      loadQuoteConfig({ NETWORKS: 'base', RPC_URL_BASE: 'http://127.0.0.1:8547', REGISTRY: 'shipped' }).deployments[0]!.router,
    ).toBeUndefined();
  });
});

describe('quote config: the Router per network', () => {
  const dir = mkdtempSync(join(tmpdir(), 'quote-config-router-'));
  const manifest = join(dir, 'deployment.json');
  writeFileSync(
    manifest,
    JSON.stringify({
      networks: [
        { network: 'ethereum', chainId: 1, weth: `0x${'11'.repeat(20)}`, contracts: { router: `0x${'2A'.repeat(20)}` }, platforms: [] },
      ],
    }),
  );
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const WETH = { WRAPPED_NATIVE_ETHEREUM: `0x${'11'.repeat(20)}`, WRAPPED_NATIVE_BASE: `0x${'42'.repeat(20)}` };
  const routerOf = (env: Record<string, string>, network = 'ethereum'): string | undefined =>
    loadQuoteConfig({
      NETWORKS: 'ethereum,base',
      RPC_URL_ETHEREUM: 'http://127.0.0.1:8545',
      RPC_URL_BASE: 'http://127.0.0.1:8547',
      ...WETH,
      ...env,
    }).deployments.find((d) => d.network === network)!.router;

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
      'no Router is configured for base, so this service cannot build orders, estimates or approvals there: deploy it with `npm run router -- deploy --network base` and set ROUTER_ADDRESS_BASE to the address it prints (the same on every network)',
    );
  });
});
