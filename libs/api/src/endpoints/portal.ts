import { FEE_RANGE, crossChainPermitProblem, distinctTokensProblem, sameChainRecipientProblem } from '@tokensvc/domain';
import { endpoint } from '../endpoint';
import { Approval, CrossChainStatus, Estimate, Order, RelayedOrder } from '../models/order';
import { query, requiresWith, type QueryRule } from '../schema/query';
import { q } from '../schema/values';
import { orderId, slippage } from './params';

const TAG = 'Trading';

const EXPLAIN_DOC =
  'true or false (default): add `explain`, the swaps as a tree (pool, protocol, fee tier, amounts, price impact and gas per hop, the split with its weights) and what the best single path and the best direct pool would give for the same input, at context.pinnedBlocks; same-chain only, not for LP-token zaps';

const RECIPIENT_DOC =
  "cross-chain only, this service's addition to the interface: who is paid on the output network (default: sender; context.recipient names it). A contract address must hold the same code on both networks (an EIP-7702-delegated account counts as an externally owned account), else the order is refused: nothing guarantees a contract exists, or has the same owners, on the other network";

// The rules of libs/domain's order-request module, on the parsed values (token keys lowercased).
const tokenPair = (v: Record<string, unknown>): [string, string] | undefined =>
  typeof v['inputToken'] === 'string' && typeof v['outputToken'] === 'string' ? [v['inputToken'], v['outputToken']] : undefined;
const distinctTokens: QueryRule = (_g, v) => {
  const pair = tokenPair(v);
  return pair && distinctTokensProblem(...pair);
};
const noCrossChainPermit: QueryRule = (given, v) => {
  const pair = tokenPair(v);
  return pair && crossChainPermitProblem(...pair, given.has('permitSignature'));
};
const recipientCrossChainOnly: QueryRule = (given, v) => {
  const pair = tokenPair(v);
  return pair && sameChainRecipientProblem(...pair, given.has('recipient'));
};

export const portal = endpoint({
  method: 'GET',
  path: '/v2/portal',
  summary: 'Build a validated, unsigned swap or zap order (cross-chain when the token networks differ)',
  tag: TAG,
  access: 'trading',
  query: query(
    {
      sender: q.address().required().describe('owner of the input token'),
      inputToken: q.tokenKey().required().describe('token key; zero address for native'),
      inputAmount: q.uint256({ positive: true }).required().describe('base units'),
      outputToken: q.tokenKey().required().describe('token key; zero address for native'),
      recipient: q.address().describe(RECIPIENT_DOC),
      slippageTolerancePercentage: slippage().describe('0.1 to 10 percent; auto slippage when omitted'),
      partner: q.address().describe('referral address for fee sharing'),
      feePercentage: q.number(FEE_RANGE).describe('0 to 1 percent; needs a partner; default 0.3'),
      permitSignature: q.hex([65], 'a secp256k1 signature').describe('permit signed by sender; same-chain only'),
      permitDeadline: q
        .uint256()
        .describe(
          'unix seconds, in the future (one already past is a 400); the deadline permitSignature was signed with; unused without permitSignature',
        ),
      validate: q.boolean().default(true).describe('estimate gas and validate success; ignored for cross-chain'),
      explain: q.boolean().default(false).describe(EXPLAIN_DOC),
    },
    requiresWith('feePercentage', 'partner'),
    distinctTokens,
    noCrossChainPermit,
    recipientCrossChainOnly,
  ),
  response: Order,
});

export const portalSubmit = endpoint({
  method: 'POST',
  path: '/v2/portal',
  summary: 'Submit a signed order; the service pays the gas',
  description:
    "Relays the signedOrder of a quote from GET /v2/portal, signed by its sender (eth_signTypedData_v4). The signed value binds the route (routeHash: context.routeHash, keccak256 of the ABI-encoded executor calls) and the submitter (submitter: this service's relayer), so the Router refuses anyone who runs the order through other calls or sends it from another account.",
  tag: TAG,
  access: 'trading',
  extraErrors: [404], // quote: the order was never quoted or its retention is over
  query: query({ orderId: orderId().describe('context.orderId of the quote'), signature: q.hex([64, 65], 'the signed order').required() }),
  response: RelayedOrder,
});

export const portalStatus = endpoint({
  method: 'GET',
  path: '/v2/portal/status',
  summary: 'A previously generated same-chain order and its relaying status',
  tag: TAG,
  access: 'trading',
  extraErrors: [404], // quote: the order was never quoted or its retention is over
  query: query({ orderId: orderId() }),
  response: RelayedOrder,
});

export const crossChainStatus = endpoint({
  method: 'GET',
  path: '/v3/portal/status',
  summary: 'Settlement status of a cross-chain order',
  tag: TAG,
  access: 'trading',
  query: query({
    orderId: orderId(),
    txHash: q.hex([32], 'a transaction hash').required().describe('hash of the submitted origin transaction'),
  }),
  response: CrossChainStatus,
  extraErrors: [404],
});

export const estimate = endpoint({
  method: 'GET',
  path: '/v2/portal/estimate',
  summary: 'Estimate the output of an order (no approvals or balances needed)',
  tag: TAG,
  access: 'trading',
  query: query(
    {
      inputToken: q.tokenKey().required(),
      inputAmount: q.uint256({ positive: true }).required().describe('smallest unit'),
      outputToken: q.tokenKey().required(),
      slippageTolerancePercentage: slippage(),
      explain: q.boolean().default(false).describe(EXPLAIN_DOC),
    },
    distinctTokens,
  ),
  response: Estimate,
});

const approvalQuery = query({
  sender: q.address().required().describe('owner'),
  inputToken: q.tokenKey({ allowNative: false }).required().describe('token key; not for native tokens'),
  inputAmount: q.uint256().required(),
  outputToken: q.tokenKey().describe('selects the spender; always send it'),
  permitDeadline: q
    .uint256()
    .describe('unix seconds for the permit typed data, in the future (one already past is a 400); default the maximum uint256'),
});

export const approval = endpoint({
  method: 'GET',
  path: '/v2/approval',
  summary: 'Allowance check, with an unsigned approval transaction or a permit when needed',
  description: 'Approve context.spender, never a hardcoded address.',
  tag: TAG,
  access: 'trading',
  query: approvalQuery,
  response: Approval,
});

export const approvalCrossChain = endpoint({
  ...approval,
  path: '/v2/approval/cross-chain',
  summary: 'Allowance check for cross-chain orders (same request shape as /v2/approval)',
});
