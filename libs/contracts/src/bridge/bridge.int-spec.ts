import { type Contract, ContractFactory, MaxUint256, Wallet, ZeroAddress, parseEther } from 'ethers';
import { loadArtifact } from '../local-artifacts';
import { BRIDGE_TOPICS, bridgeEscrowInterface, bridgeRequestId, bridgeSettlerInterface } from './abi';
import {
  DEPOSIT_INPUT_AMOUNT_OFFSET,
  encodeDeposit,
  encodeFill,
  encodeRefund,
  encodeSetAttester,
  encodeSettle,
  fillForDeposit,
  parseDepositCreated,
  parseDepositRefunded,
  parseDepositSettled,
  parseFilled,
  readDeposit,
  readFilledBy,
} from './bridge';
import { BRIDGE_MAX_FILL_WINDOW, BRIDGE_REFUND_GRACE, type BridgeDeposit } from './types';
import { type Actor, type BridgeChain, type BridgeWorld, bridgeRevertOf, sendOk, sendReverts, startBridgeWorld } from './testing/bridge-world';

describe('devnet bridge on two anvils: escrow on chain 1, settler on chain 8453', () => {
  let w: BridgeWorld;
  let O: BridgeChain, D: BridgeChain;
  let snaps: string[];

  beforeAll(async () => {
    w = await startBridgeWorld(1, 8453);
    ({ origin: O, destination: D } = w);
  }, 90_000);
  afterAll(async () => {
    await w?.stop();
  });
  beforeEach(async () => {
    snaps = await Promise.all([O.snapshot(), D.snapshot()]);
  });
  afterEach(async () => {
    await O.revert(snaps[0]!);
    await D.revert(snaps[1]!);
  });

  const addr = (c: Contract) => c.target as string;
  /** Both clocks move in these tests; a deadline must lie ahead on both chains. */
  const deadlineIn = async (seconds: bigint) => {
    const [o, d] = await Promise.all([O.now(), D.now()]);
    return (o > d ? o : d) + seconds;
  };
  const approve = async (chain: BridgeChain, who: Actor, token: Contract, spender: Contract) => {
    await sendOk(who.on(chain), { to: addr(token), data: token.interface.encodeFunctionData('approve', [addr(spender), MaxUint256]) });
  };
  const erc20Deposit = async (overrides: Partial<BridgeDeposit> = {}): Promise<BridgeDeposit> => ({
    inputToken: addr(O.token),
    inputAmount: 100_000_000n,
    destinationChainId: D.chainId,
    outputToken: addr(D.token),
    outputAmount: 99_500_000n,
    recipient: Wallet.createRandom().address,
    fillDeadline: await deadlineIn(1_800n),
    refundTo: w.user.address,
    ...overrides,
  });
  const nativeDeposit = async (overrides: Partial<BridgeDeposit> = {}) =>
    erc20Deposit({ inputToken: ZeroAddress, inputAmount: parseEther('1'), outputToken: ZeroAddress, outputAmount: parseEther('0.998'), ...overrides });
  /** The user deposits `d` on the origin (approving the escrow first for an ERC-20). */
  const deposit = async (d: BridgeDeposit) => {
    if (d.inputToken !== ZeroAddress) await approve(O, w.user, O.token, O.escrow);
    const nonce = (await O.escrow.getFunction('nonce')()) as bigint;
    const receipt = await sendOk(w.user.on(O), { to: addr(O.escrow), data: encodeDeposit(d), value: d.inputToken === ZeroAddress ? d.inputAmount : 0n });
    const requestId = bridgeRequestId(O.chainId, addr(O.escrow), nonce);
    return { receipt, requestId };
  };

  it('an ERC-20 deposit is filled to the recipient on the destination and settled to the filler on the origin, each once', async () => {
    const d = await erc20Deposit();
    const userBefore = await O.balanceOf(O.token, w.user.address);

    const { receipt, requestId } = await deposit(d);

    expect(parseDepositCreated(receipt.logs, addr(O.escrow))).toEqual([{ requestId, depositor: w.user.address, ...d }]);
    expect(userBefore - (await O.balanceOf(O.token, w.user.address))).toBe(d.inputAmount);
    expect(await O.balanceOf(O.token, addr(O.escrow))).toBe(d.inputAmount);
    expect(await readDeposit(O.provider, addr(O.escrow), requestId)).toEqual({ deposit: d, depositor: w.user.address, status: 'open' });

    // Fill on the destination from the filler's inventory.
    await approve(D, w.filler, D.token, D.settler);
    const fillerOnDestination = await D.balanceOf(D.token, w.filler.address);
    const fill = fillForDeposit(O.chainId, requestId, d);
    const fillReceipt = await sendOk(w.filler.on(D), { to: addr(D.settler), data: encodeFill(fill) });

    expect(await D.balanceOf(D.token, d.recipient)).toBe(d.outputAmount);
    expect(fillerOnDestination - (await D.balanceOf(D.token, w.filler.address))).toBe(d.outputAmount);
    expect(await D.balanceOf(D.token, addr(D.settler))).toBe(0n);
    expect(parseFilled(fillReceipt.logs, addr(D.settler))).toEqual([
      { originChainId: O.chainId, requestId, filler: w.filler.address, recipient: d.recipient, outputToken: d.outputToken, outputAmount: d.outputAmount },
    ]);
    expect(parseFilled(fillReceipt.logs, Wallet.createRandom().address)).toEqual([]); // another emitter's logs are ignored
    expect(await readFilledBy(D.provider, addr(D.settler), O.chainId, requestId)).toBe(w.filler.address);

    // A second fill, by the same filler or anyone else, fails on chain and moves nothing.
    for (const who of [w.filler, w.stranger]) {
      await approve(D, who, D.token, D.settler);
      await sendReverts(who.on(D), { to: addr(D.settler), data: encodeFill(fill) }, 'AlreadyFilled');
    }
    expect(await bridgeRevertOf(D.provider, { from: w.stranger.address, to: addr(D.settler), data: encodeFill(fill) })).toEqual({ name: 'AlreadyFilled', args: [w.filler.address] });
    expect(await D.balanceOf(D.token, d.recipient)).toBe(d.outputAmount);

    // The attester saw the fill: the filler is repaid with the escrowed input on the origin.
    const fillerOnOrigin = await O.balanceOf(O.token, w.filler.address);
    const settleReceipt = await sendOk(w.attester.on(O), { to: addr(O.escrow), data: encodeSettle(requestId, w.filler.address, fillReceipt.hash) });

    expect((await O.balanceOf(O.token, w.filler.address)) - fillerOnOrigin).toBe(d.inputAmount);
    expect(await O.balanceOf(O.token, addr(O.escrow))).toBe(0n);
    expect(parseDepositSettled(settleReceipt.logs, addr(O.escrow))).toEqual([{ requestId, filler: w.filler.address, fillTxHash: fillReceipt.hash }]);
    expect((await readDeposit(O.provider, addr(O.escrow), requestId)).status).toBe('settled');

    // Settled is final: no second settlement, and no refund even long after the deadline.
    await sendReverts(w.attester.on(O), { to: addr(O.escrow), data: encodeSettle(requestId, w.stranger.address, fillReceipt.hash) }, 'AlreadySettled');
    await O.increaseTime(d.fillDeadline - (await O.now()) + BRIDGE_REFUND_GRACE + 60n);
    await sendReverts(w.stranger.on(O), { to: addr(O.escrow), data: encodeRefund(requestId) }, 'AlreadySettled');
    expect((await O.balanceOf(O.token, w.filler.address)) - fillerOnOrigin).toBe(d.inputAmount);
  });

  it('a native deposit (msg.value) is filled with native on the destination and settles native to the filler', async () => {
    const d = await nativeDeposit();
    expect((await bridgeRevertOf(O.provider, { from: w.user.address, to: addr(O.escrow), data: encodeDeposit(d), value: d.inputAmount - 1n })).name).toBe('BadNativeValue');

    const { receipt, requestId } = await deposit(d);
    expect(parseDepositCreated(receipt.logs, addr(O.escrow))).toEqual([{ requestId, depositor: w.user.address, ...d }]);
    expect(await O.balanceOf('native', addr(O.escrow))).toBe(d.inputAmount);

    const fill = fillForDeposit(O.chainId, requestId, d);
    expect((await bridgeRevertOf(D.provider, { from: w.filler.address, to: addr(D.settler), data: encodeFill(fill), value: d.outputAmount + 1n })).name).toBe('BadNativeValue');
    const fillReceipt = await sendOk(w.filler.on(D), { to: addr(D.settler), data: encodeFill(fill), value: d.outputAmount });
    expect(await D.balanceOf('native', d.recipient)).toBe(d.outputAmount);
    expect(await D.balanceOf('native', addr(D.settler))).toBe(0n);
    expect(parseFilled(fillReceipt.logs, addr(D.settler))).toEqual([
      { originChainId: O.chainId, requestId, filler: w.filler.address, recipient: d.recipient, outputToken: ZeroAddress, outputAmount: d.outputAmount },
    ]);

    // The attester pays the gas, so the filler's native balance grows by exactly the input.
    const fillerOnOrigin = await O.balanceOf('native', w.filler.address);
    await sendOk(w.attester.on(O), { to: addr(O.escrow), data: encodeSettle(requestId, w.filler.address, fillReceipt.hash) });
    expect((await O.balanceOf('native', w.filler.address)) - fillerOnOrigin).toBe(d.inputAmount);
    expect(await O.balanceOf('native', addr(O.escrow))).toBe(0n);
    await sendReverts(w.attester.on(O), { to: addr(O.escrow), data: encodeSettle(requestId, w.filler.address, fillReceipt.hash) }, 'AlreadySettled');
  });

  it('refunds refundTo only from fillDeadline + REFUND_GRACE, after which the deposit cannot be settled', async () => {
    const refundTo = Wallet.createRandom().address;
    const erc = await erc20Deposit({ refundTo });
    const native = await nativeDeposit({ refundTo, fillDeadline: erc.fillDeadline });
    const { requestId: ercId } = await deposit(erc);
    const { requestId: nativeId } = await deposit(native);
    const refundableAt = erc.fillDeadline + BRIDGE_REFUND_GRACE;
    const refundTx = (id: string) => ({ from: w.stranger.address, to: addr(O.escrow), data: encodeRefund(id) });

    expect(await bridgeRevertOf(O.provider, refundTx(ercId))).toEqual({ name: 'RefundTooEarly', args: [refundableAt] });
    expect(await O.escrow.getFunction('refundableAt')(ercId)).toBe(refundableAt);
    // Past the fill deadline but inside the grace the attester has to settle: still too early.
    await O.increaseTime(erc.fillDeadline - (await O.now()) + 1n);
    await sendReverts(w.stranger.on(O), refundTx(ercId), 'RefundTooEarly');

    await O.increaseTime(refundableAt - (await O.now()));
    const ercReceipt = await sendOk(w.stranger.on(O), refundTx(ercId));
    const nativeReceipt = await sendOk(w.stranger.on(O), refundTx(nativeId));

    expect(await O.balanceOf(O.token, refundTo)).toBe(erc.inputAmount);
    expect(await O.balanceOf('native', refundTo)).toBe(native.inputAmount);
    expect(await O.balanceOf(O.token, addr(O.escrow))).toBe(0n);
    expect(await O.balanceOf('native', addr(O.escrow))).toBe(0n);
    expect(parseDepositRefunded(ercReceipt.logs, addr(O.escrow))).toEqual([{ requestId: ercId, refundTo, token: erc.inputToken, amount: erc.inputAmount }]);
    expect(parseDepositRefunded(nativeReceipt.logs, addr(O.escrow))).toEqual([{ requestId: nativeId, refundTo, token: ZeroAddress, amount: native.inputAmount }]);
    expect((await readDeposit(O.provider, addr(O.escrow), ercId)).status).toBe('refunded');

    // Refunded is final: neither a late settlement nor a second refund.
    const fillerBefore = await O.balanceOf(O.token, w.filler.address);
    await sendReverts(w.attester.on(O), { to: addr(O.escrow), data: encodeSettle(ercId, w.filler.address, ercReceipt.hash) }, 'AlreadyRefunded');
    await sendReverts(w.stranger.on(O), refundTx(ercId), 'AlreadyRefunded');
    expect(await O.balanceOf(O.token, w.filler.address)).toBe(fillerBefore);
    expect(await O.balanceOf(O.token, refundTo)).toBe(erc.inputAmount);
  });

  it('only the attester settles; the owner can replace the attester and nobody else can', async () => {
    const { requestId } = await deposit(await erc20Deposit());
    const settle = (who: Actor) => ({ from: who.address, to: addr(O.escrow), data: encodeSettle(requestId, who.address, `0x${'11'.repeat(32)}`) });

    for (const who of [w.stranger, w.filler, w.user, w.deployer]) expect((await bridgeRevertOf(O.provider, settle(who))).name).toBe('NotAttester');
    await sendReverts(w.stranger.on(O), settle(w.stranger), 'NotAttester');
    expect(await bridgeRevertOf(O.provider, { from: w.attester.address, to: addr(O.escrow), data: encodeSettle(`0x${'22'.repeat(32)}`, w.filler.address, `0x${'11'.repeat(32)}`) })).toEqual({ name: 'UnknownDeposit', args: [] });
    expect((await bridgeRevertOf(O.provider, { from: w.attester.address, to: addr(O.escrow), data: encodeSettle(requestId, ZeroAddress, `0x${'11'.repeat(32)}`) })).name).toBe('InvalidFiller');

    expect(await bridgeRevertOf(O.provider, { from: w.stranger.address, to: addr(O.escrow), data: encodeSetAttester(w.stranger.address) })).toEqual({ name: 'OwnableUnauthorizedAccount', args: [w.stranger.address] });
    expect((await bridgeRevertOf(O.provider, { from: w.deployer.address, to: addr(O.escrow), data: encodeSetAttester(ZeroAddress) })).name).toBe('InvalidAttester');
    const rotated = await sendOk(w.deployer.on(O), { to: addr(O.escrow), data: encodeSetAttester(w.stranger.address) });
    expect(rotated.logs.map((l) => l.topics[0])).toEqual([BRIDGE_TOPICS.attesterChanged]);
    expect(await O.escrow.getFunction('attester')()).toBe(w.stranger.address);

    expect((await bridgeRevertOf(O.provider, settle(w.attester))).name).toBe('NotAttester');
    const before = await O.balanceOf(O.token, w.stranger.address);
    await sendOk(w.stranger.on(O), settle(w.stranger));
    expect((await O.balanceOf(O.token, w.stranger.address)) - before).toBe(100_000_000n);
  });

  it('a fill after the fill deadline reverts and leaves the request unfilled', async () => {
    const d = await erc20Deposit({ fillDeadline: await deadlineIn(120n) });
    const { requestId } = await deposit(d);
    await approve(D, w.filler, D.token, D.settler);
    const fill = fillForDeposit(O.chainId, requestId, d);

    await D.increaseTime(d.fillDeadline - (await D.now()) + 1n);
    await sendReverts(w.filler.on(D), { to: addr(D.settler), data: encodeFill(fill) }, 'FillExpired');

    expect(await D.balanceOf(D.token, d.recipient)).toBe(0n);
    expect(await readFilledBy(D.provider, addr(D.settler), O.chainId, requestId)).toBeUndefined();
  });

  it('deposit rejects zero amounts, bad deadlines, its own chain as destination, missing recipient or refundTo, stray value and fee-on-transfer tokens', async () => {
    await approve(O, w.user, O.token, O.escrow);
    const now = await O.now();
    const cases: Array<[Partial<BridgeDeposit>, string]> = [
      [{ inputAmount: 0n }, 'ZeroAmount'],
      [{ outputAmount: 0n }, 'ZeroAmount'],
      [{ fillDeadline: now }, 'DeadlinePassed'],
      [{ fillDeadline: now + BRIDGE_MAX_FILL_WINDOW + 600n }, 'DeadlineTooFar'],
      [{ destinationChainId: O.chainId }, 'SameChain'],
      [{ recipient: ZeroAddress }, 'InvalidRecipient'],
      [{ refundTo: ZeroAddress }, 'InvalidRefundTo'],
      [{ refundTo: addr(O.escrow) }, 'InvalidRefundTo'],
    ];
    for (const [overrides, error] of cases) {
      const tx = { from: w.user.address, to: addr(O.escrow), data: encodeDeposit(await erc20Deposit(overrides)) };
      expect([overrides, (await bridgeRevertOf(O.provider, tx)).name]).toEqual([overrides, error]);
    }
    const withValue = { from: w.user.address, to: addr(O.escrow), data: encodeDeposit(await erc20Deposit()), value: 1n };
    expect((await bridgeRevertOf(O.provider, withValue)).name).toBe('BadNativeValue');

    // A token that delivers less than sent would let one deposit pay out another's funds.
    const fot = await deployFeeOnTransfer(O, w.user);
    await approve(O, w.user, fot, O.escrow);
    const fotDeposit = { from: w.user.address, to: addr(O.escrow), data: encodeDeposit(await erc20Deposit({ inputToken: addr(fot) })) };
    expect((await bridgeRevertOf(O.provider, fotDeposit)).name).toBe('UnsupportedToken');
    expect(await O.escrow.getFunction('nonce')()).toBe(0n);
  });

  it('fill rejects zero amounts, its own chain as origin, a missing recipient, stray value and short delivery', async () => {
    await approve(D, w.filler, D.token, D.settler);
    const base = fillForDeposit(O.chainId, `0x${'33'.repeat(32)}`, await erc20Deposit());
    const cases: Array<[Partial<typeof base>, string]> = [
      [{ outputAmount: 0n }, 'ZeroAmount'],
      [{ originChainId: D.chainId }, 'SameChain'],
      [{ recipient: ZeroAddress }, 'InvalidRecipient'],
      [{ recipient: addr(D.settler) }, 'InvalidRecipient'],
    ];
    for (const [overrides, error] of cases) {
      const tx = { from: w.filler.address, to: addr(D.settler), data: encodeFill({ ...base, ...overrides }) };
      expect([overrides, (await bridgeRevertOf(D.provider, tx)).name]).toEqual([overrides, error]);
    }
    expect((await bridgeRevertOf(D.provider, { from: w.filler.address, to: addr(D.settler), data: encodeFill(base), value: 1n })).name).toBe('BadNativeValue');

    const fot = await deployFeeOnTransfer(D, w.filler);
    await approve(D, w.filler, fot, D.settler);
    const short = { from: w.filler.address, to: addr(D.settler), data: encodeFill({ ...base, outputToken: addr(fot) }) };
    expect((await bridgeRevertOf(D.provider, short)).name).toBe('UnsupportedToken');
  });

  it('the topic constants and the deposit amount offset match the compiled contracts', () => {
    const escrow = bridgeEscrowInterface();
    expect(BRIDGE_TOPICS).toEqual({
      depositCreated: escrow.getEvent('DepositCreated')!.topicHash,
      depositSettled: escrow.getEvent('DepositSettled')!.topicHash,
      depositRefunded: escrow.getEvent('DepositRefunded')!.topicHash,
      attesterChanged: escrow.getEvent('AttesterChanged')!.topicHash,
      filled: bridgeSettlerInterface().getEvent('Filled')!.topicHash,
    });
    const data = encodeDeposit({ inputToken: ZeroAddress, inputAmount: 0x1234n, destinationChainId: 1n, outputToken: ZeroAddress, outputAmount: 1n, recipient: ZeroAddress, fillDeadline: 1n, refundTo: ZeroAddress });
    expect(BigInt(`0x${data.slice(2 + DEPOSIT_INPUT_AMOUNT_OFFSET * 2, 2 + DEPOSIT_INPUT_AMOUNT_OFFSET * 2 + 64)}`)).toBe(0x1234n);
  });
});

async function deployFeeOnTransfer(chain: BridgeChain, holder: Actor): Promise<Contract> {
  const artifact = loadArtifact('FeeOnTransferToken');
  const token = (await new ContractFactory(artifact.abi, artifact.bytecode, holder.on(chain)).deploy()) as Contract;
  await token.waitForDeployment();
  await sendOk(holder.on(chain), { to: token.target as string, data: token.interface.encodeFunctionData('mint', [holder.address, 10n ** 12n]) });
  return token;
}
