/** The shapes of a cross-chain order while it is planned (cross-chain-planner.ts), built (cross-chain-orders.ts) and described (cross-chain-context.ts). */
import type { BridgeQuote, BridgeRouteToken } from '@tokensvc/bridge';
import type { Network } from '@tokensvc/domain';
import type { PinnedBlock } from '@tokensvc/messages';
import type { CatalogToken } from '../graph/catalog';
import type { Quote } from './quote-engine';
import type { PartnerFee } from './request-parsing';

/** One way through the bridge: a bridged asset, the swaps around it and what it delivers. */
export interface Candidate {
  bridged: BridgeRouteToken;
  /** the origin swap into the bridged asset, when the input is not already it */
  originSwap: Quote | undefined;
  /** what reaches the bridge if executed now (origin units) */
  expectedBridged: bigint;
  /** the bridge's quote for `expectedBridged`: its fee, and what arrives (destination units) */
  bridgeQuote: BridgeQuote;
  /** the destination swap or zap from what arrives into the output token, when they differ */
  destinationSwap: Quote | undefined;
  /** output token units, if executed now */
  expectedOutput: bigint;
  swaps: number;
  /** the graph block of each network (origin, destination): the swap's snapshot, or the graph's head when there is no swap */
  pinned: PinnedBlock[];
}

export interface Leg extends Candidate {
  origin: Network;
  destination: Network;
  input: CatalogToken;
  output: CatalogToken;
  amount: bigint;
  feeAmount: bigint;
  fee: PartnerFee;
  slippage: number;
  /** what the Router requires to reach the bridge (origin units) */
  minBridged: bigint;
  /** the bridge's quote for `minBridged` (its fill deadline is the deposit's) */
  bridgeMin: BridgeQuote;
  /** the order's minOutputAmount (output token units) */
  minOutput: bigint;
  /** how the destination leg (if any) runs */
  mode: 'message' | 'none';
  /**
   * The output is the wrapped native token, which the bridge pays an externally owned account as
   * the native coin: the deposit pays the bridge's handler instead (a contract, so it is paid the
   * wrapped token), and its message passes all of it on to the recipient.
   */
  handlerForwards: boolean;
}

/** Whether the deposit carries a message for the bridge's handler on the destination. */
export function carriesMessage(leg: Leg): boolean {
  return leg.destinationSwap !== undefined || leg.handlerForwards;
}
