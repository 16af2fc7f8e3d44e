/**
 * The rules of a trading request (GET /v2/portal and its siblings), one function each: the
 * gateway's parameter checks and the quote service's NATS handlers both call these, so a client
 * gets the same 400 message whichever door it comes through. Each `...Problem` returns the message
 * of the broken rule, or undefined.
 */
import { parseTokenKey } from './token-key';

/** slippageTolerancePercentage, percent */
export const SLIPPAGE_RANGE = { min: 0.1, max: 10 } as const;
/** feePercentage, percent of the input */
export const FEE_RANGE = { min: 0, max: 1 } as const;
/** feePercentage when a partner is given without one */
export const DEFAULT_FEE_PERCENTAGE = 0.3;

export function slippageProblem(value: number): string | undefined {
  if (Number.isFinite(value) && value >= SLIPPAGE_RANGE.min && value <= SLIPPAGE_RANGE.max) return undefined;
  return `slippageTolerancePercentage must be between ${SLIPPAGE_RANGE.min} and ${SLIPPAGE_RANGE.max} (percent), got ${value}`;
}

/** A fee is 0..1 percent and needs a partner to receive it. */
export function feeProblem(partner: string | undefined, feePercentage: number | undefined): string | undefined {
  if (feePercentage === undefined) return undefined;
  if (!Number.isFinite(feePercentage) || feePercentage < FEE_RANGE.min || feePercentage > FEE_RANGE.max)
    return `feePercentage must be between ${FEE_RANGE.min} and ${FEE_RANGE.max} (percent), got ${feePercentage}`;
  if (partner === undefined && feePercentage > 0) return 'feePercentage needs a partner: pass the partner address that receives the fee';
  return undefined;
}

/** The fee an order takes: none without a partner; with one, feePercentage or the default, in whole basis points (the Router's unit). */
export function partnerFeeOf(partner: string | undefined, feePercentage: number | undefined): { percentage: number; bps: number } {
  if (partner === undefined) return { percentage: 0, bps: 0 };
  const bps = Math.round((feePercentage ?? DEFAULT_FEE_PERCENTAGE) * 100);
  return { percentage: bps / 100, bps };
}

/** Token keys compared as given (both already normalised to lowercase by their parsers). */
export function distinctTokensProblem(inputToken: string, outputToken: string): string | undefined {
  return inputToken === outputToken ? 'inputToken and outputToken must differ' : undefined;
}

/** A request is cross-chain when its token keys name different networks. */
export function isCrossChain(inputToken: string, outputToken: string): boolean {
  return parseTokenKey(inputToken).network !== parseTokenKey(outputToken).network;
}

export const CROSS_CHAIN_PERMIT_MESSAGE =
  'permitSignature is not accepted on cross-chain orders (inputToken and outputToken on different networks): approve the Router (GET /v2/approval with outputToken) instead';

export function crossChainPermitProblem(inputToken: string, outputToken: string, hasPermit: boolean): string | undefined {
  return hasPermit && isCrossChain(inputToken, outputToken) ? CROSS_CHAIN_PERMIT_MESSAGE : undefined;
}

export const SAME_CHAIN_RECIPIENT_MESSAGE =
  'recipient applies to cross-chain orders only (inputToken and outputToken on different networks): a same-chain order pays its sender; leave recipient out';

/** `recipient` (this service's addition to the interface) names who is paid on the output network of a cross-chain order. */
export function sameChainRecipientProblem(inputToken: string, outputToken: string, hasRecipient: boolean): string | undefined {
  return hasRecipient && !isCrossChain(inputToken, outputToken) ? SAME_CHAIN_RECIPIENT_MESSAGE : undefined;
}
