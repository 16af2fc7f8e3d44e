/**
 * The mainnet-shaped devnet profile (libs/devnet/src/mainnet-shaped) on its own, without the apps,
 * per network (ethereum, arbitrum, base): the real chain id; every address the indexer's preflight checks (each platform's static contracts, the
 * listed tokens), every vault and the seeded Aave reserves' tokens hold code; the CREATE
 * origins used give the registry's addresses; the placements table covers every placed address;
 * pairs, pools and reserves are funded and 30 days of history precede the head. On base, whose
 * Uniswap V3 is copied, the factory holds the real address in its NoDelegateCall immutable and
 * creates pools at the addresses CREATE2 gives for the real factory. Across's own SpokePool and
 * MulticallHandler stand at the registry's addresses (set-code, with the registry's source), over
 * the registry's wrapped native token, with the real HubPool as admin.
 */
import { Contract, getCreate2Address, getCreateAddress, JsonRpcProvider, keccak256, AbiCoder } from 'ethers';
import { loadRegistry } from '@tokensvc/chain';
import {
  ACROSS_SPOKE_POOL,
  MAINNET_SHAPED_ORIGINS,
  spokePoolInterface,
  startMainnetShaped,
  type MainnetShapedHandle,
  type Placement,
} from '@tokensvc/devnet';
import { freePortRange } from '@tokensvc/testing';

jest.setTimeout(240_000);

let devnet: MainnetShapedHandle;
const placed = (placements: Placement[], address: string): string | undefined =>
  placements.find((p) => p.address.toLowerCase() === address.toLowerCase())?.method;

beforeAll(async () => {
  devnet = await startMainnetShaped({ registry: loadRegistry('shipped').networks, basePort: await freePortRange(3) });
}, 240_000);

afterAll(async () => {
  await devnet?.stop();
});

/** Uniswap V3's pool init code hash (v3-periphery PoolAddress.POOL_INIT_CODE_HASH), the same on every chain. */
const POOL_INIT_CODE_HASH = '0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54';

// The seeded Aave reserves, by the registry's token symbols (base's market has no DAI; cbBTC plays WBTC there),
// and how the Uniswap V3 factory was placed.
describe.each([
  ['ethereum', 1, ['USDC', 'DAI', 'WETH', 'WBTC'], 'create-at-nonce'],
  ['arbitrum', 42161, ['USDC', 'DAI', 'WETH', 'WBTC'], 'create-at-nonce'],
  ['base', 8453, ['USDC', 'WETH', 'cbBTC'], 'set-code'],
] as const)('mainnet-shaped devnet profile (%s)', (network, chainId, reserves, v3Method) => {
  const registry = loadRegistry('shipped').networks[network]!;
  const platformRole = (slug: string, role: string): string =>
    (registry.platforms.find((p) => p.slug === slug)!.addresses[role] as { address: string }).address;
  const token = (s: string): string => registry.tokens.find((t) => t.symbol === s)!.address;
  const market = (asset: string) => registry.platforms.find((p) => p.slug === 'aave-v3')!.markets!.find((m) => m.asset.address === asset)!;
  let provider: JsonRpcProvider;

  beforeAll(() => {
    provider = new JsonRpcProvider(devnet.rpcUrls[network]!, chainId, { staticNetwork: true });
  });

  afterAll(() => provider?.destroy());

  it('re-creates contracts from their real deployers at nonces that give the registry addresses', () => {
    expect(Object.keys(MAINNET_SHAPED_ORIGINS[network]!)).toContain('multicall3');
    const expected: Record<string, string> = {
      multicall3: registry.multicall3.address,
      WETH: token('WETH'),
      USDC: token('USDC'),
      'uniswap-v3.factory': platformRole('uniswap-v3', 'factory'),
      'uniswap-v3.quoter': platformRole('uniswap-v3', 'quoter'),
      'uniswap-v3.positionManager': platformRole('uniswap-v3', 'positionManager'),
      'uniswap-v3.swapRouter02': platformRole('uniswap-v3', 'swapRouter02'),
    };
    for (const [what, origin] of Object.entries(MAINNET_SHAPED_ORIGINS[network]!))
      expect(`${what} ${getCreateAddress(origin)}`).toBe(`${what} ${expected[what]}`);
  });

  it('serves its real chain id with code at every address the preflight checks, every vault and the seeded reserves', async () => {
    expect(Number(await provider.send('eth_chainId', []))).toBe(chainId);
    const named: Array<[string, string]> = [
      ['multicall3', registry.multicall3.address],
      ...registry.tokens.map((t): [string, string] => [`token ${t.symbol}`, t.address]),
    ];
    named.push(
      ['across spokePool', registry.bridge.spokePool!.address],
      ['across multicallHandler', registry.bridge.multicallHandler!.address],
    );
    for (const p of registry.platforms)
      for (const [role, a] of Object.entries(p.addresses))
        for (const x of Array.isArray(a) ? a : [a]) named.push([`${p.slug} ${role}`, (x as { address: string }).address]);
    for (const m of reserves.map((s) => market(token(s))))
      named.push([`a${m.symbol}`, m.aToken.address], [`variableDebt${m.symbol}`, m.variableDebtToken.address]);
    const missing: string[] = [];
    for (const [what, address] of named) if ((await provider.getCode(address)) === '0x') missing.push(`${what} ${address}`);
    expect(missing).toEqual([]);
    // every placed address is in the table, with how it was placed
    const placed = new Map(
      devnet.manifest.networks.find((n) => n.network === network)!.placements.map((p) => [p.address.toLowerCase(), p.method]),
    );
    expect(named.filter(([, a]) => !placed.has(a.toLowerCase()))).toEqual([]);
    expect(placed.get(platformRole('aave-v3', 'pool').toLowerCase())).toBe('creator-nonce');
    expect(placed.get(platformRole('uniswap-v3', 'factory').toLowerCase())).toBe(v3Method);
    expect(placed.get(platformRole('uniswap-v2', 'factory').toLowerCase())).toBe('set-code');
    // the manifest's Aave markets are the seeded reserves, at the registry's aToken addresses
    const aave = devnet.manifest.networks.find((n) => n.network === network)!.platforms.find((p) => p.family === 'aave-v3')!;
    expect(aave.markets.map((m) => [m.asset, m.aToken])).toEqual(reserves.map((s) => [token(s), market(token(s)).aToken.address]));
  });

  it("has Across's own SpokePool at the registry's real address, over the real wrapped native token, and the MulticallHandler at its real address", async () => {
    const { spokePool, multicallHandler } = registry.bridge;
    const net = devnet.manifest.networks.find((n) => n.network === network)!;
    expect(net.contracts).toMatchObject({ acrossSpokePool: spokePool!.address, acrossMulticallHandler: multicallHandler!.address });
    const pool = net.placements.find((p) => p.address === spokePool!.address)!;
    expect(pool).toMatchObject({
      what: `across SpokePool (${ACROSS_SPOKE_POOL[network]} behind ERC1967Proxy)`,
      method: 'set-code',
      source: expect.stringContaining('deployed-addresses.json'),
    });
    expect(net.placements.find((p) => p.address === multicallHandler!.address)?.source).toContain('contracts.MulticallHandler.address');
    const spoke = new Contract(spokePool!.address, spokePoolInterface(), provider);
    const hubPool = '0xc186fA914353c44b2E33eBE05f21846F1048bEda';
    expect(await spoke.getFunction('wrappedNativeToken')()).toBe(registry.wrappedNative!.address);
    expect(await spoke.getFunction('crossDomainAdmin')()).toBe(hubPool);
    expect(await spoke.getFunction('numberOfDeposits')()).toBe(0n);
    if (network === 'ethereum')
      expect(await new Contract(spokePool!.address, ['function owner() view returns (address)'], provider).getFunction('owner')()).toBe(
        hubPool,
      );
    // the scratch proxy was removed; the implementation stays where the proxy's ERC-1967 slot points
    expect(await provider.getCode(pool.scratch!)).toBe('0x');
    const implementation = `0x${(await provider.getStorage(spokePool!.address, '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc')).slice(-40)}`;
    expect((await provider.getCode(implementation)).length).toBeGreaterThan(2);
  });

  if (network === 'base') {
    it("copies Uniswap V3 with the factory's self-address immutable rewritten, and places WETH at the OP-stack predeploy", async () => {
      const placements = devnet.manifest.networks.find((n) => n.network === network)!.placements;
      const factory = platformRole('uniswap-v3', 'factory');
      const p = placements.find((x) => x.address.toLowerCase() === factory.toLowerCase())!;
      expect(p.rewritten).toBeGreaterThan(0);
      const code = (await provider.getCode(factory)).toLowerCase();
      expect(code).not.toContain(p.scratch!.toLowerCase().slice(2));
      expect(code).toContain(factory.toLowerCase().slice(2));
      expect(await provider.getCode(p.scratch!)).toBe('0x');
      expect(token('WETH')).toBe('0x4200000000000000000000000000000000000006');
      expect(placements.find((x) => x.address === token('WETH'))?.method).toBe('set-code');
      for (const r of ['quoter', 'positionManager', 'swapRouter02'])
        expect(`${r} ${placed(placements, platformRole('uniswap-v3', r))}`).toBe(`${r} set-code`);
    });
  }

  it('has Uniswap V3 pools created by the factory at its real address, where CREATE2 puts them', async () => {
    const v3 = new Contract(
      platformRole('uniswap-v3', 'factory'),
      ['function getPool(address,address,uint24) view returns (address)'],
      provider,
    );
    const [t0, t1] = [token('USDC'), token('WETH')].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1));
    const salt = keccak256(AbiCoder.defaultAbiCoder().encode(['address', 'address', 'uint24'], [t0, t1, 500]));
    const expected = getCreate2Address(platformRole('uniswap-v3', 'factory'), salt, POOL_INIT_CODE_HASH);
    expect(String(await v3.getFunction('getPool')(t0, t1, 500))).toBe(expected);
    const pool = new Contract(
      expected,
      ['function factory() view returns (address)', 'function slot0() view returns (uint160,int24,uint16,uint16,uint16,uint8,bool)'],
      provider,
    );
    expect(String(await pool.getFunction('factory')())).toBe(platformRole('uniswap-v3', 'factory'));
    const manifest = devnet.manifest.networks.find((n) => n.network === network)!;
    const pools = manifest.platforms.find((p) => p.family === 'uniswap-v3')!.pools;
    expect(pools.length).toBeGreaterThan(0);
    for (const x of pools) expect(`${x.pair} ${x.fee} ${(await provider.getCode(x.address)).length > 2}`).toBe(`${x.pair} ${x.fee} true`);
  });

  it('has funded pairs and pools created by the real factories, Aave reserves keyed by the real tokens, and 30 days of history', async () => {
    const v2 = new Contract(platformRole('uniswap-v2', 'factory'), ['function getPair(address,address) view returns (address)'], provider);
    const pair = new Contract(
      String(await v2.getFunction('getPair')(token('USDC'), token('WETH'))),
      ['function getReserves() view returns (uint112,uint112,uint32)', 'function factory() view returns (address)'],
      provider,
    );
    const [r0, r1] = (await pair.getFunction('getReserves')()) as [bigint, bigint];
    expect(r0 > 0n && r1 > 0n).toBe(true);
    expect(String(await pair.getFunction('factory')())).toBe(platformRole('uniswap-v2', 'factory'));
    const v3 = new Contract(
      platformRole('uniswap-v3', 'factory'),
      ['function getPool(address,address,uint24) view returns (address)'],
      provider,
    );
    const pool = String(await v3.getFunction('getPool')(token('USDC'), token('WETH'), 500));
    expect(await new Contract(pool, ['function liquidity() view returns (uint128)'], provider).getFunction('liquidity')()).toBeGreaterThan(
      0n,
    );
    const dataProvider = new Contract(
      platformRole('aave-v3', 'dataProvider'),
      ['function getReserveTokensAddresses(address) view returns (address,address,address)'],
      provider,
    );
    const [aToken] = (await dataProvider.getFunction('getReserveTokensAddresses')(token('USDC'))) as [string];
    expect(aToken).toBe(market(token('USDC')).aToken.address);
    const supply = (await new Contract(aToken, ['function totalSupply() view returns (uint256)'], provider).getFunction(
      'totalSupply',
    )()) as bigint;
    expect(supply).toBeGreaterThan(10n ** 12n); // over a million USDC supplied by the seeders
    const { history } = devnet.manifest.networks.find((n) => n.network === network)!;
    expect(history.lastTimestamp - history.activityStartTimestamp).toBeGreaterThanOrEqual(30 * 86_400 - 60);
    expect(history.transactions).toBeGreaterThan(5_000);
  });
});
