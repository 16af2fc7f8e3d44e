/**
 * Multi-input zaps: several tokens of one network (up to 10, each with its amount) into one output
 * token in one Router transaction. The list rules live here, beside the single-input ones.
 */
import { FEE_RANGE, parseTokenKey } from '@tokensvc/domain';
import { endpoint } from '../endpoint';
import { MultiEstimate, MultiOrder } from '../models/multi-order';
import { query, requiresWith, type QueryRule } from '../schema/query';
import { q } from '../schema/values';
import { slippage } from './params';

const TAG = 'Trading';
/** Router.MAX_INPUTS */
export const MAX_MULTI_INPUTS = 10;

const list = (v: unknown): string[] => (Array.isArray(v) ? (v as unknown[]).map(String) : []);

/**
 * What is wrong with a multi-input order's lists, or undefined: one amount per token, no token
 * twice, all on one network, none equal to the output (which is on that network too). The gateway's
 * parameter check and the quote service's NATS handler both call it.
 */
export function multiInputProblem(tokens: readonly string[], amounts: readonly unknown[], output: string | undefined): string | undefined {
  if (tokens.length === 0) return 'inputTokens must name at least one token';
  if (tokens.length > MAX_MULTI_INPUTS) return `at most ${MAX_MULTI_INPUTS} inputTokens (got ${tokens.length})`;
  if (tokens.length !== amounts.length)
    return `inputTokens and inputAmounts must have the same length (got ${tokens.length} tokens and ${amounts.length} amounts)`;
  const seen = new Set<string>();
  for (const t of tokens) {
    if (seen.has(t)) return `inputTokens repeats ${t}: give each token once, with its total amount`;
    seen.add(t);
  }
  const networks = new Set(tokens.map((t) => parseTokenKey(t).network));
  if (networks.size > 1) return `inputTokens must all be on one network (got ${[...networks].join(', ')}); send one order per network`;
  if (output !== undefined) {
    if (seen.has(output)) return `outputToken ${output} is also an input: leave it out of inputTokens`;
    const [network] = [...networks];
    if (network !== undefined && parseTokenKey(output).network !== network)
      return `outputToken must be on the inputs' network (${network}); multi-input orders are same-chain`;
  }
  return undefined;
}

const multiInputs: QueryRule = (_given, v) =>
  multiInputProblem(list(v['inputTokens']), list(v['inputAmounts']), typeof v['outputToken'] === 'string' ? v['outputToken'] : undefined);

const permitsPerInput: QueryRule = (given, v) => {
  if (!given.has('permitSignatures')) return undefined;
  const permits = list(v['permitSignatures']);
  const tokens = list(v['inputTokens']);
  if (permits.length !== tokens.length)
    return `permitSignatures must have one signature per input (${tokens.length}), or be left out to use approvals`;
  if (tokens.some((t) => parseTokenKey(t).address === '0x0000000000000000000000000000000000000000'))
    return 'permitSignatures cannot be used with a native input (it needs no approval): leave permitSignatures out';
  return undefined;
};

const inputsParams = {
  inputTokens: q
    .list(q.tokenKey(), 'both', MAX_MULTI_INPUTS)
    .required()
    .describe(`token keys, one network, distinct, at most ${MAX_MULTI_INPUTS}; zero address for native`),
  inputAmounts: q
    .list(q.uint256({ positive: true }), 'both', MAX_MULTI_INPUTS)
    .required()
    .describe('base units, one per input token, in the same order'),
  outputToken: q.tokenKey().required().describe('basic token, LP token, vault share or lending position; zero address for native'),
  slippageTolerancePercentage: slippage().describe('0.1 to 10 percent; auto slippage when omitted'),
};

export const portalMulti = endpoint({
  method: 'GET',
  path: '/v2/portal/multi',
  summary: 'Build a validated, unsigned multi-input zap: several tokens of one network into one output token in one transaction',
  tag: TAG,
  access: 'trading',
  query: query(
    {
      sender: q
        .address()
        .required()
        .describe('owner of the input tokens; approves the Router (context.target) for each, see GET /v2/approval'),
      ...inputsParams,
      partner: q.address().describe('referral address for fee sharing'),
      feePercentage: q.number(FEE_RANGE).describe('0 to 1 percent of each input; needs a partner; default 0.3'),
      permitSignatures: q
        .list(q.hex([65], 'a secp256k1 signature'), 'comma', MAX_MULTI_INPUTS)
        .describe('one EIP-2612 permit per input, in order, signed by sender for the Router; instead of approvals'),
      permitDeadline: q
        .uint256()
        .describe('unix seconds, in the future (one already past is a 400); the deadline the permits were signed with'),
      validate: q.boolean().default(true).describe('simulate the transaction and estimate its gas'),
    },
    requiresWith('feePercentage', 'partner'),
    requiresWith('permitDeadline', 'permitSignatures'),
    multiInputs,
    permitsPerInput,
  ),
  response: MultiOrder,
});

export const estimateMulti = endpoint({
  method: 'GET',
  path: '/v2/portal/multi/estimate',
  summary: 'Estimate the output of a multi-input zap (no sender, approvals or balances needed)',
  tag: TAG,
  access: 'trading',
  query: query(inputsParams, multiInputs),
  response: MultiEstimate,
});
