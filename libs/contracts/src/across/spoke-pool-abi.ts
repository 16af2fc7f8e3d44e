/**
 * The parts of Across's SpokePool (5.x, @across-protocol/contracts 5.0.27) the bridge provider and
 * the devnet's relayer use, as human-readable ethers fragments. Written out here because production
 * code must not load the package (AGPL, a dev dependency): libs/bridge's `across-abi.spec.ts` reads
 * the package's SpokePool artifact and checks every selector and topic below against it, so a drift
 * fails the unit tests.
 *
 * 5.x addresses are bytes32 (EVM addresses left-padded), so the same pool interface serves non-EVM
 * chains; `toBytes32` / `fromBytes32` convert.
 */
import { Interface, getAddress, zeroPadValue } from 'ethers';

const RELAY_DATA =
  'tuple(bytes32 depositor, bytes32 recipient, bytes32 exclusiveRelayer, bytes32 inputToken, bytes32 outputToken, uint256 inputAmount, uint256 outputAmount, uint256 originChainId, uint256 depositId, uint32 fillDeadline, uint32 exclusivityDeadline, bytes message)';

export const ACROSS_SPOKE_POOL_FRAGMENTS: readonly string[] = [
  'function deposit(bytes32 depositor, bytes32 recipient, bytes32 inputToken, bytes32 outputToken, uint256 inputAmount, uint256 outputAmount, uint256 destinationChainId, bytes32 exclusiveRelayer, uint32 quoteTimestamp, uint32 fillDeadline, uint32 exclusivityParameter, bytes message) payable',
  `function getV3RelayHash(${RELAY_DATA} relayData) view returns (bytes32)`,
  'function fillStatuses(bytes32) view returns (uint256)',
  'function numberOfDeposits() view returns (uint32)',
  'function getCurrentTime() view returns (uint256)',
  'function depositQuoteTimeBuffer() view returns (uint32)',
  'function fillDeadlineBuffer() view returns (uint32)',
  'function wrappedNativeToken() view returns (address)',
  'event FundsDeposited(bytes32 inputToken, bytes32 outputToken, uint256 inputAmount, uint256 outputAmount, uint256 indexed destinationChainId, uint256 indexed depositId, uint32 quoteTimestamp, uint32 fillDeadline, uint32 exclusivityDeadline, bytes32 indexed depositor, bytes32 recipient, bytes32 exclusiveRelayer, bytes message)',
  'event FilledRelay(bytes32 inputToken, bytes32 outputToken, uint256 inputAmount, uint256 outputAmount, uint256 repaymentChainId, uint256 indexed originChainId, uint256 indexed depositId, uint32 fillDeadline, uint32 exclusivityDeadline, bytes32 exclusiveRelayer, bytes32 indexed relayer, bytes32 depositor, bytes32 recipient, bytes32 messageHash, tuple(bytes32 updatedRecipient, bytes32 updatedMessageHash, uint256 updatedOutputAmount, uint8 fillType) relayExecutionInfo)',
  'event ExecutedRelayerRefundRoot(uint256 amountToReturn, uint256 indexed chainId, uint256[] refundAmounts, uint32 indexed rootBundleId, uint32 indexed leafId, address l2TokenAddress, address[] refundAddresses, bool deferredRefunds, address caller)',
];

let iface: Interface | undefined;
export function acrossSpokePoolInterface(): Interface {
  return (iface ??= new Interface(ACROSS_SPOKE_POOL_FRAGMENTS as string[]));
}

export const ACROSS_TOPICS = {
  get fundsDeposited(): string {
    return acrossSpokePoolInterface().getEvent('FundsDeposited')!.topicHash;
  },
  get filledRelay(): string {
    return acrossSpokePoolInterface().getEvent('FilledRelay')!.topicHash;
  },
  get executedRelayerRefundRoot(): string {
    return acrossSpokePoolInterface().getEvent('ExecutedRelayerRefundRoot')!.topicHash;
  },
};

/** FillStatus of SpokePool: fillStatuses(relayHash). */
export const ACROSS_FILL_STATUS = { Unfilled: 0n, RequestedSlowFill: 1n, Filled: 2n } as const;

/**
 * Byte offset of `inputAmount` in `deposit` calldata: the 4-byte selector, then the static head
 * words depositor, recipient, inputToken, outputToken (4 x 32), so the fifth word.
 */
export const ACROSS_DEPOSIT_INPUT_AMOUNT_OFFSET = 4 + 4 * 32;

export function toBytes32(address: string): string {
  return zeroPadValue(getAddress(address), 32).toLowerCase();
}

/** The EVM address in a bytes32 (its low 20 bytes), checksummed. */
export function fromBytes32(word: string): string {
  return getAddress(`0x${word.slice(-40)}`);
}
