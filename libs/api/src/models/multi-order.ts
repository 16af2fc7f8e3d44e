import { Type } from '@sinclair/typebox';
import { named, type Static } from '../schema/types';
import { PinnedBlock, Tx } from './order';

const str = (description?: string) => Type.String(description ? { description } : {});
const num = (description?: string) => Type.Number(description ? { description } : {});

export const MultiOrderInput = named(
  'MultiOrderInput',
  Type.Object({
    token: str('token key'),
    amount: str('base units'),
    amountUsd: num(),
    feeAmount: str('the partner fee taken from this input (base units)'),
  }),
);

const multiContext = Type.Object({
  orderId: str('empty for an estimate'),
  inputs: Type.Array(MultiOrderInput, { description: 'in the order of inputTokens' }),
  inputAmountUsd: num('sum over the inputs'),
  outputToken: str(),
  outputAmount: str('optimistic, no slippage'),
  outputAmountUsd: num(),
  minOutputAmount: str('worst case: the transaction reverts below it'),
  minOutputAmountUsd: num(),
  outputTokenDecimals: num(),
  slippageTolerancePercentage: num(),
  target: str('the Router: the spender every input approves (GET /v2/approval per input)'),
  partner: Type.Optional(str()),
  feePercentage: Type.Optional(num()),
  sender: Type.Optional(str()),
  recipient: Type.Optional(str()),
  value: str('native wei sent with the transaction (the native input, if any)'),
  routeHash: Type.Optional(str('keccak256 of the executor calls')),
  steps: Type.Array(Type.String(), { description: 'human-readable route' }),
  residualTokens: Type.Array(Type.String(), { description: 'tokens swept back to the recipient' }),
  gasLimit: str('slightly buffered'),
  simulated: Type.Boolean({ description: 'true = simulated on-chain, false = estimated off-chain' }),
  isPermit: Type.Boolean({ description: 'true: the inputs are pulled with the permitSignatures, not approvals' }),
  priceImpactPercentage: Type.Optional(num()),
  pinnedBlocks: Type.Array(PinnedBlock, { description: 'the liquidity-graph block the figures were computed from' }),
});

export const MultiOrder = named('MultiOrder', Type.Object({ context: multiContext, tx: Tx }));
export type MultiOrder = Static<typeof MultiOrder>;

export const MultiEstimate = named('MultiEstimate', Type.Object({ context: multiContext }));
export type MultiEstimate = Static<typeof MultiEstimate>;
