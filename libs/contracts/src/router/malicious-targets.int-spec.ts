import { MaxUint256, parseEther } from 'ethers';
import { nativeBalanceInput, uniswapV2SwapCall, wrapAllCall } from './calls';
import { executorInterface } from './abi';
import { encodeExecute } from './router';
import { type ExecutorCall, NATIVE_TOKEN, type RouterOrder } from './types';
import { revertOf, send, sendRaw } from './testing/reverts';
import { FAR_DEADLINE, type RouterWorld, startRouterWorld } from './testing/router-world';

describe('Router on anvil: malicious call targets', () => {
  let w: RouterWorld;
  let A: string, B: string, R2: string, ROUTER: string, THIEF: string;
  const victimApproval = MaxUint256;
  const stake = parseEther('100');

  beforeAll(async () => {
    w = await startRouterWorld();
    [A, B, R2, ROUTER, THIEF] = await Promise.all([
      w.tokenA.getAddress(),
      w.tokenB.getAddress(),
      w.v2Router.getAddress(),
      w.router.getAddress(),
      w.thief.getAddress(),
    ]);
    // The victim (trader) has an open unlimited approval of the router; the attacker trades a little.
    await send(w.trader, { to: A, data: w.tokenA.interface.encodeFunctionData('approve', [ROUTER, victimApproval]) });
    await send(w.deployer, { to: A, data: w.tokenA.interface.encodeFunctionData('mint', [w.attacker.address, stake]) });
    await send(w.attacker, { to: A, data: w.tokenA.interface.encodeFunctionData('approve', [ROUTER, MaxUint256]) });
  }, 60_000);
  afterAll(async () => {
    await w?.stop();
  });

  const attackerOrder: () => RouterOrder = () => ({
    inputToken: A,
    inputAmount: stake,
    outputToken: B,
    minOutputAmount: 0n,
    recipient: w.attacker.address,
    partner: NATIVE_TOKEN,
    feeBps: 0,
    deadline: FAR_DEADLINE,
  });
  const attack = async (calls: ExecutorCall[]) => {
    const tx = { from: w.attacker.address, to: ROUTER, data: encodeExecute(attackerOrder(), calls) };
    const error = await revertOf(w.provider, tx);
    expect((await sendRaw(w.attacker, tx)).status).toBe(0);
    return error;
  };

  it('a target that re-enters the router fails on the reentrancy guard and the whole order reverts', async () => {
    const nested: RouterOrder = { ...attackerOrder(), inputAmount: 1n };
    const reenter = {
      target: await w.reentrant.getAddress(),
      value: 0n,
      data: w.reentrant.interface.encodeFunctionData('attack', [ROUTER, nested]),
      inputs: [],
    };
    const swap = uniswapV2SwapCall({ router02: R2, path: [A, B], to: w.executor, deadline: FAR_DEADLINE });

    const error = await attack([swap, reenter]);

    expect(error).toMatchObject({ name: 'CallFailed', args: [1n, expect.any(String)], inner: { name: 'ReentrancyGuardReentrantCall' } });
    expect(await w.balanceOf(w.tokenA, w.attacker.address)).toBe(stake);
  });

  it("a target cannot spend a user's router approval: neither by itself nor through the executor", async () => {
    const victimBefore = await w.balanceOf(w.tokenA, w.trader.address);
    const amount = parseEther('1000');

    const viaThief = await attack([
      { target: THIEF, value: 0n, data: w.thief.interface.encodeFunctionData('steal', [A, w.trader.address, amount]), inputs: [] },
    ]);
    expect(viaThief).toMatchObject({ name: 'CallFailed', inner: { name: 'ERC20InsufficientAllowance', args: [THIEF, 0n, amount] } });

    const viaExecutor = await attack([
      {
        target: A,
        value: 0n,
        data: w.tokenA.interface.encodeFunctionData('transferFrom', [w.trader.address, w.attacker.address, amount]),
        inputs: [],
      },
    ]);
    expect(viaExecutor).toMatchObject({
      name: 'CallFailed',
      inner: { name: 'ERC20InsufficientAllowance', args: [w.executor, 0n, amount] },
    });

    // The executor only answers to the router.
    const direct = {
      from: w.attacker.address,
      to: w.executor,
      data: executorInterface().encodeFunctionData('run', [[], A, w.attacker.address]),
    };
    expect((await revertOf(w.provider, direct)).name).toBe('OnlyRouter');

    expect(await w.balanceOf(w.tokenA, w.trader.address)).toBe(victimBefore);
    expect(await w.tokenA.getFunction('allowance')(w.trader.address, ROUTER)).toBe(victimApproval);
  });

  // The Router hands native input to the executor as native (it names no WETH): the executor's
  // native balance during a run is that order's input, never anyone else's.
  it("native in the executor is the running order's only: a route forwarding it all gets back what it sent, and a victim's native order leaves nothing behind", async () => {
    const WETH = await w.weth.getAddress();
    // The victim's native order: wrapped, swapped, nothing left in the executor.
    const victimIn = parseEther('3');
    const victimOrder: RouterOrder = { ...attackerOrder(), inputToken: NATIVE_TOKEN, inputAmount: victimIn, recipient: w.trader.address };
    const victimCalls = [wrapAllCall(WETH), uniswapV2SwapCall({ router02: R2, path: [WETH, B], to: w.executor, deadline: FAR_DEADLINE })];
    await send(w.trader, { to: ROUTER, data: encodeExecute(victimOrder, victimCalls), value: victimIn });
    expect(await w.balanceOf('native', w.executor)).toBe(0n);
    expect(await w.balanceOf(w.weth, w.executor)).toBe(0n);

    // The attacker's native order whose one call sends the executor's whole native balance to the attacker: only its own input.
    const sent = parseEther('1');
    const grab: ExecutorCall = { target: w.attacker.address, value: 0n, data: '0x', inputs: [nativeBalanceInput()] };
    const attackerBefore = await w.balanceOf('native', w.attacker.address);
    const receipt = await send(w.attacker, {
      to: ROUTER,
      data: encodeExecute({ ...attackerOrder(), inputToken: NATIVE_TOKEN, inputAmount: sent }, [grab]),
      value: sent,
    });
    expect(attackerBefore - (await w.balanceOf('native', w.attacker.address))).toBe(receipt.gasUsed * receipt.gasPrice);
    expect(await w.balanceOf('native', w.executor)).toBe(0n);

    // A call may not spend more native than the executor holds, and native cannot be approved.
    const more = await attack([{ target: w.attacker.address, value: 1n, data: '0x', inputs: [] }]);
    expect(more).toMatchObject({ name: 'CallFailed', args: [0n, '0x'] });
    const approveNative = await attack([{ target: THIEF, value: 0n, data: '0x', inputs: [{ ...nativeBalanceInput(), approve: true }] }]);
    expect(approveNative).toMatchObject({ name: 'InvalidInput', args: [0n] });
  });
});
