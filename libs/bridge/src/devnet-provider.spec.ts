import { AbiCoder, Wallet, getAddress } from 'ethers';
import { DEPOSIT_INPUT_AMOUNT_OFFSET, bridgeEscrowInterface } from '@tokensvc/contracts';
import { type BridgeManifestLike, NATIVE_TOKEN, devnetBridgeConfig, devnetFillerKey } from './devnet-config';
import { DevnetBridgeProvider, rescale } from './devnet-provider';
import { type BridgeQuote, BridgeQuoteError } from './provider';

const USDC = { ethereum: '0x1111111111111111111111111111111111111111', base: '0x2222222222222222222222222222222222222222' };
const WETH = { ethereum: '0x3333333333333333333333333333333333333333', base: '0x4444444444444444444444444444444444444444' };
const filler = Wallet.createRandom();
const manifest: BridgeManifestLike = {
  networks: (['ethereum', 'base'] as const).map((network, i) => ({
    network,
    chainId: network === 'ethereum' ? 1 : 8453,
    tokens: [
      { symbol: 'WETH', address: WETH[network], decimals: 18, priceUsd: 3000 },
      { symbol: 'USDC', address: USDC[network], decimals: 6, priceUsd: 1 },
      { symbol: 'DAI', address: `0x${'5'.repeat(39)}${i}`, decimals: 18, priceUsd: 1 },
    ],
    contracts: { bridgeEscrow: `0x${'e'.repeat(39)}${i}`, bridgeSettler: `0x${'f'.repeat(39)}${i}` },
    accounts: { filler: { address: filler.address, privateKey: filler.privateKey } },
  })),
};

describe('devnet bridge config and provider (no chain access)', () => {
  const provider = new DevnetBridgeProvider({ config: devnetBridgeConfig(manifest), rpcUrls: {} });

  it('reads the manifest: USDC, WETH and the native coin priced as WETH, with the bridge contracts and the filler key', () => {
    const [eth] = devnetBridgeConfig(manifest).networks;
    expect(eth).toEqual({
      network: 'ethereum',
      chainId: 1,
      escrow: manifest.networks[0]!.contracts.bridgeEscrow,
      settler: manifest.networks[0]!.contracts.bridgeSettler,
      tokens: [
        { symbol: 'WETH', address: WETH.ethereum, decimals: 18, priceUsd: 3000 },
        { symbol: 'USDC', address: USDC.ethereum, decimals: 6, priceUsd: 1 },
        { symbol: 'ETH', address: NATIVE_TOKEN, decimals: 18, priceUsd: 3000 },
      ],
    });
    expect(devnetFillerKey(manifest)).toBe(filler.privateKey);
    const stale = { networks: [{ ...manifest.networks[0]!, contracts: {} }] };
    expect(() => devnetBridgeConfig(stale)).toThrow(/no bridge contracts for ethereum; rebuild/);
    const twoKeys = { networks: manifest.networks.map((n, i) => ({ ...n, accounts: { filler: { address: '0x', privateKey: `0x0${i}` } } })) };
    expect(() => devnetFillerKey(twoKeys)).toThrow(/one filler key/);
  });

  it('routes the same symbols between two different known networks', () => {
    expect(provider.route('ethereum', 'base')).toEqual({
      originNetwork: 'ethereum',
      destinationNetwork: 'base',
      tokens: [
        { symbol: 'WETH', originToken: WETH.ethereum, destinationToken: WETH.base, originDecimals: 18, destinationDecimals: 18 },
        { symbol: 'USDC', originToken: USDC.ethereum, destinationToken: USDC.base, originDecimals: 6, destinationDecimals: 6 },
        { symbol: 'ETH', originToken: NATIVE_TOKEN, destinationToken: NATIVE_TOKEN, originDecimals: 18, destinationDecimals: 18 },
      ],
    });
    expect(provider.route('base', 'ethereum')?.tokens.map((t) => t.destinationToken)).toEqual([WETH.ethereum, USDC.ethereum, NATIVE_TOKEN]);
    expect(provider.route('ethereum', 'ethereum')).toBeUndefined();
    expect(provider.route('ethereum', 'arbitrum')).toBeUndefined();
  });

  it('charges 0.05 % of the input with a minimum of 3 cents', () => {
    const usdc = devnetBridgeConfig(manifest).networks[0]!.tokens[1]!;
    const eth = devnetBridgeConfig(manifest).networks[0]!.tokens[2]!;
    expect(provider.fee(usdc, 100_000_000n)).toBe(50_000n); // 100 USDC -> 0.05 USDC
    expect(provider.fee(usdc, 10_000_000n)).toBe(30_000n); // 10 USDC: 0.005 < the 0.03 minimum
    expect(provider.fee(usdc, 100_000_001n)).toBe(50_001n); // rounded up, never down
    expect(provider.fee(eth, 10n ** 18n)).toBe(5n * 10n ** 14n);
    expect(provider.fee(eth, 10n ** 15n)).toBe(10n ** 13n); // $3 of ETH: the minimum, $0.03 = 0.00001 ETH
    expect(provider.fee({ ...usdc, priceUsd: undefined }, 10_000_000n)).toBe(5_000n);
    expect(rescale(123_456_789_000_000n, 18, 6)).toBe(123n); // rounded down
    expect(rescale(123n, 6, 18)).toBe(123n * 10n ** 12n);
  });

  it('refuses unknown pairs with BridgeQuoteError codes', async () => {
    const q = (inputToken: string, outputToken: string, destinationNetwork: 'base' | 'ethereum' = 'base') => provider.quote({ originNetwork: 'ethereum', destinationNetwork, inputToken, inputAmount: 10n ** 8n, outputToken });
    await expect(q(USDC.ethereum, USDC.base, 'ethereum')).rejects.toMatchObject({ code: 'NO_ROUTE' });
    await expect(q(manifest.networks[0]!.tokens[2]!.address, manifest.networks[1]!.tokens[2]!.address)).rejects.toMatchObject({ code: 'UNSUPPORTED_TOKEN' });
    await expect(q(USDC.ethereum, WETH.base)).rejects.toMatchObject({ code: 'UNSUPPORTED_TOKEN', message: expect.stringContaining('delivers USDC on base as') });
    await expect(provider.quote({ originNetwork: 'ethereum', destinationNetwork: 'base', inputToken: USDC.ethereum, inputAmount: 30_000n, outputToken: USDC.base })).rejects.toBeInstanceOf(BridgeQuoteError);
  });

  it('builds the deposit call: escrow, amount offset, value for native, approval for ERC-20', () => {
    const quote: BridgeQuote = {
      provider: 'devnet-bridge',
      originNetwork: 'ethereum',
      destinationNetwork: 'base',
      originChainId: 1,
      destinationChainId: 8453,
      inputToken: USDC.ethereum,
      inputAmount: 100_000_000n,
      outputToken: USDC.base,
      outputAmount: 99_950_000n,
      fee: 50_000n,
      estimatedSeconds: 30,
      fillDeadline: 1_900_000_000,
    };
    const recipient = Wallet.createRandom().address;
    const refundTo = Wallet.createRandom().address;
    const call = provider.depositCall({ quote, depositor: refundTo, recipient, refundTo });
    expect(call).toMatchObject({ to: getAddress(manifest.networks[0]!.contracts.bridgeEscrow!), value: 0n, amountOffset: DEPOSIT_INPUT_AMOUNT_OFFSET, approvalToken: USDC.ethereum });
    const [d] = bridgeEscrowInterface().decodeFunctionData('deposit', call.data) as unknown as [Record<string, unknown>];
    expect([d['inputAmount'], d['destinationChainId'], d['outputAmount'], d['recipient'], d['refundTo'], d['fillDeadline']]).toEqual([100_000_000n, 8453n, 99_950_000n, recipient, refundTo, 1_900_000_000n]);
    const word = `0x${call.data.slice(2 + call.amountOffset * 2, 2 + call.amountOffset * 2 + 64)}`;
    expect(AbiCoder.defaultAbiCoder().decode(['uint256'], word)[0]).toBe(100_000_000n);

    const native = provider.depositCall({ quote: { ...quote, inputToken: NATIVE_TOKEN, outputToken: NATIVE_TOKEN, inputAmount: 10n ** 18n }, depositor: refundTo, recipient, refundTo });
    expect(native).toMatchObject({ value: 10n ** 18n, approvalToken: undefined });
    expect(() => provider.depositCall({ quote: { ...quote, provider: 'other' }, depositor: refundTo, recipient, refundTo })).toThrow(/other quote/);
    expect(() => provider.depositCall({ quote, depositor: 'nope', recipient, refundTo })).toThrow();
  });
});
