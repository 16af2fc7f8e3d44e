/**
 * Front-running a signed order, on a private devnet through the quote service's real wiring: the
 * order and its signature are public once submitted (mempool, logs), so a third party may send
 * them first, with calls of its own that pay the recipient just above the minimum and keep the
 * rest, or with the quoted calls to take the relayer's fee. The signature covers the route
 * (`routeHash`) and the submitter (the service's relayer), so both revert, and the service's relay
 * still executes the order with the full output for the recipient.
 */
import { Interface, JsonRpcProvider, MaxUint256, Wallet, parseEther } from 'ethers';
import { JsonRpcClient } from '@tokensvc/chain';
import {
  type ExecutorCall,
  type SignedRouterOrder,
  decodeRouterError,
  encodeExecuteSignedOrder,
  routeHash,
  transferAllCall,
} from '@tokensvc/contracts';
import {
  TEST_ACCOUNTS,
  manifestToken,
  networkManifest,
  startDevnet,
  type DevnetHandle,
  type NetworkManifest,
  relayerKeyEnv,
} from '@tokensvc/devnet';
import type { OrderReply, StoredOrderReply } from '@tokensvc/messages';
import { dropDatabase, migrate } from '@tokensvc/persistence';
import { INFRA, createTestDatabaseUrl } from '@tokensvc/testing';
import { BuildOrderUseCase } from '../orders/build-order.usecase';
import { TestPoolEvents } from '../testing/pool-events';
import { startQuoteHarness, type QuoteHarness } from '../testing/quote-harness';
import { seedReadModels } from '../testing/read-models';
import { OrderStore } from './order-store';
import { Relayer } from './relayer';
import { SubmitOrderUseCase } from './submit-order.usecase';

jest.setTimeout(300_000);

const ERC20 = new Interface([
  'function transfer(address,uint256) returns (bool)',
  'function approve(address,uint256) returns (bool)',
  'function balanceOf(address) view returns (uint256)',
]);

describe('a signed order is bound to its route and its submitter (front-running on a devnet)', () => {
  let devnet: DevnetHandle;
  let net: NetworkManifest;
  let rpc: JsonRpcClient;
  let provider: JsonRpcProvider;
  let databaseUrl: string;
  let events: TestPoolEvents;
  let harness: QuoteHarness;
  let funder: Wallet;
  let attacker: Wallet;
  let usdc: string;
  let weth: string;
  const key = (address: string): string => `ethereum:${address.toLowerCase()}`;

  beforeAll(async () => {
    // Apart from the shared test devnet's ports (TEST_DEVNET_BASE_PORT moves both, for two runs on one machine).
    devnet = await startDevnet({
      networks: ['ethereum'],
      basePort: Number(process.env['TEST_DEVNET_BASE_PORT'] ?? 18545) + 20_000,
      log: () => undefined,
    });
    net = networkManifest(devnet.manifest, 'ethereum');
    rpc = new JsonRpcClient(devnet.rpcUrls['ethereum']!);
    databaseUrl = createTestDatabaseUrl('quote_route_binding');
    await migrate(databaseUrl);
    await seedReadModels(databaseUrl, rpc, net);
    events = await TestPoolEvents.create(INFRA.nats, 'routebind');
    harness = await startQuoteHarness({
      databaseUrl,
      natsUrl: INFRA.nats,
      rpcUrl: devnet.rpcUrls['ethereum']!,
      manifestPath: devnet.manifestPath,
      relayerKeys: relayerKeyEnv(devnet.manifestPath),
      stream: events.stream,
      prefix: events.prefix,
      env: {
        RELAY_POLL_MS: '50',
        RELAY_QUEUE_PREFIX: `routebind${Date.now().toString(36)}`,
        RELAY_SUBMISSIONS_PER_CALLER_PER_MINUTE: '100000',
      },
    });
    provider = new JsonRpcProvider(devnet.rpcUrls['ethereum']!, 1, { staticNetwork: true, cacheTimeout: -1 });
    provider.pollingInterval = 20;
    funder = new Wallet(TEST_ACCOUNTS[1]!.privateKey, provider);
    attacker = new Wallet(Wallet.createRandom().privateKey, provider);
    await (await funder.sendTransaction({ to: attacker.address, value: parseEther('10') })).wait(1, 30_000);
    usdc = manifestToken(net, 'USDC').address.toLowerCase();
    weth = manifestToken(net, 'WETH').address.toLowerCase();
  }, 180_000);

  afterAll(async () => {
    provider?.destroy();
    await harness?.close();
    await events?.dispose();
    await devnet?.stop();
    if (databaseUrl) await dropDatabase(databaseUrl);
  });

  const balanceOf = async (token: string, owner: string): Promise<bigint> =>
    BigInt(await provider.call({ to: token, data: ERC20.encodeFunctionData('balanceOf', [owner]) }));

  /** A wallet holding `amount` USDC with the Router approved, and no native token. */
  async function gaslessWallet(amount: bigint): Promise<Wallet> {
    const w = new Wallet(Wallet.createRandom().privateKey, provider);
    await (await funder.sendTransaction({ to: w.address, value: parseEther('1') })).wait(1, 30_000);
    await (await funder.sendTransaction({ to: usdc, data: ERC20.encodeFunctionData('transfer', [w.address, amount]) })).wait(1, 30_000);
    await (
      await w.sendTransaction({ to: usdc, data: ERC20.encodeFunctionData('approve', [net.contracts.router, MaxUint256]) })
    ).wait(1, 30_000);
    await rpc.call('anvil_setBalance', [w.address, '0x0']);
    return w;
  }

  /** The typed-data value as the Router struct (the relayer's own parsing is under test elsewhere). */
  const struct = (v: Record<string, unknown>): SignedRouterOrder => ({
    sender: String(v['sender']),
    inputToken: String(v['inputToken']),
    inputAmount: BigInt(String(v['inputAmount'])),
    outputToken: String(v['outputToken']),
    minOutputAmount: BigInt(String(v['minOutputAmount'])),
    recipient: String(v['recipient']),
    partner: String(v['partner']),
    feeBps: Number(v['feeBps']),
    relayerFee: BigInt(String(v['relayerFee'])),
    submitter: String(v['submitter']),
    routeHash: String(v['routeHash']),
    nonce: BigInt(String(v['nonce'])),
    deadline: BigInt(String(v['deadline'])),
  });

  /** The revert an eth_call of `data` from `from` ends in, decoded with the Router's ABI. */
  async function revertOf(from: string, data: string): Promise<{ name: string; args: unknown[] }> {
    const err = await provider.call({ from, to: net.contracts.router, data }).then(
      () => undefined,
      (e: { data?: string }) => e,
    );
    expect(err).toBeDefined();
    const decoded = decodeRouterError(err!.data ?? '0x');
    return { name: decoded?.name ?? `undecoded ${err!.data}`, args: decoded?.args ?? [] };
  }

  async function waitFinal(relayer: Relayer, orderId: string): Promise<StoredOrderReply> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const s = await relayer.status(orderId);
      if (s.relay!.status !== 'pending' && s.relay!.status !== 'quoted') return s;
      if (Date.now() > deadline) throw new Error(`order ${orderId} still ${s.relay!.status}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('a third party sending the order with its own calls, or from its own account, reverts; the service relays it in full', async () => {
    const w = await gaslessWallet(200_000_000n);
    const order: OrderReply = await harness.app.get(BuildOrderUseCase).execute({
      sender: w.address.toLowerCase(),
      inputToken: key(usdc),
      inputAmount: '100000000',
      outputToken: key(weth),
      slippageTolerancePercentage: 2,
    });
    const ctx = order.context!;
    const value = order.signedOrder!.value as Record<string, unknown>;
    // The signed terms name the quoted route and the service's relayer.
    expect(value['routeHash']).toBe(ctx.routeHash);
    expect(value['submitter']).toBe(net.accounts.relayer.address.toLowerCase());
    expect(order.signedOrder!.types!['SignedOrder']).toEqual(
      expect.arrayContaining([
        { name: 'routeHash', type: 'bytes32' },
        { name: 'submitter', type: 'address' },
      ]),
    );
    const signature = await w.signTypedData(order.signedOrder!.domain as never, order.signedOrder!.types as never, value);

    // What a front-runner sends: 1 % of the input to itself first, the quoted route on the rest.
    const quoted = (await harness.app.get(OrderStore).find(ctx.orderId))!.calls;
    expect(routeHash(quoted)).toBe(ctx.routeHash);
    const skim = transferAllCall(usdc, attacker.address);
    const stealing: ExecutorCall[] = [{ ...skim, inputs: [{ ...skim.inputs[0]!, bps: 100 }] }, ...quoted];
    const signed = struct(value);
    // Before the binding, this route executed and paid the recipient above the minimum; now each account gets its own refusal.
    expect(await revertOf(attacker.address, encodeExecuteSignedOrder(signed, signature, stealing))).toEqual({
      name: 'SubmitterNotAllowed',
      args: [attacker.address, net.accounts.relayer.address],
    });
    expect(await revertOf(net.accounts.relayer.address, encodeExecuteSignedOrder(signed, signature, stealing))).toEqual({
      name: 'RouteMismatch',
      args: [ctx.routeHash, routeHash(stealing)],
    });
    // The quoted calls from another account: refused as well (the relayer's fee is not up for grabs).
    expect(await revertOf(attacker.address, encodeExecuteSignedOrder(signed, signature, quoted))).toEqual({
      name: 'SubmitterNotAllowed',
      args: [attacker.address, net.accounts.relayer.address],
    });
    // Rewriting the bound terms breaks the signature.
    expect(
      (
        await revertOf(
          attacker.address,
          encodeExecuteSignedOrder({ ...signed, submitter: attacker.address, routeHash: routeHash(stealing) }, signature, stealing),
        )
      ).name,
    ).toBe('InvalidSignature');
    // On chain, too: the attacker's transactions are mined and revert.
    for (const calls of [stealing, quoted]) {
      const tx = await attacker.sendTransaction({
        to: net.contracts.router,
        data: encodeExecuteSignedOrder(signed, signature, calls),
        gasLimit: 2_000_000n,
      });
      expect((await tx.wait(1, 30_000).catch((e: { receipt?: { status: number } }) => e.receipt))?.status).toBe(0);
    }
    expect(await balanceOf(usdc, attacker.address)).toBe(0n);
    expect(await balanceOf(usdc, w.address)).toBe(200_000_000n);

    // The service's relay sends the same order and signature with the quoted calls: executed in full.
    const relayer = harness.app.get(Relayer);
    await harness.app.get(SubmitOrderUseCase).execute({ orderId: ctx.orderId, signature, caller: 'route-binding' });
    const final = await waitFinal(relayer, ctx.orderId);
    expect(final.relay).toMatchObject({ status: 'mined', relayer: net.accounts.relayer.address.toLowerCase() });
    const received = await balanceOf(weth, w.address);
    expect(received).toBeGreaterThanOrEqual(BigInt(ctx.minOutputAmountSignedOrder));
    expect(final.relay!.receivedAmount).toBe(received.toString());
    expect(await balanceOf(usdc, w.address)).toBe(100_000_000n);
    expect(await balanceOf(usdc, attacker.address)).toBe(0n);
  });
});
