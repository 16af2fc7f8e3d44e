/**
 * The bridge provider interface: what the quote service (order building), the status tracker and
 * the gateway need from a bridge, whichever bridge it is. Amounts are bigint base units; addresses
 * are checksummed or lowercase hex; `address(0)` is the native token. One adapter per bridge
 * (Across: AcrossBridgeProvider).
 */
import type { Network } from '@tokensvc/domain';

/** One token the provider moves between two networks (same asset on both sides). */
export interface BridgeRouteToken {
  symbol: string;
  originToken: string;
  destinationToken: string;
  originDecimals: number;
  destinationDecimals: number;
}

export interface BridgeRoute {
  originNetwork: Network;
  destinationNetwork: Network;
  tokens: BridgeRouteToken[];
}

/** The route of a bridge that carries a token to the token of the same symbol: undefined when none pairs. */
export function routeBySymbol(
  originNetwork: Network,
  destinationNetwork: Network,
  origin: { tokens: ReadonlyArray<{ symbol: string; address: string; decimals: number }> },
  destination: { tokens: ReadonlyArray<{ symbol: string; address: string; decimals: number }> },
): BridgeRoute | undefined {
  const tokens: BridgeRouteToken[] = [];
  for (const o of origin.tokens) {
    const d = destination.tokens.find((t) => t.symbol === o.symbol);
    if (d)
      tokens.push({
        symbol: o.symbol,
        originToken: o.address,
        destinationToken: d.address,
        originDecimals: o.decimals,
        destinationDecimals: d.decimals,
      });
  }
  return tokens.length > 0 ? { originNetwork, destinationNetwork, tokens } : undefined;
}

export interface BridgeQuoteRequest {
  originNetwork: Network;
  destinationNetwork: Network;
  /** origin token address (one of the route's `originToken`s) */
  inputToken: string;
  inputAmount: bigint;
  /** destination token address (the route's counterpart of `inputToken`) */
  outputToken: string;
}

export interface BridgeQuote extends BridgeQuoteRequest {
  /** the spec's `crossChainProvider` */
  provider: string;
  originChainId: number;
  destinationChainId: number;
  /** what the recipient receives on the destination (destination token units) */
  outputAmount: bigint;
  /** what the bridge keeps, in input-token units (inputAmount - fee is what is bridged) */
  fee: bigint;
  /** typical time from the origin deposit to the destination fill */
  estimatedSeconds: number;
  /** unix seconds: no fill after it; the deposit is refundable some time later */
  fillDeadline: number;
  /** unix seconds the fees were quoted at, for bridges whose deposit carries it (Across's quoteTimestamp) */
  quoteTimestamp?: number;
}

export interface BridgeDepositCallRequest {
  quote: BridgeQuote;
  /** who sends the deposit: the user's EOA, or the Router's executor after an origin swap */
  depositor: string;
  /** who receives `outputAmount` on the destination */
  recipient: string;
  /** who gets the input back on the origin when nobody fills */
  refundTo: string;
  /**
   * 'message' bridges only: calls the bridge's handler on the destination runs with what arrives
   * (the deposit's recipient is then the handler, `destinationHandler`, and `recipient` is unused
   * by the deposit itself: the calls pay whoever they name).
   */
  message?: BridgeDestinationMessage;
}

/** One call the destination handler makes with the bridged token that arrived. */
export interface BridgeDestinationCall {
  target: string;
  data: string;
  value: bigint;
  /** approve `target` for the handler's whole balance of the arriving token first */
  approveBalance?: boolean;
  /** write the handler's balance of the arriving token into the (zeroed) 32-byte word at this byte offset of `data` */
  balanceOffset?: number;
}

export interface BridgeDestinationMessage {
  calls: BridgeDestinationCall[];
  /** who receives what the calls leave of the arriving token */
  leftoverRecipient: string;
}

/** The origin transaction's body (or the Router executor's call to the bridge). */
export interface BridgeDepositCall {
  to: string;
  data: string;
  /** native value to send: the input amount for a native deposit, else 0 */
  value: bigint;
  /** byte offset of the 32-byte input amount word in `data` (where the Router's executor writes a balance) */
  amountOffset: number;
  /** ERC-20 the depositor must approve to `to` first; undefined for a native deposit */
  approvalToken: string | undefined;
}

/** A deposit as the origin receipt shows it. */
export interface BridgeDepositInfo {
  requestId: string;
  originNetwork: Network;
  originChainId: number;
  /** undefined when the destination chain id is not a network this provider knows */
  destinationNetwork: Network | undefined;
  destinationChainId: number;
  depositor: string;
  inputToken: string;
  inputAmount: bigint;
  outputToken: string;
  outputAmount: bigint;
  recipient: string;
  refundTo: string;
  /** unix seconds */
  fillDeadline: number;
  txHash: string;
  blockNumber: number;
  logIndex: number;
}

export interface BridgeFillInfo {
  txHash: string;
  blockNumber: number;
  logIndex: number;
  filler: string;
  /** what the recipient received */
  amount: bigint;
  recipient: string;
  outputToken: string;
}

export interface BridgeRefundInfo {
  txHash: string;
  blockNumber: number;
  logIndex: number;
  amount: bigint;
  refundTo: string;
  token: string;
}

/** open: neither filled nor refunded; settled: filled (what the user waits for); unknown: no such deposit on that pool. */
export type BridgeDepositState = 'open' | 'settled' | 'refunded' | 'unknown';

/** Optional hints for the event look-ups; without them the provider bounds the search itself. */
export interface BridgeSearchHint {
  /** first block worth searching on the network being searched */
  fromBlock?: number;
}

/** Where a bridge event was logged; `blockHash` lets a follower notice that a reorg removed it. */
export interface BridgeLogPosition {
  txHash: string;
  blockNumber: number;
  blockHash: string;
  logIndex: number;
}

/**
 * One event of the bridge's contracts on one network, as `logs` returns it: a deposit made on this
 * network (origin), a fill made on it (destination) of a request from `originChainId`, a refund or
 * a settlement (the filler repaid) of a deposit made on it.
 */
export type BridgeEvent =
  | ({ kind: 'deposit' } & BridgeDepositInfo & BridgeLogPosition)
  | ({ kind: 'fill'; originChainId: number; requestId: string } & BridgeFillInfo & BridgeLogPosition)
  | ({ kind: 'refund'; requestId: string } & BridgeRefundInfo & BridgeLogPosition)
  | ({ kind: 'settled'; requestId: string; filler: string; fillTxHash: string } & BridgeLogPosition);

export interface BridgeProvider {
  /** the spec's `crossChainProvider` value */
  readonly name: string;
  /**
   * How an order's destination swap or zap runs: 'message', the deposit carries calls that the
   * bridge's handler contract on the destination runs with what arrives (Across's
   * MulticallHandler), see `destinationHandler`; 'none', the recipient gets only the route's
   * counterpart of the input and an order needing a destination leg is refused.
   */
  readonly destinationLeg: 'message' | 'none';
  /**
   * Whether what the recipient gets is fixed when the deposit is made (Across: the deposit's
   * outputAmount, whatever the input): depositing more than the minimum would only pay the
   * relayer more, so the quote service deposits exactly the minimum and returns the rest.
   */
  readonly outputFixedAtDeposit: boolean;
  /** 'message' bridges: the contract on `network` that receives the bridged token and runs a deposit's calls; undefined where there is none */
  destinationHandler(network: Network): string | undefined;
  /** the tokens it bridges from `originNetwork` to `destinationNetwork`, or undefined (no route) */
  route(originNetwork: Network, destinationNetwork: Network): BridgeRoute | undefined;
  /** throws BridgeQuoteError for an unsupported pair or an amount that does not cover the fee */
  quote(request: BridgeQuoteRequest): Promise<BridgeQuote>;
  depositCall(request: BridgeDepositCallRequest): BridgeDepositCall;
  /** the deposits an origin transaction created; [] when it has no receipt (yet), reverted or made none */
  findDeposit(originNetwork: Network, originTxHash: string): Promise<BridgeDepositInfo[]>;
  /** the fill of a request on the destination, if there is one */
  findFill(
    destinationNetwork: Network,
    originChainId: number,
    requestId: string,
    hint?: BridgeSearchHint,
  ): Promise<BridgeFillInfo | undefined>;
  /** the refund of a request on the origin, if there is one */
  findRefund(originNetwork: Network, requestId: string, hint?: BridgeSearchHint): Promise<BridgeRefundInfo | undefined>;
  depositState(originNetwork: Network, requestId: string): Promise<BridgeDepositState>;
  /**
   * Every bridge event logged on `network` in blocks [fromBlock, toBlock] (inclusive), in chain
   * order (block, log index). Logs a node reports as removed are left out. The caller bounds the
   * range (one eth_getLogs per contract group; a node may refuse a range that is too large).
   */
  logs(network: Network, fromBlock: number, toBlock: number): Promise<BridgeEvent[]>;
}

export type BridgeQuoteErrorCode = 'NO_ROUTE' | 'UNSUPPORTED_TOKEN' | 'AMOUNT_TOO_SMALL';

/** A quote the bridge cannot give; the message is fit for an API client (a 400). */
export class BridgeQuoteError extends Error {
  constructor(
    readonly code: BridgeQuoteErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'BridgeQuoteError';
  }
}
