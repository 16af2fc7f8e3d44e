/**
 * Across SpokePool events decoded into plain records (EVM addresses, bigint amounts), and the
 * V3RelayData a fill status look-up (or a fill) needs: read by the bridge provider and by the
 * devnet's Across relayer.
 */
import { ACROSS_TOPICS, acrossSpokePoolInterface, fromBytes32, toBytes32 } from './spoke-pool-abi';

export interface RawLog {
  address: string;
  topics: readonly string[];
  data: string;
}

export interface AcrossDepositEvent {
  destinationChainId: bigint;
  depositId: bigint;
  /** who an expired deposit is refunded to (Across's `depositor` field; not necessarily the sender) */
  depositor: string;
  recipient: string;
  inputToken: string;
  outputToken: string;
  inputAmount: bigint;
  outputAmount: bigint;
  quoteTimestamp: number;
  fillDeadline: number;
  exclusivityDeadline: number;
  exclusiveRelayer: string;
  message: string;
}

export interface AcrossFillEvent {
  originChainId: bigint;
  depositId: bigint;
  relayer: string;
  repaymentChainId: bigint;
  outputToken: string;
  outputAmount: bigint;
  /** the recipient and amount actually paid (the deposit's own unless the depositor sped it up) */
  paidRecipient: string;
  paidAmount: bigint;
}

export interface AcrossRefundLeafEvent {
  chainId: bigint;
  rootBundleId: number;
  leafId: number;
  token: string;
  refundAddresses: string[];
  refundAmounts: bigint[];
  deferredRefunds: boolean;
}

const topicIs = (log: RawLog, topic: string, address?: string): boolean =>
  log.topics[0] === topic && (address === undefined || log.address.toLowerCase() === address.toLowerCase());

export function decodeFundsDeposited(log: RawLog, spokePool?: string): AcrossDepositEvent | undefined {
  if (!topicIs(log, ACROSS_TOPICS.fundsDeposited, spokePool)) return undefined;
  const a = acrossSpokePoolInterface().parseLog({ topics: [...log.topics], data: log.data })!.args;
  return {
    destinationChainId: a['destinationChainId'] as bigint,
    depositId: a['depositId'] as bigint,
    depositor: fromBytes32(a['depositor'] as string),
    recipient: fromBytes32(a['recipient'] as string),
    inputToken: fromBytes32(a['inputToken'] as string),
    outputToken: fromBytes32(a['outputToken'] as string),
    inputAmount: a['inputAmount'] as bigint,
    outputAmount: a['outputAmount'] as bigint,
    quoteTimestamp: Number(a['quoteTimestamp']),
    fillDeadline: Number(a['fillDeadline']),
    exclusivityDeadline: Number(a['exclusivityDeadline']),
    exclusiveRelayer: fromBytes32(a['exclusiveRelayer'] as string),
    message: a['message'] as string,
  };
}

export function decodeFilledRelay(log: RawLog, spokePool?: string): AcrossFillEvent | undefined {
  if (!topicIs(log, ACROSS_TOPICS.filledRelay, spokePool)) return undefined;
  const a = acrossSpokePoolInterface().parseLog({ topics: [...log.topics], data: log.data })!.args;
  const info = a['relayExecutionInfo'] as unknown as { updatedRecipient: string; updatedOutputAmount: bigint };
  return {
    originChainId: a['originChainId'] as bigint,
    depositId: a['depositId'] as bigint,
    relayer: fromBytes32(a['relayer'] as string),
    repaymentChainId: a['repaymentChainId'] as bigint,
    outputToken: fromBytes32(a['outputToken'] as string),
    outputAmount: a['outputAmount'] as bigint,
    paidRecipient: fromBytes32(info.updatedRecipient),
    paidAmount: info.updatedOutputAmount,
  };
}

export function decodeRefundLeaf(log: RawLog, spokePool?: string): AcrossRefundLeafEvent | undefined {
  if (!topicIs(log, ACROSS_TOPICS.executedRelayerRefundRoot, spokePool)) return undefined;
  const a = acrossSpokePoolInterface().parseLog({ topics: [...log.topics], data: log.data })!.args;
  return {
    chainId: a['chainId'] as bigint,
    rootBundleId: Number(a['rootBundleId']),
    leafId: Number(a['leafId']),
    token: a['l2TokenAddress'] as string,
    refundAddresses: [...(a['refundAddresses'] as string[])],
    refundAmounts: [...(a['refundAmounts'] as bigint[])],
    deferredRefunds: a['deferredRefunds'] as boolean,
  };
}

/** getV3RelayHash's and fillRelay's argument (V3RelayData, bytes32 addresses) for a deposit made on `originChainId`. */
export function relayDataOf(
  originChainId: number,
  d: Omit<AcrossDepositEvent, 'destinationChainId' | 'quoteTimestamp'>,
): Record<string, unknown> {
  return {
    depositor: toBytes32(d.depositor),
    recipient: toBytes32(d.recipient),
    exclusiveRelayer: toBytes32(d.exclusiveRelayer),
    inputToken: toBytes32(d.inputToken),
    outputToken: toBytes32(d.outputToken),
    inputAmount: d.inputAmount,
    outputAmount: d.outputAmount,
    originChainId: BigInt(originChainId),
    depositId: d.depositId,
    fillDeadline: d.fillDeadline,
    exclusivityDeadline: d.exclusivityDeadline,
    message: d.message,
  };
}

/**
 * How a refund leaf pays an expired deposit, if it does: Across refunds an expired deposit inside a
 * relayer refund leaf on the origin (the data worker's bundle), which names no deposit id; the leaf
 * is taken as the deposit's refund when it pays the deposit's input token to its depositor, at
 * least its input amount. The caller checks the rest (executed after the fill deadline, the deposit
 * unfilled). Returns the index in the leaf's refund lists.
 */
export function refundIndexFor(
  leaf: AcrossRefundLeafEvent,
  d: Pick<AcrossDepositEvent, 'depositor' | 'inputToken' | 'inputAmount'>,
): number | undefined {
  if (leaf.token.toLowerCase() !== d.inputToken.toLowerCase()) return undefined;
  const i = leaf.refundAddresses.findIndex(
    (a, k) => a.toLowerCase() === d.depositor.toLowerCase() && (leaf.refundAmounts[k] ?? 0n) >= d.inputAmount,
  );
  return i >= 0 ? i : undefined;
}
