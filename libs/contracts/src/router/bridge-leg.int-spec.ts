import { MaxUint256, parseEther } from 'ethers';
import { depositExecutorCall, deployBridge, parseDepositCreated } from '../bridge/bridge';
import { uniswapV2SwapCall } from './calls';
import { encodeExecuteBridge, parseOrderExecuted } from './router';
import { revertOf, send } from './testing/reverts';
import { FAR_DEADLINE, type RouterWorld, startRouterWorld } from './testing/router-world';

/** Router.executeBridge: an origin swap, then a bridge deposit of everything it produced. */
describe('Router.executeBridge (a cross-chain order origin leg)', () => {
  let w: RouterWorld;
  let escrow: string;
  let A: string, B: string, R2: string, ROUTER: string;

  beforeAll(async () => {
    w = await startRouterWorld();
    [A, B, R2, ROUTER] = await Promise.all([w.tokenA.getAddress(), w.tokenB.getAddress(), w.v2Router.getAddress(), w.router.getAddress()]);
    escrow = (await deployBridge(w.deployer, w.deployer.address)).escrow;
  }, 60_000);
  afterAll(async () => {
    await w?.stop();
  });

  const deposit = (minOut: bigint) => ({ inputToken: B, inputAmount: 0n, destinationChainId: 8453n, outputToken: B, outputAmount: minOut, recipient: w.recipient, fillDeadline: BigInt(Math.floor(Date.now() / 1000) + 3600), refundTo: w.trader.address });

  it('swaps, deposits all of the swap output into the bridge, takes the partner fee and checks the minimum deposited', async () => {
    const amountIn = parseEther('100');
    const fee = (amountIn * 30n) / 10_000n;
    const expected = await w.quoteV2(amountIn - fee, [A, B]);
    await send(w.trader, { to: A, data: w.tokenA.interface.encodeFunctionData('approve', [ROUTER, MaxUint256]) });
    const calls = [uniswapV2SwapCall({ router02: R2, path: [A, B], to: w.executor, deadline: FAR_DEADLINE }), depositExecutorCall(escrow, deposit(expected - 1n))];
    const order = { inputToken: A, inputAmount: amountIn, outputToken: B, minOutputAmount: expected, recipient: escrow, partner: w.partner, feeBps: 30, deadline: FAR_DEADLINE };

    const receipt = await send(w.trader, { to: ROUTER, data: encodeExecuteBridge(order, calls) });

    const [created] = parseDepositCreated(receipt.logs, escrow);
    expect(created).toMatchObject({ depositor: w.executor, inputToken: B, inputAmount: expected, outputAmount: expected - 1n, recipient: w.recipient, refundTo: w.trader.address });
    expect(await w.balanceOf(w.tokenB, escrow)).toBe(expected);
    expect(await w.balanceOf(w.tokenA, w.partner)).toBe(fee);
    expect(await w.balanceOf(w.tokenB, w.executor)).toBe(0n);
    expect(await w.tokenB.getFunction('allowance')(w.executor, escrow)).toBe(0n);
    expect(parseOrderExecuted(receipt.logs, ROUTER)[0]).toMatchObject({ outputToken: B, outputAmount: expected, recipient: escrow, fee });
  });

  it('reverts when less than minOutputAmount reaches the bridge, and needs a contract as the bridge', async () => {
    const amountIn = parseEther('100');
    const expected = await w.quoteV2(amountIn, [A, B]);
    const calls = [uniswapV2SwapCall({ router02: R2, path: [A, B], to: w.executor, deadline: FAR_DEADLINE }), depositExecutorCall(escrow, deposit(1n))];
    const order = { inputToken: A, inputAmount: amountIn, outputToken: B, minOutputAmount: expected + 1n, recipient: escrow, partner: w.partner, feeBps: 0, deadline: FAR_DEADLINE };
    expect((await revertOf(w.provider, { from: w.trader.address, to: ROUTER, data: encodeExecuteBridge(order, calls) })).name).toBe('InsufficientOutput');
    expect((await revertOf(w.provider, { from: w.trader.address, to: ROUTER, data: encodeExecuteBridge({ ...order, minOutputAmount: 0n, recipient: w.recipient }, calls) })).name).toBe('InvalidRecipient');
  });
});
