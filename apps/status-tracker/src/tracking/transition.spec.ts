import { REASONS, isTerminal, nextState, type Observation, type SeenDeposit, type TrackedState } from './transition';

const T0 = 1_700_000_000_000;
const TIMEOUT = 30 * 60_000;
const DEPOSIT: SeenDeposit = {
  requestId: '0x' + '11'.repeat(32),
  destinationNetwork: 'base',
  destinationChainId: 8453,
  blockNumber: 12,
  fillDeadline: 1_700_001_200,
};
const pending: TrackedState = { status: 'PENDING', createdAtMs: T0 };
const ongoing: TrackedState = { status: 'ONGOING', createdAtMs: T0 };

const origin = (receipt: 'missing' | 'reverted' | 'mined', deposit: SeenDeposit | undefined, nowMs = T0 + 1_000): Observation => ({
  stage: 'origin',
  nowMs,
  receipt,
  deposit,
  originNotFoundTimeoutMs: TIMEOUT,
});
const settlement = (o: Partial<Extract<Observation, { stage: 'settlement' }>> = {}): Observation => ({
  stage: 'settlement',
  fill: undefined,
  refund: undefined,
  depositState: 'open',
  fillDeadline: DEPOSIT.fillDeadline,
  ...o,
});

describe('nextState', () => {
  it('stays PENDING while the origin receipt is missing, until the timeout', () => {
    expect(nextState(pending, origin('missing', undefined))).toEqual({ kind: 'stay' });
    expect(nextState(pending, origin('missing', undefined, T0 + TIMEOUT - 1))).toEqual({ kind: 'stay' });
    expect(nextState(pending, origin('missing', undefined, T0 + TIMEOUT))).toEqual({
      kind: 'terminal',
      status: 'FAILED',
      statusReason: REASONS.notFound(30),
      destinationTxHashes: [],
    });
  });

  it('fails a reverted origin transaction and one that made no deposit', () => {
    expect(nextState(pending, origin('reverted', undefined))).toEqual({
      kind: 'terminal',
      status: 'FAILED',
      statusReason: 'the origin transaction reverted; nothing was bridged',
      destinationTxHashes: [],
    });
    const wrongTarget = nextState(pending, origin('mined', undefined));
    expect(wrongTarget).toMatchObject({ kind: 'terminal', status: 'FAILED' });
    expect(wrongTarget.kind === 'terminal' && wrongTarget.statusReason).toMatch(/made no bridge deposit \(wrong target\)/);
  });

  it('goes ONGOING with the deposit once the receipt shows one', () => {
    expect(nextState(pending, origin('mined', DEPOSIT))).toEqual({ kind: 'ongoing', deposit: DEPOSIT });
  });

  it('ends in SUCCESS with the fill, REFUND_STATUS with the refund and its reason', () => {
    expect(nextState(ongoing, settlement({ fill: { txHash: '0xf1' }, depositState: 'settled' }))).toEqual({
      kind: 'terminal',
      status: 'SUCCESS',
      statusReason: undefined,
      destinationTxHashes: ['0xf1'],
    });
    const refund = nextState(
      ongoing,
      settlement({ refund: { txHash: '0xr1', refundTo: '0xabc', amount: 5n, token: '0xt' }, depositState: 'refunded' }),
    );
    expect(refund).toEqual({
      kind: 'terminal',
      status: 'REFUND_STATUS',
      statusReason: `not filled before the deadline (${new Date(DEPOSIT.fillDeadline * 1000).toISOString()}); refunded on the origin chain to 0xabc (5 of token 0xt)`,
      destinationTxHashes: ['0xr1'],
    });
  });

  it('prefers the fill when both a fill and a refund exist (the recipient was paid)', () => {
    const t = nextState(
      ongoing,
      settlement({ fill: { txHash: '0xf1' }, refund: { txHash: '0xr1', refundTo: '0xabc', amount: 5n, token: '0xt' } }),
    );
    expect(t).toMatchObject({ kind: 'terminal', status: 'SUCCESS' });
  });

  it('stays ONGOING while the deposit is open, or settled/refunded before the event is found (no premature terminal state)', () => {
    for (const depositState of ['open', 'settled', 'refunded'] as const)
      expect(nextState(ongoing, settlement({ depositState }))).toEqual({ kind: 'stay' });
  });

  it('fails an ONGOING order whose request the escrow does not know', () => {
    expect(nextState(ongoing, settlement({ depositState: 'unknown' }))).toEqual({
      kind: 'terminal',
      status: 'FAILED',
      statusReason: REASONS.unknownRequest,
      destinationTxHashes: [],
    });
  });

  it('never leaves a terminal state, and ignores observations of the wrong stage', () => {
    for (const status of ['SUCCESS', 'REFUND_STATUS', 'FAILED'] as const) {
      expect(isTerminal(status)).toBe(true);
      expect(nextState({ status, createdAtMs: T0 }, origin('reverted', undefined))).toEqual({ kind: 'stay' });
      expect(nextState({ status, createdAtMs: T0 }, settlement({ fill: { txHash: '0xf1' } }))).toEqual({ kind: 'stay' });
    }
    expect(nextState(ongoing, origin('reverted', undefined))).toEqual({ kind: 'stay' });
    expect(nextState(pending, settlement({ fill: { txHash: '0xf1' } }))).toEqual({ kind: 'stay' });
  });
});
