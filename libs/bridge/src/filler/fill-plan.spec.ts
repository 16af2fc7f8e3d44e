import { Wallet } from 'ethers';
import type { ApprovalRequest, BuildOrderRequest } from '@tokensvc/messages';
import { type BridgeManifestLike, NATIVE_TOKEN, devnetBridgeConfig } from '../devnet-config';
import { DevnetBridgeProvider } from '../devnet-provider';
import type { BridgeDepositInfo } from '../provider';
import { QuoteServiceSwapper } from './destination-swapper';
import { Filler } from './filler';

const USDC = { ethereum: '0x1111111111111111111111111111111111111111', base: '0x2222222222222222222222222222222222222222' };
const WETH = { ethereum: '0x3333333333333333333333333333333333333333', base: '0x4444444444444444444444444444444444444444' };
const VAULT_ON_BASE = '0x5555555555555555555555555555555555555555';
const filler = Wallet.createRandom();
const manifest: BridgeManifestLike = {
  networks: (['ethereum', 'base'] as const).map((network, i) => ({
    network,
    chainId: network === 'ethereum' ? 1 : 8453,
    tokens: [
      { symbol: 'WETH', address: WETH[network], decimals: 18, priceUsd: 3000 },
      { symbol: 'USDC', address: USDC[network], decimals: 6, priceUsd: 1 },
    ],
    contracts: { bridgeEscrow: `0x${'e'.repeat(39)}${i}`, bridgeSettler: `0x${'f'.repeat(39)}${i}` },
    accounts: { filler: { address: filler.address, privateKey: filler.privateKey } },
  })),
};

const provider = new DevnetBridgeProvider({ config: devnetBridgeConfig(manifest), rpcUrls: {} });

function deposit(o: Partial<BridgeDepositInfo>): BridgeDepositInfo {
  return {
    requestId: `0x${'ab'.repeat(32)}`,
    originNetwork: 'ethereum',
    originChainId: 1,
    destinationNetwork: 'base',
    destinationChainId: 8453,
    depositor: filler.address,
    inputToken: USDC.ethereum,
    inputAmount: 100_000_000n,
    outputToken: USDC.base,
    outputAmount: 99_950_000n,
    recipient: filler.address,
    refundTo: filler.address,
    fillDeadline: 1_900_000_000,
    txHash: `0x${'cd'.repeat(32)}`,
    blockNumber: 1,
    logIndex: 0,
    ...o,
  };
}

describe('what a deposit brings and how the filler takes it (no chain access)', () => {
  const f = new Filler({ provider, privateKey: filler.privateKey, log: () => undefined });

  it('bridgedAmount is the quote\'s outputAmount: the input less the bridge fee, in destination units', async () => {
    expect(provider.bridgedAmount('ethereum', 'base', USDC.ethereum, 100_000_000n)).toMatchObject({ token: { symbol: 'USDC', destinationToken: USDC.base }, amount: 99_950_000n });
    expect(provider.bridgedAmount('ethereum', 'base', USDC.ethereum, 10_000_000n).amount).toBe(9_970_000n); // the $0.03 minimum fee
    expect(provider.bridgedAmount('ethereum', 'base', USDC.ethereum, 30_000n).amount).toBe(0n); // all of it is fee
    expect(provider.bridgedAmount('ethereum', 'base', NATIVE_TOKEN, 10n ** 18n)).toMatchObject({ token: { symbol: 'ETH' }, amount: 10n ** 18n - 5n * 10n ** 14n });
    // Provider quotes cannot be made offline (they read both chains' clocks); the fee maths is the same.
    const fee = provider.fee(devnetBridgeConfig(manifest).networks[0]!.tokens[1]!, 123_456_789n);
    expect(provider.bridgedAmount('ethereum', 'base', USDC.ethereum, 123_456_789n).amount).toBe(123_456_789n - fee);
    expect(() => provider.bridgedToken('ethereum', 'base', '0x9999999999999999999999999999999999999999')).toThrow(/does not bridge/);
  });

  it('the bridged token itself: paid from inventory, everything the deposit brought and never less than it asks', () => {
    expect(f.fillPlan(deposit({}))).toEqual({ kind: 'direct', amount: 99_950_000n });
    // An origin swap that did better than its minimum deposited more: the recipient gets all of it.
    expect(f.fillPlan(deposit({ inputAmount: 101_000_000n }))).toEqual({ kind: 'direct', amount: 101_000_000n - 50_500n });
    // A deposit that leaves the bridge no fee is still paid what it asks (the filler's loss, as before).
    expect(f.fillPlan(deposit({ outputAmount: 100_000_000n }))).toEqual({ kind: 'direct', amount: 100_000_000n });
    expect(f.fillPlan(deposit({ outputAmount: 100_000_001n }))).toMatch(/asks for 100000001 USDC base units for 100000000/);
  });

  it('another token (composed, basic or native): a destination swap spending what the deposit brought in the bridged token', () => {
    expect(f.fillPlan(deposit({ outputToken: VAULT_ON_BASE, outputAmount: 90_000_000_000_000_000n }))).toEqual({ kind: 'swap', bridgedToken: USDC.base, spend: 99_950_000n });
    expect(f.fillPlan(deposit({ inputToken: WETH.ethereum, inputAmount: 10n ** 18n, outputToken: NATIVE_TOKEN, outputAmount: 1n }))).toEqual({ kind: 'swap', bridgedToken: WETH.base, spend: 10n ** 18n - 5n * 10n ** 14n });
    expect(f.fillPlan(deposit({ inputAmount: 20_000n, outputToken: VAULT_ON_BASE }))).toMatch(/do not cover the bridge fee/);
    expect(f.fillPlan(deposit({ inputToken: '0x9999999999999999999999999999999999999999' }))).toMatch(/does not bridge/);
  });
});

describe('QuoteServiceSwapper: the destination swap as a quote-service order from the filler to itself', () => {
  const me = filler.address;
  const requests: { build: BuildOrderRequest[]; approval: ApprovalRequest[] } = { build: [], approval: [] };
  const reply = { value: '0', outputAmount: '1000', minOutputAmount: '995' };
  const swapper = new QuoteServiceSwapper(
    {
      buildOrder: async (r) => {
        requests.build.push(r);
        return {
          context: { outputAmount: reply.outputAmount, minOutputAmount: reply.minOutputAmount, route: ['base:a', 'base:b'], gasLimit: '150000' } as never,
          tx: { to: '0xrouter', data: '0xdata', value: reply.value, gasLimit: '180000' },
        };
      },
      approval: async (r) => {
        requests.approval.push(r);
        return { context: { network: 'base', shouldApprove: true, canPermit: false, spender: '0xrouter' } };
      },
    },
    me,
    { slippagePercent: 0.3 },
  );

  it('asks for a validated order of the spend, from and to the filler, at its slippage', async () => {
    const swap = await swapper.build({ network: 'base', inputToken: USDC.base, inputAmount: 99_950_000n, outputToken: VAULT_ON_BASE, recipient: me, minOutputAmount: 990n });
    expect(requests.build[0]).toEqual({
      sender: me.toLowerCase(),
      inputToken: `base:${USDC.base}`,
      inputAmount: '99950000',
      outputToken: `base:${VAULT_ON_BASE}`,
      slippageTolerancePercentage: 0.3,
      validate: true,
    });
    expect(swap).toEqual({ to: '0xrouter', data: '0xdata', value: 0n, gasLimit: 180_000n, expectedOutput: 1000n, minOutput: 995n, route: ['base:a', 'base:b'] });
    await expect(swapper.build({ network: 'base', inputToken: USDC.base, inputAmount: 1n, outputToken: VAULT_ON_BASE, recipient: Wallet.createRandom().address, minOutputAmount: 1n })).rejects.toThrow(/recipient must be the filler/);
    reply.value = '5';
    await expect(swapper.build({ network: 'base', inputToken: USDC.base, inputAmount: 1n, outputToken: VAULT_ON_BASE, recipient: me, minOutputAmount: 1n })).rejects.toThrow(/sends 5 wei, expected 0/);
    reply.value = '0';
  });

  it('asks the spender once per network', async () => {
    expect(await swapper.spender('base', USDC.base)).toBe('0xrouter');
    expect(await swapper.spender('base', WETH.base)).toBe('0xrouter');
    expect(requests.approval).toEqual([{ sender: me.toLowerCase(), inputToken: `base:${USDC.base}`, inputAmount: '1' }]);
    expect(() => new QuoteServiceSwapper({ buildOrder: jest.fn(), approval: jest.fn() }, me, { slippagePercent: 0.05 })).toThrow(/between 0.1 and 10/);
  });
});
