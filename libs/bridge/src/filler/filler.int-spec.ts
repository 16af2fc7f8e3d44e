import { MaxUint256, parseEther } from 'ethers';
import { BRIDGE_REFUND_GRACE, BRIDGE_TOPICS, encodeFill, fillForDeposit, sendOk } from '@tokensvc/contracts';
import { uintTopic } from '../chain';
import type { BridgeDepositInfo, BridgeDepositState } from '../provider';
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

  const startFiller = (mode: FillerMode): Filler => {
    const filler = new Filler({ provider: f.provider, privateKey: f.fillerKey, mode, pollMs: 100, receiptPollMs: 20, log: (level, msg, fields) => void lines.push({ level, msg, ...fields }) });
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
});
