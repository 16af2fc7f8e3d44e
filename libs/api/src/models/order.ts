import { s, type Static } from '../schema/shape';

const str = (description?: string): ReturnType<typeof s.string> => s.string(description ? { description } : {});
const num = (description?: string): ReturnType<typeof s.number> => s.number(description ? { description } : {});

export const Tx = s.named('Tx', s.object({ to: str(), data: str(), from: s.optional(str()), value: s.optional(str()), gasLimit: s.optional(str()) }));

export const TypedData = s.named('TypedData', s.object({ types: s.anyObject(), domain: s.anyObject(), value: s.anyObject() }, { description: "EIP-712 typed-data message. A signed order's value also carries routeHash (context.routeHash: the only executor calls it may run) and submitter (the only account that may send it; the zero address: anyone)" }));

export const FeeCost = s.named(
  'FeeCost',
  s.object({
    name: str(),
    recipient: s.optional(str('absent on costs charged by the bridge itself')),
    token: str(),
    amount: str('token decimals'),
    amountUsd: num(),
    percentage: num('of the input offered'),
    included: s.boolean({ description: 'true: already deducted from outputAmount' }),
  }),
);

export const OrderContext = s.named(
  'OrderContext',
  s.object({
    orderId: str('order identifier, used for submission and status'),
    inputToken: str(), inputAmount: str('input units'), inputAmountUsd: num(),
    outputToken: str(), outputAmount: str('received if executed now'), outputAmountUsd: num(),
    outputAmountSignedOrder: str('same-chain only, empty on cross-chain'), outputAmountUsdSignedOrder: num(),
    minOutputAmount: str('worst-case slippage minimum'), minOutputAmountUsd: num(),
    minOutputAmountSignedOrder: str(), minOutputAmountUsdSignedOrder: num(),
    slippageTolerancePercentage: num('slippage applied'),
    target: str('contract the transaction is sent to, on the input network'),
    partner: str('address that receives the commission'),
    sender: str(), recipient: str(),
    value: str('native value sent with the transaction; may be 0'),
    route: s.array(s.string()),
    routeHash: str('keccak256 of the raw encoded calls'),
    steps: s.array(s.string()),
    stepsSignedOrder: s.array(s.string()),
    isPermit: s.boolean(),
    residualTokens: s.optional(s.array(s.string())),
    expiry: s.optional(str()),
    gasLimit: s.optional(str('predicted gas limit with buffer')),
    feeCosts: s.optional(s.array(FeeCost)),
    feeToken: s.optional(str()),
    feeAmount: s.optional(str()),
    feeAmountUsd: s.optional(num()),
    feeAmountSignedOrder: s.optional(str()),
    feeAmountUsdSignedOrder: s.optional(num()),
    priceImpactPercentage: s.optional(num('cross-chain only')),
    rawParams: s.optional(s.anyObject()),
  }),
);

/** The order fields (POST /v2/portal answers them plus a transaction hash). */
export const ORDER_PROPS = { context: OrderContext, tx: Tx, signedOrder: s.optional(TypedData) };
export const Order = s.named('Order', s.object(ORDER_PROPS));
export type Order = Static<typeof Order>;

export const RELAY_STATUSES = ['quoted', 'pending', 'mined', 'reverted', 'expired'] as const;

/** A stored same-chain order and where relaying its signed variant stands (POST /v2/portal, GET /v2/portal/status). */
export const RelayedOrder = s.named(
  'RelayedOrder',
  s.object({
    ...ORDER_PROPS,
    status: s.literal(RELAY_STATUSES, { description: 'quoted: not submitted; pending: sent, not mined; mined; reverted (statusReason says why); expired: not submitted (or not mined) before the deadline' }),
    statusReason: s.optional(str()),
    txHash: s.optional(str('transaction hash for tracking: the mined one, else the latest sent')),
    txHashes: s.array(s.string(), { description: 'every transaction the relayer sent for the order (the first and each fee bump)' }),
    blockNumber: s.optional(s.integer()),
    gasUsed: s.optional(str()),
    receivedAmount: s.optional(str('output token base units the recipient received')),
    relayer: s.optional(str('the gas wallet that sent it')),
  }),
);
export type RelayedOrder = Static<typeof RelayedOrder>;

export const Estimate = s.named(
  'Estimate',
  s.object({
    outputToken: str(),
    outputAmount: str('optimistic, no slippage'),
    minOutputAmount: str('worst case'),
    outputTokenDecimals: num(),
    context: s.object({
      inputToken: str(), inputAmount: str(), inputAmountUsd: num(),
      outputToken: str(), outputAmount: str(), outputAmountUsd: num(), minOutputAmountUsd: num(),
      slippageTolerancePercentage: num(),
      simulated: s.boolean({ description: 'true = simulated on-chain, false = estimated off-chain' }),
      gasLimit: str('slightly buffered'),
    }),
  }),
);
export type Estimate = Static<typeof Estimate>;

export const Approval = s.named(
  'Approval',
  s.object({
    context: s.object({
      network: str(),
      allowance: s.optional(str()),
      approvalAmount: s.optional(str()),
      shouldApprove: s.boolean(),
      canPermit: s.boolean(),
      spender: str(),
      target: s.optional(str('the token the approval transaction is sent to')),
    }),
    approve: s.optional(Tx),
    permit: s.optional(TypedData),
  }),
);
export type Approval = Static<typeof Approval>;

export const CROSS_CHAIN_STATUSES = ['PENDING', 'ONGOING', 'SUCCESS', 'REFUND_STATUS', 'FAILED'] as const;

export const CrossChainStatus = s.named(
  'CrossChainStatus',
  s.object({
    context: s.optional(OrderContext),
    tx: s.optional(Tx),
    txHash: str('origin-chain transaction hash'),
    status: s.literal(CROSS_CHAIN_STATUSES),
    statusReason: s.optional(str()),
    crossChainRequestId: str(),
    crossChainProvider: str(),
    destinationTxHashes: s.array(s.string()),
    originTxHashes: s.array(s.string()),
    fromChainId: num(),
    toChainId: num(),
  }),
);
export type CrossChainStatus = Static<typeof CrossChainStatus>;
