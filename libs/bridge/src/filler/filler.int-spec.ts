import { MaxUint256, Wallet, parseEther } from 'ethers';
import { BRIDGE_REFUND_GRACE, BRIDGE_TOPICS, encodeDeposit, encodeFill, fillForDeposit, sendOk } from '@tokensvc/contracts';
import { uintTopic } from '../chain';
import type { BridgeDepositInfo, BridgeDepositState } from '../provider';
import type { DestinationSwapper } from './destination-swapper';
import { type BridgeFixture, startBridgeFixture } from '../testing/bridge-fixture';
import { Filler, type FillerMode, toBridgeDeposit } from './filler';

interface LogLine {
  level: string;
  msg: string;
  [field: string]: unknown;
}

describe('the devnet filler on two anvils (ethereum = chain 1, base = chain 8453)', () => {
  let f: BridgeFixture;
  let snaps: string[];
  let running: Filler[] = [];
  let lines: LogLine[] = [];

  beforeAll(async () => {
    f = await startBridgeFixture({ fillerAttests: true });
  }, 90_000);
  afterAll(async () => {
    await f?.stop();
  });
  beforeEach(async () => {
    lines = [];
    snaps = await Promise.all([f.origin.snapshot(), f.destination.snapshot()]);
  });
  afterEach(async () => {
    for (const filler of running) await filler.stop();
    running = [];
    await f.origin.revert(snaps[0]!);
    await f.destination.revert(snaps[1]!);
  });

  const startFiller = (mode: FillerMode, swapper?: DestinationSwapper): Filler => {
    const filler = new Filler({ provider: f.provider, privateKey: f.fillerKey, mode, pollMs: 100, receiptPollMs: 20, retryDelayMs: 200, swapper, log: (level, msg, fields) => void lines.push({ level, msg, ...fields }) });
    filler.start();
    running.push(filler);
    return filler;
  };
  const stateOf = (d: BridgeDepositInfo): Promise<BridgeDepositState> => f.provider.depositState('ethereum', d.requestId);
  const waitFor = async (what: string, check: () => Promise<boolean> | boolean, timeoutMs = 15_000): Promise<number> => {
    const started = Date.now();
    while (!(await check())) {
      if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; filler log:\n${lines.map((l) => JSON.stringify(l, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))).join('\n')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return Date.now() - started;
  };
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const messagesFor = (d: BridgeDepositInfo) => lines.filter((l) => l['requestId'] === d.requestId).map((l) => l.msg);
  /** Filled events of a request on the destination settler (all blocks: the test chains are short). */
  const fillEvents = async (d: BridgeDepositInfo) =>
    f.destination.provider.getLogs({ address: f.destination.settler.target as string, topics: [BRIDGE_TOPICS.filled, uintTopic(1), d.requestId], fromBlock: 0 });
  const pastRefundTime = async (d: BridgeDepositInfo) => f.passTime(d.fillDeadline - Number(await f.origin.now()) + Number(BRIDGE_REFUND_GRACE) + 1);
  /** A USDC deposit written by hand: any outputToken and outputAmount (the provider's depositCall only makes bridged-token ones). */
  const depositAsking = async (inputAmount: bigint, outputToken: string, outputAmount: bigint): Promise<BridgeDepositInfo> => {
    const user = f.world.user.on(f.origin);
    await sendOk(user, { to: f.origin.token.target as string, data: f.origin.token.interface.encodeFunctionData('approve', [f.origin.escrow.target as string, MaxUint256]) });
    const data = encodeDeposit({
      inputToken: f.origin.token.target as string,
      inputAmount,
      destinationChainId: f.destination.chainId,
      outputToken,
      outputAmount,
      recipient: Wallet.createRandom().address,
      fillDeadline: (await f.origin.now()) + 1200n,
      refundTo: f.world.user.address,
    });
    const receipt = await sendOk(user, { to: f.origin.escrow.target as string, data });
    const [info] = await f.provider.findDeposit('ethereum', receipt.hash);
    return info!;
  };

  it('fills an ERC-20 and a native deposit from inventory and settles both within a few seconds', async () => {
    const filler = startFiller('normal');
    const fillerOnOrigin = await f.origin.balanceOf(f.origin.token, f.world.filler.address);
    const started = Date.now();
    const { info: usdc } = await f.deposit('USDC', 100_000_000n);
    const { info: eth } = await f.deposit('ETH', parseEther('1'));

    await waitFor('both deposits settled', async () => (await stateOf(usdc)) === 'settled' && (await stateOf(eth)) === 'settled', 5_000);
    const seconds = (Date.now() - started) / 1000;
    expect(seconds).toBeLessThan(5);

    expect(await f.destination.balanceOf(f.destination.token, usdc.recipient)).toBe(usdc.outputAmount);
    expect(await f.destination.balanceOf('native', eth.recipient)).toBe(eth.outputAmount);
    // Repaid on the origin with the escrowed input (its fee included).
    expect((await f.origin.balanceOf(f.origin.token, f.world.filler.address)) - fillerOnOrigin).toBe(usdc.inputAmount);
    expect(await f.origin.balanceOf(f.origin.token, f.origin.escrow.target as string)).toBe(0n);
    expect(await f.provider.findFill('base', 1, usdc.requestId)).toMatchObject({ filler: f.world.filler.address, amount: usdc.outputAmount, recipient: usdc.recipient });
    expect(messagesFor(usdc)).toEqual(['deposit seen', 'fill sent', 'filled', 'settled']);
    expect(lines.find((l) => l.msg === 'settled' && l['requestId'] === eth.requestId)).toMatchObject({ level: 'info', originNetwork: 'ethereum', destinationNetwork: 'base', filler: f.world.filler.address });
    // The chain shows the outcome a moment before the filler has recorded its receipt.
    await waitFor('the filler to record it', () => JSON.stringify(filler.stats) === JSON.stringify({ fills: 2, settlements: 2, refunds: 0 }));
    expect(filler.stats).toEqual({ fills: 2, settlements: 2, refunds: 0 });
    expect(filler.failures).toEqual([]);
  });

  it('offline does nothing at all; after the deadline (time control) the deposit is refunded, not filled', async () => {
    const filler = startFiller('offline');
    const { info } = await f.deposit('USDC', 50_000_000n);
    await sleep(1_000); // ten polling intervals
    expect(await stateOf(info)).toBe('open');
    expect((await fillEvents(info)).length).toBe(0);
    expect(lines.map((l) => l.msg)).toEqual(['filler started']);

    await pastRefundTime(info);
    await sleep(500);
    expect(await stateOf(info)).toBe('open'); // offline: not even the refund

    const userBefore = await f.origin.balanceOf(f.origin.token, f.world.user.address);
    filler.setMode('normal');
    await waitFor('the refund', async () => (await stateOf(info)) === 'refunded');
    expect((await f.origin.balanceOf(f.origin.token, f.world.user.address)) - userBefore).toBe(info.inputAmount);
    expect(await f.provider.findRefund('ethereum', info.requestId)).toMatchObject({ amount: info.inputAmount, refundTo: f.world.user.address });
    expect(await f.provider.findFill('base', 1, info.requestId)).toBeUndefined();
    expect(await f.destination.balanceOf(f.destination.token, info.recipient)).toBe(0n);
    // The chain shows the outcome a moment before the filler has recorded its receipt.
    await waitFor('the filler to record it', () => JSON.stringify(filler.stats) === JSON.stringify({ fills: 0, settlements: 0, refunds: 1 }));
    expect(filler.stats).toEqual({ fills: 0, settlements: 0, refunds: 1 });
    expect(lines.find((l) => l.msg === 'mode changed')).toMatchObject({ mode: 'normal', previous: 'offline' });
    expect(messagesFor(info)).toEqual(['deposit seen', 'refunded']);
  });

  it('revert mode: the fill reverts on chain and is recorded once, the deposit stays open and is refunded after the deadline', async () => {
    const filler = startFiller('revert');
    const { info } = await f.deposit('USDC', 20_000_000n);
    await waitFor('a recorded failure', () => filler.failures.length > 0);
    const [failure] = filler.failures;
    expect(failure).toMatchObject({ originNetwork: 'ethereum', requestId: info.requestId, error: 'FillExpired' });
    expect((await f.destination.provider.getTransactionReceipt(failure!.txHash))?.status).toBe(0);

    await sleep(1_000);
    expect(filler.failures.length).toBe(1); // not retried
    expect(await stateOf(info)).toBe('open');
    expect((await fillEvents(info)).length).toBe(0);
    expect(await f.destination.balanceOf(f.destination.token, info.recipient)).toBe(0n);

    await pastRefundTime(info);
    await waitFor('the refund', async () => (await stateOf(info)) === 'refunded');
    // The chain shows the outcome a moment before the filler has recorded its receipt.
    await waitFor('the filler to record it', () => JSON.stringify(filler.stats) === JSON.stringify({ fills: 0, settlements: 0, refunds: 1 }));
    expect(filler.stats).toEqual({ fills: 0, settlements: 0, refunds: 1 });
    expect(lines.filter((l) => l.level === 'error').map((l) => l.msg)).toEqual(['fill reverted']);
    expect(lines.find((l) => l.msg === 'refunded')).toMatchObject({ requestId: info.requestId, reason: 'FillExpired' });
  });

  it('no-inventory does not fill and says why; back to normal at runtime, it fills and settles', async () => {
    const filler = startFiller('no-inventory');
    const { info } = await f.deposit('USDC', 30_000_000n);
    await waitFor('the inventory log line', () => messagesFor(info).includes('insufficient inventory; not filling'));
    expect(lines.find((l) => l.msg === 'insufficient inventory; not filling')).toMatchObject({ needed: info.outputAmount, available: 0n, simulated: true });
    await sleep(500);
    expect(await stateOf(info)).toBe('open');
    expect((await fillEvents(info)).length).toBe(0);
    expect(messagesFor(info).filter((m) => m.startsWith('insufficient')).length).toBe(1); // logged once, not every pass

    filler.options.mode = 'normal';
    await waitFor('the settlement', async () => (await stateOf(info)) === 'settled');
    expect(await f.destination.balanceOf(f.destination.token, info.recipient)).toBe(info.outputAmount);
    // The chain shows the outcome a moment before the filler has recorded its receipt.
    await waitFor('the filler to record it', () => JSON.stringify(filler.stats) === JSON.stringify({ fills: 1, settlements: 1, refunds: 0 }));
    expect(filler.stats).toEqual({ fills: 1, settlements: 1, refunds: 0 });
  });

  it('a restarted filler fills nothing twice: it settles what the last one filled and fills only what is new', async () => {
    const first = startFiller('normal');
    const { info: d1 } = await f.deposit('USDC', 10_000_000n);
    await waitFor('d1 settled', async () => (await stateOf(d1)) === 'settled');
    await first.stop();

    // While no filler runs: d2 is new; d3 was filled by the filler's key but the process died
    // before settling (the state a crash between fill and settle leaves).
    const { info: d2 } = await f.deposit('USDC', 11_000_000n);
    const { info: d3 } = await f.deposit('USDC', 12_000_000n);
    const fillerWallet = f.world.filler.on(f.destination);
    await sendOk(fillerWallet, { to: f.destination.token.target as string, data: f.destination.token.interface.encodeFunctionData('approve', [f.destination.settler.target as string, MaxUint256]) });
    await sendOk(fillerWallet, { to: f.destination.settler.target as string, data: encodeFill(fillForDeposit(1n, d3.requestId, toBridgeDeposit(d3))) });
    expect(await stateOf(d3)).toBe('open');

    lines = [];
    const second = startFiller('normal');
    await waitFor('d2 and d3 settled', async () => (await stateOf(d2)) === 'settled' && (await stateOf(d3)) === 'settled');
    await sleep(500); // more passes: nothing else may happen

    expect(second.stats).toEqual({ fills: 1, settlements: 2, refunds: 0 });
    for (const d of [d1, d2, d3]) {
      expect((await fillEvents(d)).length).toBe(1);
      expect(await f.destination.balanceOf(f.destination.token, d.recipient)).toBe(d.outputAmount);
    }
    expect(messagesFor(d1)).toEqual(['deposit seen', 'deposit settled']); // re-read from the horizon, found settled, left alone
    expect(messagesFor(d3)).toEqual(['deposit seen', 'settled']);
    expect(lines.find((l) => l.msg === 'watching deposits' && l['network'] === 'ethereum')).toMatchObject({ fromBlock: expect.any(Number) });
  });

  it('two instances with the same key at once (an old process not yet gone): each deposit is filled and settled once', async () => {
    startFiller('normal');
    startFiller('normal');
    const deposits: BridgeDepositInfo[] = [];
    for (let i = 0; i < 4; i++) deposits.push((await f.deposit('USDC', BigInt(5_000_000 + i))).info);
    await waitFor('all settled', async () => (await Promise.all(deposits.map(stateOf))).every((s) => s === 'settled'), 20_000);
    for (const d of deposits) {
      expect((await fillEvents(d)).length).toBe(1);
      expect(await f.destination.balanceOf(f.destination.token, d.recipient)).toBe(d.outputAmount);
    }
  });

  it('pays everything a deposit brings, not only its outputAmount, and the attester settles a fill above the asked amount', async () => {
    const filler = startFiller('normal');
    // Asks for 90 USDC of the 100 it deposits: the bridge keeps 0.05 USDC, the recipient gets the other 99.95.
    const info = await depositAsking(100_000_000n, f.destination.token.target as string, 90_000_000n);
    await waitFor('the settlement', async () => (await stateOf(info)) === 'settled');
    expect(await f.destination.balanceOf(f.destination.token, info.recipient)).toBe(99_950_000n);
    expect(await f.provider.findFill('base', 1, info.requestId)).toMatchObject({ amount: 99_950_000n, recipient: info.recipient });
    expect(lines.find((l) => l.msg === 'fill sent' && l['requestId'] === info.requestId)).toMatchObject({ outputAmount: 99_950_000n, minimum: 90_000_000n });
    await waitFor('the filler to record it', () => filler.stats.settlements === 1);
  });

  it('a deposit asking for a token the bridge does not carry: without a swapper, or when the swap cannot be had or would deliver too little, no fill and a refund after the deadline', async () => {
    const other = Wallet.createRandom().address; // some token on the destination the filler would have to swap into
    const calls: string[] = [];
    let expected = 0n;
    const router = Wallet.createRandom().address;
    const swapper: DestinationSwapper = {
      spender: async () => router,
      build: async (r) => {
        calls.push(`${r.network} ${r.inputToken} ${r.inputAmount} -> ${r.outputToken} for ${r.recipient}, at least ${r.minOutputAmount}`);
        if (expected === 0n) throw new Error('no route: nothing trades that token');
        return { to: other, data: '0x', value: 0n, gasLimit: 100_000n, expectedOutput: expected, minOutput: expected, route: [] };
      },
    };
    // Without a swapper: says so once, leaves it to the refund.
    const bare = startFiller('normal');
    const d1 = await depositAsking(40_000_000n, other, 1_000n);
    await waitFor('the note', () => messagesFor(d1).includes('no destination swapper configured; not filling'));
    await bare.stop();
    running = [];

    // With one: it spends what the deposit brought (40 USDC less the 0.03 USDC minimum fee) and
    // asks for at least the deposit's outputAmount; a failure to build is retried, a short quote is refused.
    lines = [];
    const filler = startFiller('normal', swapper);
    await waitFor('a swap request', () => calls.length > 0);
    expect(calls[0]).toBe(`base ${f.destination.token.target as string} 39970000 -> ${other} for ${filler.address}, at least 1000`);
    await waitFor('a retry', () => calls.length > 1);
    expect(messagesFor(d1).filter((m) => m === 'no destination swap now; will retry').length).toBe(1); // logged once
    expected = 999n;
    await waitFor('the refusal', () => messagesFor(d1).includes('destination swap would deliver less than the deposit asks; not filling'));
    expect(lines.find((l) => l.msg.startsWith('destination swap would deliver less'))).toMatchObject({ expected: 999n, needed: 1_000n });
    expect(await stateOf(d1)).toBe('open');
    expect((await fillEvents(d1)).length).toBe(0);
    expect(filler.swaps).toEqual([]);
    // The swap router was approved for the bridged token before the first build.
    expect(lines.filter((l) => l.msg === 'approved the swap router').length).toBe(1);

    const userBefore = await f.origin.balanceOf(f.origin.token, f.world.user.address);
    await pastRefundTime(d1);
    await waitFor('the refund', async () => (await stateOf(d1)) === 'refunded');
    expect((await f.origin.balanceOf(f.origin.token, f.world.user.address)) - userBefore).toBe(40_000_000n);
    expect(lines.find((l) => l.msg === 'refunded' && l['requestId'] === d1.requestId)).toMatchObject({ reason: 'destination swap would deliver less than the deposit asks; not filling' });
  });

  it('revert mode does not swap before its doomed fill', async () => {
    const calls: unknown[] = [];
    const swapper: DestinationSwapper = { spender: async () => Wallet.createRandom().address, build: async (r) => (calls.push(r), Promise.reject(new Error('not expected'))) };
    const filler = startFiller('revert', swapper);
    const info = await depositAsking(20_000_000n, Wallet.createRandom().address, 1_000n);
    await waitFor('a recorded failure', () => filler.failures.length > 0);
    expect(filler.failures[0]).toMatchObject({ requestId: info.requestId, error: 'FillExpired' });
    expect(calls).toEqual([]);
  });
});
