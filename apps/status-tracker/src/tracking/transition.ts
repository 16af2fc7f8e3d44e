/**
 * The tracker's state machine, as a pure function: what one look at the chains (an observation)
 * means for a tracked order. No I/O here, so every transition is unit-tested; the tracker reads
 * the chains, calls `nextState` and writes what it returns.
 *
 *   PENDING --receipt with a deposit--> ONGOING --fill on the destination--> SUCCESS
 *      |                                   |------refund on the origin-----> REFUND_STATUS
 *      |                                   '------escrow has no such request-> FAILED
 *      |--receipt reverted / no deposit in it / no receipt for too long--> FAILED
 *
 * Terminal states are final: an observation of a terminal order changes nothing.
 */
import type { BridgeDepositState } from '@tokensvc/bridge';

export const CROSS_CHAIN_STATUSES = ['PENDING', 'ONGOING', 'SUCCESS', 'REFUND_STATUS', 'FAILED'] as const;
export type CrossChainStatus = (typeof CROSS_CHAIN_STATUSES)[number];
export type TerminalStatus = Extract<CrossChainStatus, 'SUCCESS' | 'REFUND_STATUS' | 'FAILED'>;

export function isTerminal(status: CrossChainStatus): status is TerminalStatus {
  return status === 'SUCCESS' || status === 'REFUND_STATUS' || status === 'FAILED';
}

/** The part of a tracked order the transitions depend on. */
export interface TrackedState {
  status: CrossChainStatus;
  /** unix ms: when tracking began (the origin-not-found timeout counts from here) */
  createdAtMs: number;
}

/** The deposit the origin receipt shows (the first one, an order makes one). */
export interface SeenDeposit {
  requestId: string;
  destinationNetwork: string | undefined;
  destinationChainId: number;
  blockNumber: number;
  /** unix seconds */
  fillDeadline: number;
}

export type Observation =
  /** a PENDING order: its origin transaction's receipt and the deposits in it */
  | {
      stage: 'origin';
      nowMs: number;
      receipt: 'missing' | 'reverted' | 'mined';
      deposit: SeenDeposit | undefined;
      originNotFoundTimeoutMs: number;
    }
  /** an ONGOING order: the bridge's view of its request */
  | {
      stage: 'settlement';
      fill: { txHash: string } | undefined;
      refund: { txHash: string; refundTo: string; amount: bigint; token: string } | undefined;
      depositState: BridgeDepositState;
      /** unix seconds, for the refund's reason */
      fillDeadline: number | undefined;
    };

export type Transition =
  | { kind: 'stay' }
  | { kind: 'ongoing'; deposit: SeenDeposit }
  | { kind: 'terminal'; status: TerminalStatus; statusReason: string | undefined; destinationTxHashes: string[] };

const STAY: Transition = { kind: 'stay' };

export const REASONS = {
  reverted: 'the origin transaction reverted; nothing was bridged',
  noDeposit: 'the origin transaction succeeded but made no bridge deposit (wrong target); nothing was bridged',
  notFound: (minutes: number) => `the origin transaction was not found on chain within ${minutes} minutes; nothing was bridged`,
  unknownRequest: 'the bridge has no record of the deposit; it can be neither filled nor refunded',
  refunded: (deadline: number | undefined, refundTo: string, amount: bigint, token: string) =>
    `not filled before the deadline${deadline === undefined ? '' : ` (${new Date(deadline * 1000).toISOString()})`}; refunded on the origin chain to ${refundTo} (${amount} of token ${token})`,
} as const;

export function nextState(state: TrackedState, obs: Observation): Transition {
  if (isTerminal(state.status)) return STAY;
  if (obs.stage === 'origin') {
    if (state.status !== 'PENDING') return STAY;
    switch (obs.receipt) {
      case 'missing':
        // Not mined (yet): a client may poll before the transaction is even broadcast.
        if (obs.nowMs - state.createdAtMs < obs.originNotFoundTimeoutMs) return STAY;
        return {
          kind: 'terminal',
          status: 'FAILED',
          statusReason: REASONS.notFound(Math.round(obs.originNotFoundTimeoutMs / 60_000)),
          destinationTxHashes: [],
        };
      case 'reverted':
        return { kind: 'terminal', status: 'FAILED', statusReason: REASONS.reverted, destinationTxHashes: [] };
      case 'mined':
        if (!obs.deposit) return { kind: 'terminal', status: 'FAILED', statusReason: REASONS.noDeposit, destinationTxHashes: [] };
        return { kind: 'ongoing', deposit: obs.deposit };
    }
  }
  if (state.status !== 'ONGOING') return STAY;
  // A fill wins over a refund: the recipient was paid, the destination action executed.
  if (obs.fill) return { kind: 'terminal', status: 'SUCCESS', statusReason: undefined, destinationTxHashes: [obs.fill.txHash] };
  if (obs.refund) {
    const r = obs.refund;
    return {
      kind: 'terminal',
      status: 'REFUND_STATUS',
      statusReason: REASONS.refunded(obs.fillDeadline, r.refundTo, r.amount, r.token),
      destinationTxHashes: [r.txHash],
    };
  }
  // 'settled' / 'refunded' without the event found yet: the look-up catches up next time.
  if (obs.depositState === 'unknown')
    return { kind: 'terminal', status: 'FAILED', statusReason: REASONS.unknownRequest, destinationTxHashes: [] };
  return STAY;
}
