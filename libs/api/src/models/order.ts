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

export const PinnedBlock = s.named(
  'PinnedBlock',
  s.object(
    {
      network: str(),
      blockNumber: str('block number (decimal string) of the liquidity-graph state the figures were computed from'),
      blockHash: str('its hash (empty when the service has not seen the hash yet)'),
    },
    { description: "The indexed chain state a quote used on one network: the block whose pool states the quote service's graph held when the quote took its snapshot" },
  ),
);

const hopProps = {
  pool: str('pool address'),
  protocol: str('uniswap-v2 or uniswap-v3'),
  platform: str('platform slug (uniswap-v2, sushiswap, uniswap-v3, ...)'),
  feeTier: num('pool fee in hundredths of a bip (3000 = 0.3 %)'),
  tokenIn: str(), tokenOut: str(),
  amountIn: str('base units flowing into this hop along this branch'),
  amountOut: str('base units out of this hop along this branch: what its next hops take in'),
  weightBps: num("share of the parent hop's output (of the input, for a first hop) this hop takes, basis points"),
  priceImpactPercentage: num("the pool swap's execution price below its marginal price, fee excluded, percent"),
  gas: str('gas of the pool swap (routing model)'),
};

/** One level of the tree: a hop and what follows it (OpenAPI cannot name a recursive shape here, so deeper levels are open objects of the same fields). */
export const ExplainHop = s.named('ExplainHop', s.object({ ...hopProps, next: s.array(s.anyObject({ description: 'an ExplainHop' }), { description: 'the hops that take this hop’s output; empty at a leaf (the output token)' }) }));

export const ExplainAlternative = s.named(
  'ExplainAlternative',
  s.object({
    amountOut: str('what it would give for the same input, base units'),
    hops: s.array(ExplainHop),
    improvementBps: str('(route output - this output) * 10000 / this output, truncated'),
  }),
);

export const Explain = s.named(
  'Explain',
  s.object(
    {
      tokenIn: str('executor token the swaps start from (WETH for native input; a vault or lending asset after a redemption)'),
      tokenOut: str('executor token the swaps end in'),
      amountIn: str(),
      amountOut: str('the swaps’ output: equals outputAmount for plain swaps (off-chain figure at the pinned block)'),
      route: s.array(ExplainHop, { description: 'the hops that spend tokenIn, each with the tree that follows; the leaf outputs add up to amountOut exactly' }),
      gas: str('gas of the swaps (routing model)'),
      bestSinglePath: s.optional(ExplainAlternative),
      bestDirectPool: s.optional(ExplainAlternative),
    },
    { description: 'With explain=true: how the route was chosen, on the same pool states as the quote (context.pinnedBlocks)' },
  ),
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
    pinnedBlocks: s.optional(s.array(PinnedBlock, { description: 'one per network the order used (both for cross-chain): the liquidity-graph block its route was computed from' })),
  }),
);

/** The order fields (POST /v2/portal answers them plus a transaction hash). */
export const ORDER_PROPS = { context: OrderContext, tx: Tx, signedOrder: s.optional(TypedData) };
export const Order = s.named('Order', s.object({ ...ORDER_PROPS, explain: s.optional(Explain) }));
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
      pinnedBlocks: s.optional(s.array(PinnedBlock, { description: 'one per network the estimate used (both for cross-chain)' })),
    }),
    explain: s.optional(Explain),
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
