import { Type } from '@sinclair/typebox';
import { anyObject, named, stringEnum, type Static } from '../schema/types';

const str = (description?: string) => Type.String(description ? { description } : {});
const num = (description?: string) => Type.Number(description ? { description } : {});

export const Tx = named(
  'Tx',
  Type.Object({ to: str(), data: str(), from: Type.Optional(str()), value: Type.Optional(str()), gasLimit: Type.Optional(str()) }),
);

export const TypedData = named(
  'TypedData',
  Type.Object(
    { types: anyObject(), domain: anyObject(), value: anyObject() },
    {
      description:
        "EIP-712 typed-data message. A signed order's value also carries routeHash (context.routeHash: the only executor calls it may run) and submitter (the only account that may send it; the zero address: anyone)",
    },
  ),
);

export const FeeCost = named(
  'FeeCost',
  Type.Object({
    name: str(),
    recipient: Type.Optional(str('absent on costs charged by the bridge itself')),
    token: str(),
    amount: str('token decimals'),
    amountUsd: num(),
    percentage: num('of the input offered'),
    included: Type.Boolean({ description: 'true: already deducted from outputAmount' }),
  }),
);

export const PinnedBlock = named(
  'PinnedBlock',
  Type.Object(
    {
      network: str(),
      blockNumber: str('block number (decimal string) of the liquidity-graph state the figures were computed from'),
      blockHash: str('its hash (empty when the service has not seen the hash yet)'),
    },
    {
      description:
        "The indexed chain state a quote used on one network: the block whose pool states the quote service's graph held when the quote took its snapshot",
    },
  ),
);

const hopProps = {
  pool: str('pool address, or the pool id inside its singleton (a Uniswap V4 pool: bytes32)'),
  protocol: str('the pool family: uniswap-v2, uniswap-v3 or uniswap-v4'),
  platform: str('platform slug (uniswap-v2, sushiswap, uniswap-v3, ...)'),
  feeTier: num('pool fee in hundredths of a bip (3000 = 0.3 %)'),
  tokenIn: str(),
  tokenOut: str(),
  amountIn: str('base units flowing into this hop along this branch'),
  amountOut: str('base units out of this hop along this branch: what its next hops take in'),
  weightBps: num("share of the parent hop's output (of the input, for a first hop) this hop takes, basis points"),
  priceImpactPercentage: num("the pool swap's execution price below its marginal price, fee excluded, percent"),
  gas: str('gas of the pool swap (routing model)'),
};

/** One level of the tree: a hop and what follows it (OpenAPI cannot name a recursive shape here, so deeper levels are open objects of the same fields). */
export const ExplainHop = named(
  'ExplainHop',
  Type.Object({
    ...hopProps,
    next: Type.Array(anyObject({ description: 'an ExplainHop' }), {
      description: 'the hops that take this hop’s output; empty at a leaf (the output token)',
    }),
  }),
);

export const ExplainAlternative = named(
  'ExplainAlternative',
  Type.Object({
    amountOut: str('what it would give for the same input, base units'),
    hops: Type.Array(ExplainHop),
    improvementBps: str('(route output - this output) * 10000 / this output, truncated'),
  }),
);

export const Explain = named(
  'Explain',
  Type.Object(
    {
      tokenIn: str('executor token the swaps start from (WETH for native input; a vault or lending asset after a redemption)'),
      tokenOut: str('executor token the swaps end in'),
      amountIn: str(),
      amountOut: str('the swaps’ output: equals outputAmount for plain swaps (off-chain figure at the pinned block)'),
      route: Type.Array(ExplainHop, {
        description: 'the hops that spend tokenIn, each with the tree that follows; the leaf outputs add up to amountOut exactly',
      }),
      gas: str('gas of the swaps (routing model)'),
      bestSinglePath: Type.Optional(ExplainAlternative),
      bestDirectPool: Type.Optional(ExplainAlternative),
    },
    { description: 'With explain=true: how the route was chosen, on the same pool states as the quote (context.pinnedBlocks)' },
  ),
);

export const OrderContext = named(
  'OrderContext',
  Type.Object({
    orderId: str('order identifier, used for submission and status'),
    inputToken: str(),
    inputAmount: str('input units'),
    inputAmountUsd: num(),
    outputToken: str(),
    outputAmount: str('received if executed now'),
    outputAmountUsd: num(),
    outputAmountSignedOrder: str('same-chain only, empty on cross-chain'),
    outputAmountUsdSignedOrder: num(),
    minOutputAmount: str('worst-case slippage minimum'),
    minOutputAmountUsd: num(),
    minOutputAmountSignedOrder: str(),
    minOutputAmountUsdSignedOrder: num(),
    slippageTolerancePercentage: num('slippage applied'),
    target: str('contract the transaction is sent to, on the input network'),
    partner: str('address that receives the commission'),
    sender: str(),
    recipient: str(),
    value: str('native value sent with the transaction; may be 0'),
    route: Type.Array(Type.String()),
    routeHash: str('keccak256 of the raw encoded calls'),
    steps: Type.Array(Type.String()),
    stepsSignedOrder: Type.Array(Type.String()),
    isPermit: Type.Boolean(),
    residualTokens: Type.Optional(Type.Array(Type.String())),
    expiry: Type.Optional(str()),
    gasLimit: Type.Optional(str('predicted gas limit with buffer')),
    feeCosts: Type.Optional(Type.Array(FeeCost)),
    feeToken: Type.Optional(str()),
    feeAmount: Type.Optional(str()),
    feeAmountUsd: Type.Optional(num()),
    feeAmountSignedOrder: Type.Optional(str()),
    feeAmountUsdSignedOrder: Type.Optional(num()),
    priceImpactPercentage: Type.Optional(num('cross-chain only')),
    rawParams: Type.Optional(anyObject()),
    pinnedBlocks: Type.Optional(
      Type.Array(PinnedBlock, {
        description: 'one per network the order used (both for cross-chain): the liquidity-graph block its route was computed from',
      }),
    ),
  }),
);

/** The order fields (POST /v2/portal answers them plus a transaction hash). */
export const ORDER_PROPS = { context: OrderContext, tx: Tx, signedOrder: Type.Optional(TypedData) };
export const Order = named('Order', Type.Object({ ...ORDER_PROPS, explain: Type.Optional(Explain) }));
export type Order = Static<typeof Order>;

export const RELAY_STATUSES = ['quoted', 'pending', 'mined', 'reverted', 'expired'] as const;

/** A stored same-chain order and where relaying its signed variant stands (POST /v2/portal, GET /v2/portal/status). */
export const RelayedOrder = named(
  'RelayedOrder',
  Type.Object({
    ...ORDER_PROPS,
    status: stringEnum(RELAY_STATUSES, {
      description:
        'quoted: not submitted; pending: sent, not mined; mined; reverted (statusReason says why); expired: not submitted (or not mined) before the deadline',
    }),
    statusReason: Type.Optional(str()),
    txHash: Type.Optional(str('transaction hash for tracking: the mined one, else the latest sent')),
    txHashes: Type.Array(Type.String(), { description: 'every transaction the relayer sent for the order (the first and each fee bump)' }),
    blockNumber: Type.Optional(Type.Integer()),
    gasUsed: Type.Optional(str()),
    receivedAmount: Type.Optional(str('output token base units the recipient received')),
    relayer: Type.Optional(str('the gas wallet that sent it')),
  }),
);
export type RelayedOrder = Static<typeof RelayedOrder>;

export const Estimate = named(
  'Estimate',
  Type.Object({
    outputToken: str(),
    outputAmount: str('optimistic, no slippage'),
    minOutputAmount: str('worst case'),
    outputTokenDecimals: num(),
    context: Type.Object({
      inputToken: str(),
      inputAmount: str(),
      inputAmountUsd: num(),
      outputToken: str(),
      outputAmount: str(),
      outputAmountUsd: num(),
      minOutputAmountUsd: num(),
      slippageTolerancePercentage: num(),
      simulated: Type.Boolean({ description: 'true = simulated on-chain, false = estimated off-chain' }),
      gasLimit: str('slightly buffered'),
      pinnedBlocks: Type.Optional(Type.Array(PinnedBlock, { description: 'one per network the estimate used (both for cross-chain)' })),
    }),
    explain: Type.Optional(Explain),
  }),
);
export type Estimate = Static<typeof Estimate>;

export const Approval = named(
  'Approval',
  Type.Object({
    context: Type.Object({
      network: str(),
      allowance: Type.Optional(str()),
      approvalAmount: Type.Optional(str()),
      shouldApprove: Type.Boolean(),
      canPermit: Type.Boolean(),
      spender: str(),
      target: Type.Optional(str('the token the approval transaction is sent to')),
    }),
    approve: Type.Optional(Tx),
    permit: Type.Optional(TypedData),
  }),
);
export type Approval = Static<typeof Approval>;

export const CROSS_CHAIN_STATUSES = ['PENDING', 'ONGOING', 'SUCCESS', 'REFUND_STATUS', 'FAILED'] as const;

export const CrossChainStatus = named(
  'CrossChainStatus',
  Type.Object({
    context: Type.Optional(OrderContext),
    tx: Type.Optional(Tx),
    txHash: str('origin-chain transaction hash'),
    status: stringEnum(CROSS_CHAIN_STATUSES),
    statusReason: Type.Optional(str()),
    crossChainRequestId: str(),
    crossChainProvider: str(),
    destinationTxHashes: Type.Array(Type.String()),
    originTxHashes: Type.Array(Type.String()),
    fromChainId: num(),
    toChainId: num(),
  }),
);
export type CrossChainStatus = Static<typeof CrossChainStatus>;
