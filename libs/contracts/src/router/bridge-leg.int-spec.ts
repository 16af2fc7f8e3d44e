import { Interface, MaxUint256, parseEther } from 'ethers';
import { loadArtifact } from '../local-artifacts';
import { bridgeDepositExecutorCall, uniswapV2SwapCall } from './calls';
import { encodeExecuteBridge, parseOrderExecuted } from './router';
import { revertOf, send } from './testing/reverts';
import { FAR_DEADLINE, type RouterWorld, startRouterWorld } from './testing/router-world';

const SINK = new Interface(loadArtifact('TestDepositSink').abi);
/** Byte offset of `amount` in `deposit(token, amount, recipient)` calldata (as a BridgeProvider's depositCall gives it). */
const AMOUNT_OFFSET = 4 + 32;

/**
 * Router.executeBridge: an origin swap, then a bridge deposit of what it produced (all of it, or a
 * fixed amount with the rest swept back to the caller), into a test stand-in for a bridge's deposit
 * entry point (TestDepositSink: it pulls its input from the caller, as Across's SpokePool does).
 */
describe('Router.executeBridge (a cross-chain order origin leg)', () => {
  let w: RouterWorld;
  let sink: string;
  let A: string, B: string, R2: string, ROUTER: string;

  beforeAll(async () => {
    w = await startRouterWorld();
    [A, B, R2, ROUTER] = await Promise.all([w.tokenA.getAddress(), w.tokenB.getAddress(), w.v2Router.getAddress(), w.router.getAddress()]);
    const artifact = loadArtifact('TestDepositSink');
    const receipt = await send(w.deployer, { data: artifact.bytecode });
    sink = receipt.contractAddress!;
    await send(w.trader, { to: A, data: w.tokenA.interface.encodeFunctionData('approve', [ROUTER, MaxUint256]) });
  }, 60_000);
  afterAll(async () => {
    await w?.stop();
  });

  const depositCall = () => ({ to: sink, data: SINK.encodeFunctionData('deposit', [B, 0n, w.recipient]), amountOffset: AMOUNT_OFFSET });
  const deposited = (logs: readonly { address: string; topics: readonly string[]; data: string }[]) =>
    logs.filter((l) => l.address.toLowerCase() === sink.toLowerCase()).map((l) => SINK.parseLog(l)!.args);

  it('swaps, deposits all of the swap output into the bridge, takes the partner fee and checks the minimum deposited', async () => {
    const amountIn = parseEther('100');
    const fee = (amountIn * 30n) / 10_000n;
    const expected = await w.quoteV2(amountIn - fee, [A, B]);
    const calls = [
      uniswapV2SwapCall({ router02: R2, path: [A, B], to: w.executor, deadline: FAR_DEADLINE }),
      bridgeDepositExecutorCall(depositCall(), B),
    ];
    const order = {
      inputToken: A,
      inputAmount: amountIn,
      outputToken: B,
      minOutputAmount: expected,
      recipient: sink,
      partner: w.partner,
      feeBps: 30,
      deadline: FAR_DEADLINE,
    };
    const sinkBefore = await w.balanceOf(w.tokenB, sink);

    const receipt = await send(w.trader, { to: ROUTER, data: encodeExecuteBridge(order, calls) });

    const [d] = deposited(receipt.logs);
    expect({ depositor: d!['depositor'], token: d!['token'], amount: d!['amount'], recipient: d!['recipient'] }).toEqual({
      depositor: w.executor,
      token: B,
      amount: expected,
      recipient: w.recipient,
    });
    expect((await w.balanceOf(w.tokenB, sink)) - sinkBefore).toBe(expected);
    expect(await w.balanceOf(w.tokenA, w.partner)).toBe(fee);
    expect(await w.balanceOf(w.tokenB, w.executor)).toBe(0n);
    expect(await w.tokenB.getFunction('allowance')(w.executor, sink)).toBe(0n);
    expect(parseOrderExecuted(receipt.logs, ROUTER)[0]).toMatchObject({ outputToken: B, outputAmount: expected, recipient: sink, fee });
  });

  it('deposits a fixed amount (a fixed-output bridge gets exactly the minimum) and sweeps the rest of the bridged token back to the caller', async () => {
    const amountIn = parseEther('50');
    const expected = await w.quoteV2(amountIn, [A, B]);
    const minimum = (expected * 99n) / 100n;
    const calls = [
      uniswapV2SwapCall({ router02: R2, path: [A, B], to: w.executor, deadline: FAR_DEADLINE }),
      bridgeDepositExecutorCall(depositCall(), B, minimum),
    ];
    const order = {
      inputToken: A,
      inputAmount: amountIn,
      outputToken: B,
      minOutputAmount: minimum,
      recipient: sink,
      partner: w.partner,
      feeBps: 0,
      deadline: FAR_DEADLINE,
    };
    const traderBefore = await w.balanceOf(w.tokenB, w.trader.address);

    const receipt = await send(w.trader, { to: ROUTER, data: encodeExecuteBridge(order, calls) });

    expect(deposited(receipt.logs).map((d) => d['amount'])).toEqual([minimum]);
    expect((await w.balanceOf(w.tokenB, w.trader.address)) - traderBefore).toBe(expected - minimum);
    expect(await w.balanceOf(w.tokenB, w.executor)).toBe(0n);
  });

  it('reverts when less than minOutputAmount reaches the bridge, and needs a contract as the bridge', async () => {
    const amountIn = parseEther('100');
    const expected = await w.quoteV2(amountIn, [A, B]);
    const calls = [
      uniswapV2SwapCall({ router02: R2, path: [A, B], to: w.executor, deadline: FAR_DEADLINE }),
      bridgeDepositExecutorCall(depositCall(), B, 1n),
    ];
    const order = {
      inputToken: A,
      inputAmount: amountIn,
      outputToken: B,
      minOutputAmount: expected,
      recipient: sink,
      partner: w.partner,
      feeBps: 0,
      deadline: FAR_DEADLINE,
    };
    expect((await revertOf(w.provider, { from: w.trader.address, to: ROUTER, data: encodeExecuteBridge(order, calls) })).name).toBe(
      'InsufficientOutput',
    );
    expect(
      (
        await revertOf(w.provider, {
          from: w.trader.address,
          to: ROUTER,
          data: encodeExecuteBridge({ ...order, minOutputAmount: 0n, recipient: w.recipient }, calls),
        })
      ).name,
    ).toBe('InvalidRecipient');
  });
});
