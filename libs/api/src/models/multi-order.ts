import { s, type Static } from '../schema/shape';
import { PinnedBlock, Tx } from './order';

const str = (description?: string): ReturnType<typeof s.string> => s.string(description ? { description } : {});
const num = (description?: string): ReturnType<typeof s.number> => s.number(description ? { description } : {});

export const MultiOrderInput = s.named(
  'MultiOrderInput',
  s.object({
    token: str('token key'),
    amount: str('base units'),
    amountUsd: num(),
    feeAmount: str('the partner fee taken from this input (base units)'),
  }),
);

const multiContext = s.object({
  orderId: str('empty for an estimate'),
  inputs: s.array(MultiOrderInput, { description: 'in the order of inputTokens' }),
  inputAmountUsd: num('sum over the inputs'),
  outputToken: str(),
  outputAmount: str('optimistic, no slippage'),
  outputAmountUsd: num(),
  minOutputAmount: str('worst case: the transaction reverts below it'),
  minOutputAmountUsd: num(),
  outputTokenDecimals: num(),
  slippageTolerancePercentage: num(),
  target: str('the Router: the spender every input approves (GET /v2/approval per input)'),
  partner: s.optional(str()),
  feePercentage: s.optional(num()),
  sender: s.optional(str()),
  recipient: s.optional(str()),
  value: str('native wei sent with the transaction (the native input, if any)'),
  routeHash: s.optional(str('keccak256 of the executor calls')),
  steps: s.array(s.string(), { description: 'human-readable route' }),
  residualTokens: s.array(s.string(), { description: 'tokens swept back to the recipient' }),
  gasLimit: str('slightly buffered'),
  simulated: s.boolean({ description: 'true = simulated on-chain, false = estimated off-chain' }),
  isPermit: s.boolean({ description: 'true: the inputs are pulled with the permitSignatures, not approvals' }),
  priceImpactPercentage: s.optional(num()),
  pinnedBlocks: s.array(PinnedBlock, { description: 'the liquidity-graph block the figures were computed from' }),
});

export const MultiOrder = s.named('MultiOrder', s.object({ context: multiContext, tx: Tx }));
export type MultiOrder = Static<typeof MultiOrder>;

export const MultiEstimate = s.named('MultiEstimate', s.object({ context: multiContext }));
export type MultiEstimate = Static<typeof MultiEstimate>;
