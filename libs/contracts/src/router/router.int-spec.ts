import { type Contract, MaxUint256, Signature, Wallet, parseEther, parseUnits } from 'ethers';
import { unwrapAllCall, uniswapV2SwapCall, wrapAllCall } from './calls';
import { encodeExecute, encodeExecuteWithPermit, parseOrderExecuted } from './router';
import { routeHash } from './abi';
import { NATIVE_TOKEN, type RouterOrder } from './types';
import { revertOf, send, sendRaw } from './testing/reverts';
import { FAR_DEADLINE, type RouterWorld, eachTestOnRouterWorld } from './testing/router-world';

describe('Router on anvil: approved, permit and native orders', () => {
  let w: RouterWorld;
  let A: string, B: string, WETH: string, R2: string, ROUTER: string;

  eachTestOnRouterWorld(async (world) => {
    w = world;
    [A, B, WETH, R2, ROUTER] = await Promise.all([
      w.tokenA.getAddress(),
      w.tokenB.getAddress(),
      w.weth.getAddress(),
      w.v2Router.getAddress(),
      w.router.getAddress(),
    ]);
  });

  const order = (o: Partial<RouterOrder> & Pick<RouterOrder, 'inputToken' | 'inputAmount' | 'outputToken'>): RouterOrder => ({
    minOutputAmount: 0n,
    recipient: w.recipient,
    partner: w.partner,
    feeBps: 30,
    deadline: FAR_DEADLINE,
    ...o,
  });
  const swap = (path: string[], bps?: number) => uniswapV2SwapCall({ router02: R2, path, to: w.executor, deadline: FAR_DEADLINE, bps });
  const approve = async (token: Contract, owner: Wallet, amount: bigint) => {
    await send(owner, { to: await token.getAddress(), data: token.interface.encodeFunctionData('approve', [ROUTER, amount]) });
  };

  it('swaps an approved ERC-20 through Uniswap V2, takes the partner fee from the input and emits OrderExecuted', async () => {
    const amountIn = parseEther('1000');
    const fee = (amountIn * 30n) / 10_000n;
    const expected = await w.quoteV2(amountIn - fee, [A, B]);
    await approve(w.tokenA, w.trader, MaxUint256);
    const traderBefore = await w.balanceOf(w.tokenA, w.trader.address);
    const calls = [swap([A, B])];

    const receipt = await send(w.trader, {
      to: ROUTER,
      data: encodeExecute(order({ inputToken: A, inputAmount: amountIn, outputToken: B, minOutputAmount: expected }), calls),
    });

    expect(await w.balanceOf(w.tokenB, w.recipient)).toBe(expected);
    expect(await w.balanceOf(w.tokenA, w.partner)).toBe(fee);
    expect(traderBefore - (await w.balanceOf(w.tokenA, w.trader.address))).toBe(amountIn);
    for (const holder of [w.executor, ROUTER]) {
      expect(await w.balanceOf(w.tokenA, holder)).toBe(0n);
      expect(await w.balanceOf(w.tokenB, holder)).toBe(0n);
    }
    // The executor's approval to the V2 router lasted for the call only; nobody approved the executor.
    expect(await w.tokenA.getFunction('allowance')(w.executor, R2)).toBe(0n);
    expect(await w.tokenA.getFunction('allowance')(w.trader.address, w.executor)).toBe(0n);
    expect(parseOrderExecuted(receipt.logs, ROUTER)).toEqual([
      {
        sender: w.trader.address,
        inputToken: A,
        inputAmount: amountIn,
        outputToken: B,
        outputAmount: expected,
        recipient: w.recipient,
        fee,
        routeHash: routeHash(calls),
      },
    ]);
  });

  it('runs a split, multi-hop route with balance shares and delivers exactly the sum of both legs', async () => {
    const amountIn = parseEther('50000');
    const net = amountIn - (amountIn * 30n) / 10_000n;
    const direct = (net * 6_000n) / 10_000n;
    const expected = (await w.quoteV2(direct, [A, B])) + (await w.quoteV2(net - direct, [A, WETH, B]));
    await approve(w.tokenA, w.trader, amountIn);

    await send(w.trader, {
      to: ROUTER,
      data: encodeExecute(order({ inputToken: A, inputAmount: amountIn, outputToken: B, minOutputAmount: expected }), [
        swap([A, B], 6_000),
        swap([A, WETH, B]),
      ]),
    });

    expect(await w.balanceOf(w.tokenB, w.recipient)).toBe(expected);
    expect(await w.balanceOf(w.tokenA, w.executor)).toBe(0n);
  });

  it('reverts atomically when the recipient would get less than minOutputAmount', async () => {
    const amountIn = parseEther('1000');
    const expected = await w.quoteV2(amountIn - (amountIn * 30n) / 10_000n, [A, B]);
    await approve(w.tokenA, w.trader, amountIn);
    const tx = {
      from: w.trader.address,
      to: ROUTER,
      data: encodeExecute(order({ inputToken: A, inputAmount: amountIn, outputToken: B, minOutputAmount: expected + 1n }), [swap([A, B])]),
    };
    const before = await w.balanceOf(w.tokenA, w.trader.address);

    expect(await revertOf(w.provider, tx)).toEqual({ name: 'InsufficientOutput', args: [expected, expected + 1n] });
    expect((await sendRaw(w.trader, tx)).status).toBe(0);
    expect(await w.balanceOf(w.tokenA, w.trader.address)).toBe(before);
    expect(await w.balanceOf(w.tokenB, w.recipient)).toBe(0n);
    expect(await w.balanceOf(w.tokenA, w.partner)).toBe(0n);
  });

  it('rejects orders with a bad fee, recipient, deadline or token pair', async () => {
    await approve(w.tokenA, w.trader, MaxUint256);
    const base = { inputToken: A, inputAmount: parseEther('1'), outputToken: B };
    const cases: Array<[Partial<RouterOrder>, string]> = [
      [{ feeBps: 101 }, 'FeeTooHigh'],
      [{ partner: NATIVE_TOKEN }, 'FeeWithoutPartner'],
      [{ recipient: w.executor }, 'InvalidRecipient'],
      [{ recipient: NATIVE_TOKEN }, 'InvalidRecipient'],
      [{ deadline: 1n }, 'Expired'],
      [{ outputToken: A }, 'SameToken'],
      [{ inputAmount: 0n }, 'ZeroAmount'],
    ];
    for (const [overrides, error] of cases) {
      const tx = { from: w.trader.address, to: ROUTER, data: encodeExecute(order({ ...base, ...overrides }), [swap([A, B])]) };
      expect((await revertOf(w.provider, tx)).name).toBe(error);
    }
  });

  it('pulls the input with an EIP-2612 permit instead of an approval, also when the permit was front-run', async () => {
    const owner = await w.wallet('permit-owner');
    const amountIn = parseEther('200');
    await send(w.deployer, { to: A, data: w.tokenA.interface.encodeFunctionData('mint', [owner.address, amountIn * 2n]) });
    const permitFor = async (value: bigint) => {
      const nonce = (await w.tokenA.getFunction('nonces')(owner.address)) as bigint;
      const sig = Signature.from(
        await owner.signTypedData(
          { name: 'Alpha', version: '1', chainId: w.chainId, verifyingContract: A },
          {
            Permit: [
              { name: 'owner', type: 'address' },
              { name: 'spender', type: 'address' },
              { name: 'value', type: 'uint256' },
              { name: 'nonce', type: 'uint256' },
              { name: 'deadline', type: 'uint256' },
            ],
          },
          { owner: owner.address, spender: ROUTER, value, nonce, deadline: FAR_DEADLINE },
        ),
      );
      return { value, deadline: FAR_DEADLINE, v: sig.v, r: sig.r, s: sig.s };
    };
    const o = order({ inputToken: A, inputAmount: amountIn, outputToken: B });
    const expected = await w.quoteV2(amountIn - (amountIn * 30n) / 10_000n, [A, B]);

    await send(owner, {
      to: ROUTER,
      data: encodeExecuteWithPermit({ ...o, minOutputAmount: expected }, await permitFor(amountIn), [swap([A, B])]),
    });
    expect(await w.balanceOf(w.tokenB, w.recipient)).toBe(expected);
    expect(await w.tokenA.getFunction('allowance')(owner.address, ROUTER)).toBe(0n);

    // Someone submits the second permit to the token first: the order still goes through.
    const permit = await permitFor(amountIn);
    await send(w.attacker, {
      to: A,
      data: w.tokenA.interface.encodeFunctionData('permit', [
        owner.address,
        ROUTER,
        permit.value,
        permit.deadline,
        permit.v,
        permit.r,
        permit.s,
      ]),
    });
    await send(owner, { to: ROUTER, data: encodeExecuteWithPermit(o, permit, [swap([A, B])]) });
    expect(await w.balanceOf(w.tokenA, owner.address)).toBe(0n);

    // A permit that neither works nor was used, and no allowance: PermitFailed.
    const stale = { ...(await permitFor(amountIn)), value: amountIn + 1n };
    expect(
      (await revertOf(w.provider, { from: owner.address, to: ROUTER, data: encodeExecuteWithPermit(o, stale, [swap([A, B])]) })).name,
    ).toBe('PermitFailed');
  });

  // The Router names no WETH (one address on every chain): it hands native input to the executor
  // as native, and the route wraps it (wrapAllCall: WETH deposit() of the executor's whole native
  // balance) before spending it as WETH. Before this design the Router wrapped it itself.
  it('takes native input (msg.value), pays the partner in native and swaps the rest as WETH (the route wraps it)', async () => {
    const amountIn = parseEther('2');
    const fee = (amountIn * 30n) / 10_000n;
    const expected = await w.quoteV2(amountIn - fee, [WETH, B]);
    const o = order({ inputToken: NATIVE_TOKEN, inputAmount: amountIn, outputToken: B, minOutputAmount: expected });
    const calls = [wrapAllCall(WETH), swap([WETH, B])];

    expect(
      (await revertOf(w.provider, { from: w.trader.address, to: ROUTER, data: encodeExecute(o, calls), value: amountIn - 1n })).name,
    ).toBe('BadNativeValue');
    await send(w.trader, { to: ROUTER, data: encodeExecute(o, calls), value: amountIn });

    expect(await w.balanceOf(w.tokenB, w.recipient)).toBe(expected);
    expect(await w.balanceOf('native', w.partner)).toBe(fee);
    expect(await w.balanceOf('native', ROUTER)).toBe(0n);
    expect(await w.balanceOf('native', w.executor)).toBe(0n);
    expect(await w.balanceOf(w.weth, w.executor)).toBe(0n);
  });

  it('native input the route does not wrap: the swap finds no WETH and the whole order reverts (nothing stays in the executor)', async () => {
    const amountIn = parseEther('2');
    const o = order({ inputToken: NATIVE_TOKEN, inputAmount: amountIn, outputToken: B, minOutputAmount: 1n });
    const error = await revertOf(w.provider, {
      from: w.trader.address,
      to: ROUTER,
      data: encodeExecute(o, [swap([WETH, B])]),
      value: amountIn,
    });
    expect(error).toMatchObject({ name: 'CallFailed', args: [0n, expect.any(String)] });
    // and with no call at all, the minimum output protects the sender
    expect((await revertOf(w.provider, { from: w.trader.address, to: ROUTER, data: encodeExecute(o, []), value: amountIn })).name).toBe(
      'InsufficientOutput',
    );
  });

  it('delivers native output: the route unwraps the WETH it ends with and the executor sends its native to the recipient', async () => {
    const amountIn = parseUnits('30000', 6);
    const expected = await w.quoteV2(amountIn - (amountIn * 30n) / 10_000n, [B, WETH]);
    await approve(w.tokenB, w.trader, amountIn);
    const receipt = await send(w.trader, {
      to: ROUTER,
      data: encodeExecute(order({ inputToken: B, inputAmount: amountIn, outputToken: NATIVE_TOKEN, minOutputAmount: expected }), [
        swap([B, WETH]),
        unwrapAllCall(WETH),
      ]),
    });

    expect(await w.balanceOf('native', w.recipient)).toBe(expected);
    expect(await w.balanceOf('native', w.executor)).toBe(0n);
    expect(await w.balanceOf(w.weth, w.executor)).toBe(0n);
    expect(parseOrderExecuted(receipt.logs, ROUTER)[0]?.outputAmount).toBe(expected);
  });

  it('native output the route leaves as WETH: the recipient gets no native and the order reverts below its minimum', async () => {
    const amountIn = parseUnits('30000', 6);
    await approve(w.tokenB, w.trader, amountIn);
    const o = order({ inputToken: B, inputAmount: amountIn, outputToken: NATIVE_TOKEN, minOutputAmount: 1n });
    expect(await revertOf(w.provider, { from: w.trader.address, to: ROUTER, data: encodeExecute(o, [swap([B, WETH])]) })).toMatchObject({
      name: 'InsufficientOutput',
      args: [0n, 1n],
    });
  });
});
