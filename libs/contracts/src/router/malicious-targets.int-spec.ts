import { MaxUint256, parseEther } from 'ethers';
import { uniswapV2SwapCall } from './calls';
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
    [A, B, R2, ROUTER, THIEF] = await Promise.all([w.tokenA.getAddress(), w.tokenB.getAddress(), w.v2Router.getAddress(), w.router.getAddress(), w.thief.getAddress()]);
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
    const reenter = { target: await w.reentrant.getAddress(), value: 0n, data: w.reentrant.interface.encodeFunctionData('attack', [ROUTER, nested]), inputs: [] };
    const swap = uniswapV2SwapCall({ router02: R2, path: [A, B], to: w.executor, deadline: FAR_DEADLINE });

    const error = await attack([swap, reenter]);

    expect(error).toMatchObject({ name: 'CallFailed', args: [1n, expect.any(String)], inner: { name: 'ReentrancyGuardReentrantCall' } });
    expect(await w.balanceOf(w.tokenA, w.attacker.address)).toBe(stake);
  });

  it("a target cannot spend a user's router approval: neither by itself nor through the executor", async () => {
    const victimBefore = await w.balanceOf(w.tokenA, w.trader.address);
    const amount = parseEther('1000');

    const viaThief = await attack([{ target: THIEF, value: 0n, data: w.thief.interface.encodeFunctionData('steal', [A, w.trader.address, amount]), inputs: [] }]);
    expect(viaThief).toMatchObject({ name: 'CallFailed', inner: { name: 'ERC20InsufficientAllowance', args: [THIEF, 0n, amount] } });

    const viaExecutor = await attack([{ target: A, value: 0n, data: w.tokenA.interface.encodeFunctionData('transferFrom', [w.trader.address, w.attacker.address, amount]), inputs: [] }]);
    expect(viaExecutor).toMatchObject({ name: 'CallFailed', inner: { name: 'ERC20InsufficientAllowance', args: [w.executor, 0n, amount] } });

    // The executor only answers to the router.
    const direct = { from: w.attacker.address, to: w.executor, data: executorInterface().encodeFunctionData('run', [[], A, w.attacker.address]) };
    expect((await revertOf(w.provider, direct)).name).toBe('OnlyRouter');

    expect(await w.balanceOf(w.tokenA, w.trader.address)).toBe(victimBefore);
    expect(await w.tokenA.getFunction('allowance')(w.trader.address, ROUTER)).toBe(victimApproval);
  });
});
