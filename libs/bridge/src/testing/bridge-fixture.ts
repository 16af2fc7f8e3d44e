/**
 * Fixture of the bridge provider and filler tests: the bridge world of libs/contracts (two private
 * anvils with chain ids 1 and 8453, i.e. "ethereum" and "base", each with the bridge and a 6-decimal
 * token, here called USDC) plus a DevnetBridgeProvider over it and a user who deposits through it.
 */
import { type Contract, MaxUint256, type TransactionReceipt, Wallet, encodeBytes32String } from 'ethers';
import { type BridgeChain, type BridgeWorld, encodeSetAttester, sendOk, startBridgeWorld } from '@tokensvc/contracts';
import type { Network } from '@tokensvc/domain';
import { type DevnetBridgeConfig, NATIVE_TOKEN } from '../devnet-config';
import { DevnetBridgeProvider } from '../devnet-provider';
import type { BridgeDepositInfo, BridgeQuote } from '../provider';

export interface BridgeFixture {
  world: BridgeWorld;
  /** chain 1, "ethereum" */
  origin: BridgeChain;
  /** chain 8453, "base" */
  destination: BridgeChain;
  config: DevnetBridgeConfig;
  provider: DevnetBridgeProvider;
  rpcUrls: Partial<Record<Network, string>>;
  /** the filler's key (also the attester of both escrows when `fillerAttests`) */
  fillerKey: string;
  /** the user deposits `amount` of USDC or ETH from the origin to the destination, through the provider */
  deposit(token: 'USDC' | 'ETH', amount: bigint, opts?: { recipient?: string; refundTo?: string }): Promise<{ quote: BridgeQuote; info: BridgeDepositInfo; receipt: TransactionReceipt }>;
  /** moves both chains' clocks forward (and mines a block on each) */
  passTime(seconds: number): Promise<void>;
  stop(): Promise<void>;
}

const addr = (c: Contract) => c.target as string;

export async function startBridgeFixture(opts: { fillerAttests?: boolean; logRange?: number } = {}): Promise<BridgeFixture> {
  const world = await startBridgeWorld(1, 8453);
  const { origin, destination } = world;
  try {
    if (opts.fillerAttests) {
      // As on the devnet: the filler confirms its own fills.
      for (const chain of [origin, destination]) await sendOk(world.deployer.on(chain), { to: addr(chain.escrow), data: encodeSetAttester(world.filler.address) });
    }
    const side = (network: Network, chain: BridgeChain) => ({
      network,
      chainId: Number(chain.chainId),
      escrow: addr(chain.escrow),
      settler: addr(chain.settler),
      tokens: [
        { symbol: 'USDC', address: addr(chain.token), decimals: 6, priceUsd: 1 },
        { symbol: 'ETH', address: NATIVE_TOKEN, decimals: 18, priceUsd: 3000 },
      ],
    });
    const config: DevnetBridgeConfig = { networks: [side('ethereum', origin), side('base', destination)] };
    const rpcUrls = { ethereum: origin.anvil.rpcUrl, base: destination.anvil.rpcUrl };
    const provider = new DevnetBridgeProvider({ config, rpcUrls, logRange: opts.logRange, rpc: { retry: { attempts: 2, baseDelayMs: 50, maxDelayMs: 200 } } });
    return {
      world,
      origin,
      destination,
      config,
      provider,
      rpcUrls,
      fillerKey: world.filler.on(origin).privateKey,
      async deposit(token, amount, o = {}) {
        const route = provider.route('ethereum', 'base')!.tokens.find((t) => t.symbol === token)!;
        const quote = await provider.quote({ originNetwork: 'ethereum', destinationNetwork: 'base', inputToken: route.originToken, inputAmount: amount, outputToken: route.destinationToken });
        const call = provider.depositCall({ quote, depositor: world.user.address, recipient: o.recipient ?? Wallet.createRandom().address, refundTo: o.refundTo ?? world.user.address });
        // Approved every time: tests revert the chains to snapshots, approvals included.
        if (call.approvalToken) await sendOk(world.user.on(origin), { to: call.approvalToken, data: origin.token.interface.encodeFunctionData('approve', [call.to, MaxUint256]) });
        const receipt = await sendOk(world.user.on(origin), { to: call.to, data: call.data, value: call.value });
        const [info] = await provider.findDeposit('ethereum', receipt.hash);
        if (!info) throw new Error(`deposit ${receipt.hash} created no DepositCreated event`);
        return { quote, info, receipt };
      },
      async passTime(seconds) {
        for (const chain of [origin, destination]) await chain.increaseTime(BigInt(seconds));
      },
      async stop() {
        await world.stop();
      },
    };
  } catch (err) {
    await world.stop();
    throw err;
  }
}

/** A request id no escrow has issued. */
export const UNKNOWN_REQUEST_ID = encodeBytes32String('no such request');
