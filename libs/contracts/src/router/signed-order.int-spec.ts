import { AbiCoder, MaxUint256, Signature, concat, getAddress, parseEther, toBeHex } from 'ethers';
import { transferAllCall, uniswapV2SwapCall } from './calls';
import { type ExecutorCall, encodeExecuteSignedOrder, routeHash, routerInterface } from './index';
import { SIGNED_ORDER_TYPES, signedOrderDigest, signedOrderDomain } from './signed-order';
import { NATIVE_TOKEN, type SignedRouterOrder } from './types';
import { revertOf, send, sendRaw } from './testing/reverts';
import { FAR_DEADLINE, type RouterWorld, eachTestOnRouterWorld } from './testing/router-world';

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

describe('Router on anvil: EIP-712 signed orders', () => {
  let w: RouterWorld;
  let A: string, B: string, R2: string, ROUTER: string;

  eachTestOnRouterWorld(async (world) => {
    w = world;
    [A, B, R2, ROUTER] = await Promise.all([w.tokenA.getAddress(), w.tokenB.getAddress(), w.v2Router.getAddress(), w.router.getAddress()]);
    // The user approves the router once; the relayer submits and pays the gas.
    await send(w.trader, { to: A, data: w.tokenA.interface.encodeFunctionData('approve', [ROUTER, MaxUint256]) });
  });

  const amountIn = parseEther('500');
  const relayerFee = parseEther('1');
  const signedOrder = (o: Partial<SignedRouterOrder> = {}): SignedRouterOrder => ({
    sender: w.trader.address,
    inputToken: A,
    inputAmount: amountIn,
    outputToken: B,
    minOutputAmount: 0n,
    recipient: w.recipient,
    partner: w.partner,
    feeBps: 30,
    relayerFee,
    submitter: w.relayer.address,
    routeHash: routeHash(calls()),
    nonce: 7n,
    deadline: FAR_DEADLINE,
    ...o,
  });
  const sign = (o: SignedRouterOrder, router = ROUTER) =>
    w.trader.signTypedData(signedOrderDomain(w.chainId, router), SIGNED_ORDER_TYPES, o);
  const calls = () => [uniswapV2SwapCall({ router02: R2, path: [A, B], to: w.executor, deadline: FAR_DEADLINE })];
  const submit = (o: SignedRouterOrder, signature: string, route: ExecutorCall[] = calls(), from = w.relayer.address) => ({
    from,
    to: ROUTER,
    data: encodeExecuteSignedOrder(o, signature, route),
  });

  it('executes an order signed by the sender and submitted by a relayer, once', async () => {
    const fee = (amountIn * 30n) / 10_000n;
    const expected = await w.quoteV2(amountIn - fee - relayerFee, [A, B]);
    const order = signedOrder({ minOutputAmount: expected });
    const signature = await sign(order);
    expect(await w.router.getFunction('hashSignedOrder')(order)).toBe(signedOrderDigest(w.chainId, ROUTER, order));
    const traderBefore = await w.balanceOf(w.tokenA, w.trader.address);

    const receipt = await send(w.relayer, submit(order, signature));

    expect(await w.balanceOf(w.tokenB, w.recipient)).toBe(expected);
    expect(await w.balanceOf(w.tokenA, w.relayer.address)).toBe(relayerFee);
    expect(await w.balanceOf(w.tokenA, w.partner)).toBe(fee);
    expect(traderBefore - (await w.balanceOf(w.tokenA, w.trader.address))).toBe(amountIn);
    expect(await w.router.getFunction('isNonceUsed')(w.trader.address, 7n)).toBe(true);
    const events = receipt.logs.map((l) => routerInterface().parseLog(l)?.name).filter(Boolean);
    expect(events).toEqual(expect.arrayContaining(['OrderExecuted', 'PartnerFeePaid', 'SignedOrderExecuted']));

    // Replaying the same signed order fails, in a call and on chain.
    expect((await revertOf(w.provider, submit(order, signature))).name).toBe('NonceUsed');
    expect((await sendRaw(w.relayer, submit(order, signature))).status).toBe(0);
    expect(await w.balanceOf(w.tokenB, w.recipient)).toBe(expected);
  });

  it('rejects an expired order', async () => {
    const block = await w.provider.getBlock('latest');
    const order = signedOrder({ deadline: BigInt(block!.timestamp) - 1n });
    expect((await revertOf(w.provider, submit(order, await sign(order)))).name).toBe('Expired');
  });

  it('rejects the high-s twin of a valid signature (malleability) but accepts the low-s original', async () => {
    const order = signedOrder();
    const sig = Signature.from(await sign(order));
    const highS = concat([sig.r, toBeHex(SECP256K1_N - BigInt(sig.s), 32), toBeHex(sig.v === 27 ? 28 : 27, 1)]);
    // The twin is a valid ECDSA signature of the same digest by the same key (ecrecover agrees)...
    const ecrecoverInput = AbiCoder.defaultAbiCoder().encode(
      ['bytes32', 'uint8', 'bytes32', 'bytes32'],
      [signedOrderDigest(w.chainId, ROUTER, order), sig.v === 27 ? 28 : 27, sig.r, toBeHex(SECP256K1_N - BigInt(sig.s), 32)],
    );
    const recovered = await w.provider.call({ to: '0x0000000000000000000000000000000000000001', data: ecrecoverInput });
    expect(getAddress(`0x${recovered.slice(-40)}`)).toBe(w.trader.address);
    // ...which the router refuses: only the canonical form is accepted.
    expect((await revertOf(w.provider, submit(order, highS))).name).toBe('InvalidSignature');
    await send(w.relayer, submit(order, sig.serialized));
  });

  it('rejects a signature over different terms, another router, another signer, or a native input', async () => {
    const order = signedOrder();
    const signature = await sign(order);
    expect((await revertOf(w.provider, submit({ ...order, minOutputAmount: 1n }, signature))).name).toBe('InvalidSignature');
    expect((await revertOf(w.provider, submit({ ...order, recipient: w.attacker.address }, signature))).name).toBe('InvalidSignature');
    expect((await revertOf(w.provider, submit(order, await sign(order, w.executor)))).name).toBe('InvalidSignature');
    const byAttacker = await w.attacker.signTypedData(signedOrderDomain(w.chainId, ROUTER), SIGNED_ORDER_TYPES, order);
    expect((await revertOf(w.provider, submit(order, byAttacker))).name).toBe('InvalidSignature');
    const native = signedOrder({ inputToken: NATIVE_TOKEN });
    expect((await revertOf(w.provider, submit(native, await sign(native)))).name).toBe('NativeNotSupported');
  });

  /**
   * Front-running: whoever sees an order and its signature (the mempool, a log) submits it first
   * with calls of its own that pay the recipient just over minOutputAmount and keep the rest.
   */
  describe('the signature binds the route and the submitter', () => {
    const slippageOrder = async (o: Partial<SignedRouterOrder>): Promise<{ order: SignedRouterOrder; expected: bigint }> => {
      const fee = (amountIn * 30n) / 10_000n;
      const expected = await w.quoteV2(amountIn - fee - relayerFee, [A, B]);
      return { order: signedOrder({ minOutputAmount: (expected * 95n) / 100n, ...o }), expected };
    };
    /** 96 % of the input swapped into the executor (it pays the recipient), the other 4 % to the attacker. */
    const stealing = (): ExecutorCall[] => [
      uniswapV2SwapCall({ router02: R2, path: [A, B], to: w.executor, deadline: FAR_DEADLINE, bps: 9_600 }),
      transferAllCall(A, w.attacker.address),
    ];

    it('refuses the order run through other calls (RouteMismatch), even open to any submitter; the signed route still executes', async () => {
      const { order, expected } = await slippageOrder({ submitter: NATIVE_TOKEN });
      const signature = await sign(order);
      // The stealing route satisfies every other check: it would pay the recipient above the minimum.
      expect(
        (await w.quoteV2(((amountIn - (amountIn * 30n) / 10_000n - relayerFee) * 9_600n) / 10_000n, [A, B])) >= order.minOutputAmount,
      ).toBe(true);

      const err = await revertOf(w.provider, submit(order, signature, stealing(), w.attacker.address));
      expect({ name: err.name, args: err.args }).toEqual({ name: 'RouteMismatch', args: [order.routeHash, routeHash(stealing())] });
      expect((await sendRaw(w.attacker, submit(order, signature, stealing(), w.attacker.address))).status).toBe(0);
      // Claiming the stealing route's hash breaks the signature instead.
      expect(
        (await revertOf(w.provider, submit({ ...order, routeHash: routeHash(stealing()) }, signature, stealing(), w.attacker.address)))
          .name,
      ).toBe('InvalidSignature');
      expect(await w.balanceOf(w.tokenA, w.attacker.address)).toBe(0n);
      expect(await w.router.getFunction('isNonceUsed')(w.trader.address, order.nonce)).toBe(false);

      // Anyone may submit it with the signed calls (submitter 0), and the recipient gets the whole quote.
      await send(w.attacker, submit(order, signature, calls(), w.attacker.address));
      expect(await w.balanceOf(w.tokenB, w.recipient)).toBe(expected);
      expect(await w.balanceOf(w.tokenA, w.attacker.address)).toBe(relayerFee);
    });

    it('refuses the signed route from anyone but the named submitter (SubmitterNotAllowed); the submitter executes it', async () => {
      const { order, expected } = await slippageOrder({});
      const signature = await sign(order);
      const err = await revertOf(w.provider, submit(order, signature, calls(), w.attacker.address));
      expect({ name: err.name, args: err.args }).toEqual({ name: 'SubmitterNotAllowed', args: [w.attacker.address, w.relayer.address] });
      expect((await sendRaw(w.attacker, submit(order, signature, calls(), w.attacker.address))).status).toBe(0);
      // Naming itself the submitter breaks the signature.
      expect(
        (await revertOf(w.provider, submit({ ...order, submitter: w.attacker.address }, signature, calls(), w.attacker.address))).name,
      ).toBe('InvalidSignature');
      expect((await revertOf(w.provider, submit(order, signature, stealing()))).name).toBe('RouteMismatch');

      await send(w.relayer, submit(order, signature));
      expect(await w.balanceOf(w.tokenB, w.recipient)).toBe(expected);
      expect(await w.balanceOf(w.tokenA, w.relayer.address)).toBe(relayerFee);
      expect(await w.balanceOf(w.tokenA, w.attacker.address)).toBe(0n);
    });
  });

  it('lets the sender cancel an open order by invalidating its nonce', async () => {
    const order = signedOrder({ nonce: 2n ** 200n + 5n });
    const signature = await sign(order);
    await send(w.trader, { to: ROUTER, data: routerInterface().encodeFunctionData('invalidateNonce', [order.nonce]) });
    expect((await revertOf(w.provider, submit(order, signature))).name).toBe('NonceUsed');
    // Other nonces of the same word stay usable.
    const other = signedOrder({ nonce: 2n ** 200n + 6n });
    await send(w.relayer, submit(other, await sign(other)));
  });
});
