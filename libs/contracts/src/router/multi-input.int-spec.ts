import { type Contract, MaxUint256, Signature, type Wallet, parseEther, parseUnits } from 'ethers';
import { routeHash } from './abi';
import { uniswapV2SwapCall, wrapAllCall } from './calls';
import { NO_PERMIT, encodeExecuteMulti, encodeExecuteMultiWithPermits, parseMultiOrderExecuted } from './router';
import { type MultiRouterOrder, NATIVE_TOKEN } from './types';
import { revertOf, send } from './testing/reverts';
import { FAR_DEADLINE, type RouterWorld, eachTestOnRouterWorld } from './testing/router-world';

describe('Router on anvil: multi-input orders (executeMulti, executeMultiWithPermits)', () => {
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

  const order = (
    o: Partial<MultiRouterOrder> & Pick<MultiRouterOrder, 'inputTokens' | 'inputAmounts' | 'outputToken'>,
  ): MultiRouterOrder => ({
    minOutputAmount: 0n,
    recipient: w.recipient,
    partner: w.partner,
    feeBps: 30,
    deadline: FAR_DEADLINE,
    ...o,
  });
  const swapAll = (path: string[]) => uniswapV2SwapCall({ router02: R2, path, to: w.executor, deadline: FAR_DEADLINE });
  const approve = async (token: Contract, owner: Wallet, amount: bigint) => {
    await send(owner, { to: await token.getAddress(), data: token.interface.encodeFunctionData('approve', [ROUTER, amount]) });
  };
  const net = (x: bigint): bigint => x - (x * 30n) / 10_000n;

  it('pulls two ERC-20s and native, takes the fee from each, routes all into WETH and emits MultiOrderExecuted', async () => {
    const [a, b, eth] = [parseEther('100'), parseUnits('300', 6), parseEther('0.5')];
    await approve(w.tokenA, w.trader, MaxUint256);
    await approve(w.tokenB, w.trader, MaxUint256);
    // A and B each swapped into WETH; the native input arrives as native and the route wraps it.
    const expected = (await w.quoteV2(net(a), [A, WETH])) + (await w.quoteV2(net(b), [B, WETH])) + net(eth);
    const calls = [wrapAllCall(WETH), swapAll([A, WETH]), swapAll([B, WETH])];
    const o = order({ inputTokens: [A, B, NATIVE_TOKEN], inputAmounts: [a, b, eth], outputToken: WETH, minOutputAmount: expected });
    const before = await w.balanceOf('native', w.partner);

    const receipt = await send(w.trader, { to: ROUTER, data: encodeExecuteMulti(o, calls), value: eth });

    expect(await w.balanceOf(w.weth, w.recipient)).toBe(expected);
    expect(await w.balanceOf(w.tokenA, w.partner)).toBe(a - net(a));
    expect(await w.balanceOf(w.tokenB, w.partner)).toBe(b - net(b));
    expect((await w.balanceOf('native', w.partner)) - before).toBe(eth - net(eth));
    for (const holder of [w.executor, ROUTER]) {
      for (const t of [w.tokenA, w.tokenB, w.weth, 'native'] as const) expect(await w.balanceOf(t, holder)).toBe(0n);
    }
    expect(parseMultiOrderExecuted(receipt.logs, ROUTER)).toEqual([
      {
        sender: w.trader.address,
        inputTokens: [A, B, NATIVE_TOKEN],
        inputAmounts: [a, b, eth],
        outputToken: WETH,
        outputAmount: expected,
        recipient: w.recipient,
        routeHash: routeHash(calls),
      },
    ]);
  });

  it('takes a permit for one input and an approval for the other', async () => {
    const owner = await w.wallet('multi-permit-owner');
    const [a, b] = [parseEther('50'), parseUnits('80', 6)];
    await send(w.deployer, { to: A, data: w.tokenA.interface.encodeFunctionData('mint', [owner.address, a]) });
    await send(w.deployer, { to: B, data: w.tokenB.interface.encodeFunctionData('mint', [owner.address, b]) });
    await approve(w.tokenB, owner, b);
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
        { owner: owner.address, spender: ROUTER, value: a, nonce: 0n, deadline: FAR_DEADLINE },
      ),
    );
    const expected = (await w.quoteV2(net(a), [A, WETH])) + (await w.quoteV2(net(b), [B, WETH]));
    const o = order({ inputTokens: [A, B], inputAmounts: [a, b], outputToken: WETH, minOutputAmount: expected });

    await send(owner, {
      to: ROUTER,
      data: encodeExecuteMultiWithPermits(
        o,
        [{ value: a, deadline: FAR_DEADLINE, v: sig.v, r: sig.r, s: sig.s }, NO_PERMIT],
        [swapAll([A, WETH]), swapAll([B, WETH])],
      ),
    });

    expect(await w.balanceOf(w.weth, w.recipient)).toBe(expected);
    expect(await w.balanceOf(w.tokenA, owner.address)).toBe(0n);
    expect(await w.balanceOf(w.tokenB, owner.address)).toBe(0n);
  });

  it('refuses bad lists, repeats, the output among the inputs, a wrong native value and too little output', async () => {
    await approve(w.tokenA, w.trader, MaxUint256);
    await approve(w.tokenB, w.trader, MaxUint256);
    const one = parseEther('1');
    const call = (o: MultiRouterOrder, value = 0n) =>
      revertOf(w.provider, { from: w.trader.address, to: ROUTER, data: encodeExecuteMulti(o, [swapAll([A, WETH])]), value });
    expect((await call(order({ inputTokens: [A, B], inputAmounts: [one], outputToken: WETH }))).name).toBe('BadInputList');
    expect((await call(order({ inputTokens: [], inputAmounts: [], outputToken: WETH }))).name).toBe('BadInputList');
    const eleven = Array.from({ length: 11 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`);
    expect((await call(order({ inputTokens: eleven, inputAmounts: eleven.map(() => one), outputToken: WETH }))).name).toBe('BadInputList');
    expect(await call(order({ inputTokens: [A, B, A], inputAmounts: [one, one, one], outputToken: WETH }))).toEqual({
      name: 'DuplicateInput',
      args: [A],
    });
    expect((await call(order({ inputTokens: [A, WETH], inputAmounts: [one, one], outputToken: WETH }))).name).toBe('SameToken');
    expect((await call(order({ inputTokens: [A, B], inputAmounts: [one, 0n], outputToken: WETH }))).name).toBe('ZeroAmount');
    expect((await call(order({ inputTokens: [A, NATIVE_TOKEN], inputAmounts: [one, one], outputToken: WETH }), one - 1n)).name).toBe(
      'BadNativeValue',
    );
    expect((await call(order({ inputTokens: [A], inputAmounts: [one], outputToken: WETH }), 1n)).name).toBe('BadNativeValue');
    expect((await call(order({ inputTokens: [A], inputAmounts: [one], outputToken: WETH, minOutputAmount: MaxUint256 }))).name).toBe(
      'InsufficientOutput',
    );
    const permits = (o: MultiRouterOrder) =>
      revertOf(w.provider, {
        from: w.trader.address,
        to: ROUTER,
        data: encodeExecuteMultiWithPermits(o, [NO_PERMIT], [swapAll([A, WETH])]),
      });
    expect((await permits(order({ inputTokens: [A, B], inputAmounts: [one, one], outputToken: WETH }))).name).toBe('BadInputList');
    expect((await permits(order({ inputTokens: [NATIVE_TOKEN], inputAmounts: [one], outputToken: WETH }))).name).toBe('NativeNotSupported');
  });
});
