/** TypeScript shapes of the bridge structs (solidity/bridge/interfaces/IBridge.sol). Amounts are bigint. */

/** BridgeEscrow.REFUND_GRACE: a deposit is refundable from `fillDeadline + REFUND_GRACE` (seconds). */
export const BRIDGE_REFUND_GRACE = 600n;
/** BridgeEscrow.MAX_FILL_WINDOW: `fillDeadline` may be at most this far (seconds) after the deposit's block. */
export const BRIDGE_MAX_FILL_WINDOW = 86_400n;

/** Solidity `Deposit`: what the depositor asks for, made on the origin network. address(0) = native. */
export interface BridgeDeposit {
  inputToken: string;
  inputAmount: bigint;
  destinationChainId: bigint;
  /** token address on the destination network */
  outputToken: string;
  /** what `recipient` must receive on the destination */
  outputAmount: bigint;
  recipient: string;
  /** unix seconds */
  fillDeadline: bigint;
  refundTo: string;
}

/** Solidity `Fill`: what a filler delivers on the destination for one deposit. */
export interface BridgeFill {
  originChainId: bigint;
  requestId: string;
  outputToken: string;
  outputAmount: bigint;
  recipient: string;
  fillDeadline: bigint;
}

/** Solidity `DepositStatus`, by index; 'none' = no such request id. */
export const BRIDGE_DEPOSIT_STATUSES = ['none', 'open', 'settled', 'refunded'] as const;
export type BridgeDepositStatus = (typeof BRIDGE_DEPOSIT_STATUSES)[number];

export interface BridgeDepositRecord {
  deposit: BridgeDeposit;
  depositor: string;
  status: BridgeDepositStatus;
}

export interface DeployedBridge {
  /** origin side: BridgeEscrow */
  escrow: string;
  /** destination side: BridgeSettler */
  settler: string;
}
