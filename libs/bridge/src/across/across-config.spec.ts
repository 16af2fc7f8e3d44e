import { NETWORKS } from '@tokensvc/domain';
import { loadRegistry } from '@tokensvc/chain';
import { NATIVE_TOKEN } from '../tokens';
import { acrossConfigFromManifest, acrossConfigFromRegistry, acrossRoute, acrossSearchFrom } from './across-config';

describe('Across config', () => {
  it('from the shipped registry: every supported network with a SpokePool, its start block, handler, tokens and the native coin', () => {
    const registry = loadRegistry('shipped');
    const config = acrossConfigFromRegistry(NETWORKS.map((n) => registry.networks[n]));
    const networks = new Map(config.networks.map((n) => [n.network, n]));
    expect(networks.has('flare')).toBe(false); // Across does not support it
    const ethereum = networks.get('ethereum')!;
    expect(ethereum).toMatchObject({
      chainId: 1,
      spokePool: '0x5c7BCd6E7De5423a257D81B442095A1a6ced35C5',
      fromBlock: 17117454,
      multicallHandler: '0x0F7Ae28dE1C8532170AD4ee566B5801485c13a0E',
      wrappedNative: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
    });
    expect(ethereum.tokens.map((t) => t.symbol)).toEqual(expect.arrayContaining(['USDC', 'WETH', 'ETH']));
    const route = acrossRoute(networks, 'ethereum', 'base')!;
    expect(route.tokens.find((t) => t.symbol === 'ETH')).toEqual({
      symbol: 'ETH',
      originToken: NATIVE_TOKEN,
      destinationToken: NATIVE_TOKEN,
      originDecimals: 18,
      destinationDecimals: 18,
    });
    expect(route.tokens.find((t) => t.symbol === 'USDC')).toMatchObject({
      originToken: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
      destinationToken: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      originDecimals: 6,
      destinationDecimals: 6,
    });
    expect(
      acrossConfigFromRegistry(
        NETWORKS.map((n) => registry.networks[n]),
        ['USDC'],
      )
        .networks.find((n) => n.network === 'base')!
        .tokens.map((t) => t.symbol),
    ).toEqual(['USDC']);
  });

  it('from a devnet manifest, and a manifest without Across says to rebuild', () => {
    const net = {
      network: 'base',
      chainId: 8453,
      weth: '0x00000000000000000000000000000000000000e1',
      tokens: [
        { symbol: 'USDC', address: '0x00000000000000000000000000000000000000c1', decimals: 6 },
        { symbol: 'WETH', address: '0x00000000000000000000000000000000000000e1', decimals: 18 },
        { symbol: 'DAI', address: '0x00000000000000000000000000000000000000d1', decimals: 18 },
      ],
      history: { deployBlock: 7 },
    };
    const config = acrossConfigFromManifest({
      networks: [
        {
          ...net,
          contracts: {
            acrossSpokePool: '0x00000000000000000000000000000000000000a1',
            acrossMulticallHandler: '0x00000000000000000000000000000000000000a2',
          },
        },
      ],
    });
    expect(config.networks[0]).toMatchObject({
      network: 'base',
      fromBlock: 7,
      spokePool: '0x00000000000000000000000000000000000000a1',
      wrappedNative: net.weth,
    });
    expect(config.networks[0]!.tokens.map((t) => t.symbol)).toEqual(['USDC', 'WETH', 'ETH']);
    expect(() => acrossConfigFromManifest({ networks: [{ ...net, contracts: {} }] })).toThrow(
      /no Across SpokePool for base; rebuild the devnet/,
    );
  });

  it("searches a pool's logs from its deployment block, the lookback permitting; from the lookback alone on a chain whose head is below that block", () => {
    expect(acrossSearchFrom({ fromBlock: 17_117_454 }, 21_000_000, 100_000)).toBe(20_900_000);
    expect(acrossSearchFrom({ fromBlock: 17_117_454 }, 17_150_000, 100_000)).toBe(17_117_454);
    // the mainnet-shaped devnet: the registry's ethereum SpokePool block, a head of 750
    expect(acrossSearchFrom({ fromBlock: 17_117_454 }, 750, 100_000)).toBe(0);
    expect(acrossSearchFrom({ fromBlock: 17_117_454 }, 250_000, 100_000)).toBe(150_000);
  });
});
