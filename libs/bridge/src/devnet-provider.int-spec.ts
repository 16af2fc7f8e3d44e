import { MaxUint256, Wallet, ZeroAddress, parseEther, toBeHex } from 'ethers';
import { BRIDGE_REFUND_GRACE, bridgeRequestId, encodeFill, encodeRefund, encodeSettle, fillForDeposit, sendOk } from '@tokensvc/contracts';
import { toBridgeDeposit } from './filler/filler';
import { type BridgeFixture, UNKNOWN_REQUEST_ID, startBridgeFixture } from './testing/bridge-fixture';

describe('DevnetBridgeProvider on two anvils (ethereum = chain 1, base = chain 8453)', () => {
  let f: BridgeFixture;
  let snaps: string[];

  beforeAll(async () => {
    // 25 blocks per eth_getLogs, so the look-ups below page through several ranges.
    f = await startBridgeFixture({ logRange: 25 });
  }, 90_000);
  afterAll(async () => {
    await f?.stop();
  });
  beforeEach(async () => {
    snaps = await Promise.all([f.origin.snapshot(), f.destination.snapshot()]);
  });
  afterEach(async () => {
    await f.origin.revert(snaps[0]!);
    await f.destination.revert(snaps[1]!);
  });

  const escrow = () => f.origin.escrow.target as string;
  const settler = () => f.destination.settler.target as string;

  it('quotes 0.05 % (at least 3 cents), ~30 s and a deadline 20 minutes after the later chain clock', async () => {
    const [usdc, eth] = f.provider.route('ethereum', 'base')!.tokens;
    const before = Math.max(Number(await f.origin.now()), Number(await f.destination.now()), Math.floor(Date.now() / 1000));
    const q = await f.provider.quote({ originNetwork: 'ethereum', destinationNetwork: 'base', inputToken: usdc!.originToken, inputAmount: 250_000_000n, outputToken: usdc!.destinationToken });
    expect(q).toMatchObject({ provider: 'devnet-bridge', originChainId: 1, destinationChainId: 8453, fee: 125_000n, outputAmount: 249_875_000n, estimatedSeconds: 30 });
    expect(q.fillDeadline - 1200).toBeGreaterThanOrEqual(before);
    expect(q.fillDeadline - 1200).toBeLessThanOrEqual(before + 5);
    const small = await f.provider.quote({ originNetwork: 'ethereum', destinationNetwork: 'base', inputToken: usdc!.originToken, inputAmount: 1_000_000n, outputToken: usdc!.destinationToken });
    expect([small.fee, small.outputAmount]).toEqual([30_000n, 970_000n]);
    const native = await f.provider.quote({ originNetwork: 'ethereum', destinationNetwork: 'base', inputToken: eth!.originToken, inputAmount: parseEther('2'), outputToken: eth!.destinationToken });
    expect([native.fee, native.outputAmount]).toEqual([parseEther('0.001'), parseEther('1.999')]);

    // The chain's clock leads after time control: the deadline follows it, so the deposit is still accepted.
    await f.passTime(3_600);
    const later = await f.provider.quote({ ...q });
    expect(later.fillDeadline).toBeGreaterThanOrEqual(Number(await f.origin.now()) + 1200);
  });

  it('an ERC-20 deposit: findDeposit, then findFill after the fill, settled, never refunded', async () => {
    const recipient = Wallet.createRandom().address;
    const nonce = (await f.origin.escrow.getFunction('nonce')()) as bigint;
    const { quote, info, receipt } = await f.deposit('USDC', 100_000_000n, { recipient });
    const requestId = bridgeRequestId(1, escrow(), nonce);
    const log = receipt.logs.find((l) => l.address === escrow())!;
    expect(info).toEqual({
      requestId,
      originNetwork: 'ethereum',
      originChainId: 1,
      destinationNetwork: 'base',
      destinationChainId: 8453,
      depositor: f.world.user.address,
      inputToken: quote.inputToken,
      inputAmount: 100_000_000n,
      outputToken: quote.outputToken,
      outputAmount: 99_950_000n,
      recipient,
      refundTo: f.world.user.address,
      fillDeadline: quote.fillDeadline,
      txHash: receipt.hash,
      blockNumber: receipt.blockNumber,
      logIndex: log.index,
    });
    expect(await f.provider.depositState('ethereum', requestId)).toBe('open');
    expect(await f.provider.findFill('base', 1, requestId)).toBeUndefined();
    expect(await f.provider.findRefund('ethereum', requestId)).toBeUndefined();

    // The filler fills on the destination, then the chain moves on by many blocks.
    const filler = f.world.filler.on(f.destination);
    await sendOk(filler, { to: f.destination.token.target as string, data: f.destination.token.interface.encodeFunctionData('approve', [settler(), MaxUint256]) });
    const headBefore = await f.destination.provider.getBlockNumber();
    const fill = await sendOk(filler, { to: settler(), data: encodeFill(fillForDeposit(1n, requestId, toBridgeDeposit(info))) });
    await f.destination.provider.send('anvil_mine', [toBeHex(200), toBeHex(1)]);

    const expected = { txHash: fill.hash, blockNumber: fill.blockNumber, logIndex: fill.logs.find((l) => l.address === settler())!.index, filler: f.world.filler.address, amount: 99_950_000n, recipient, outputToken: quote.outputToken };
    expect(await f.provider.findFill('base', 1, requestId)).toEqual(expected);
    expect(await f.provider.findFill('base', 1, requestId, { fromBlock: headBefore })).toEqual(expected);
    expect(await f.provider.findFill('base', 1, UNKNOWN_REQUEST_ID)).toBeUndefined();
    expect(await f.provider.depositState('ethereum', requestId)).toBe('open');

    await sendOk(f.world.attester.on(f.origin), { to: escrow(), data: encodeSettle(requestId, f.world.filler.address, fill.hash) });
    expect(await f.provider.depositState('ethereum', requestId)).toBe('settled');
    await f.passTime(quote.fillDeadline - Number(await f.origin.now()) + Number(BRIDGE_REFUND_GRACE));
    expect(await f.provider.findRefund('ethereum', requestId)).toBeUndefined();
  });

  it('a native deposit nobody fills: refunded after the deadline and the grace, findRefund finds it', async () => {
    const refundTo = Wallet.createRandom().address;
    const { info, receipt } = await f.deposit('ETH', parseEther('1'), { refundTo });
    expect(receipt.logs.length).toBe(1);
    expect(info).toMatchObject({ inputToken: ZeroAddress, inputAmount: parseEther('1'), outputToken: ZeroAddress, outputAmount: parseEther('0.9995'), refundTo });
    expect(await f.provider.depositState('ethereum', info.requestId)).toBe('open');

    await f.passTime(info.fillDeadline - Number(await f.origin.now()) + Number(BRIDGE_REFUND_GRACE));
    await f.origin.provider.send('anvil_mine', [toBeHex(60), toBeHex(1)]);
    const refund = await sendOk(f.world.stranger.on(f.origin), { to: escrow(), data: encodeRefund(info.requestId) });
    await f.origin.provider.send('anvil_mine', [toBeHex(100), toBeHex(1)]);

    expect(await f.provider.depositState('ethereum', info.requestId)).toBe('refunded');
    expect(await f.provider.findRefund('ethereum', info.requestId)).toEqual({ txHash: refund.hash, blockNumber: refund.blockNumber, logIndex: 0, amount: parseEther('1'), refundTo, token: ZeroAddress });
    expect(await f.provider.findRefund('ethereum', info.requestId, { fromBlock: info.blockNumber })).toMatchObject({ txHash: refund.hash });
    expect(await f.provider.findFill('base', 1, info.requestId)).toBeUndefined();
    expect(await f.origin.balanceOf('native', refundTo)).toBe(parseEther('1'));
  });

  it('unknown requests and transactions without deposits', async () => {
    expect(await f.provider.depositState('ethereum', UNKNOWN_REQUEST_ID)).toBe('unknown');
    expect(await f.provider.findRefund('ethereum', UNKNOWN_REQUEST_ID)).toBeUndefined();
    expect(await f.provider.findDeposit('ethereum', `0x${'ab'.repeat(32)}`)).toEqual([]);
    const transfer = await sendOk(f.world.user.on(f.origin), { to: f.world.stranger.address, value: 1n });
    expect(await f.provider.findDeposit('ethereum', transfer.hash)).toEqual([]);
    // Asked on the wrong network, a deposit's hash has no receipt.
    const { receipt } = await f.deposit('ETH', parseEther('0.1'));
    expect(await f.provider.findDeposit('base', receipt.hash)).toEqual([]);
  });
});
