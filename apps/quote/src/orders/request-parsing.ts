/**
 * The quote service's side of the trading-request rules: the rules themselves are libs/domain's
 * order-request module (the gateway's parameter checks call the same functions), turned here
 * into 400s for a direct NATS caller, plus parsing into the types the use cases work with.
 */
import {
  InvalidAmountError,
  InvalidTokenKeyError,
  ZERO_ADDRESS,
  distinctTokensProblem,
  feeProblem,
  isAddress,
  isCrossChain,
  parseAmount,
  parsePositiveAmount as positiveAmountRule,
  parseTokenKey,
  partnerFeeOf,
  slippageProblem,
  type Network,
  type TokenId,
} from '@tokensvc/domain';
import { MaxUint256 } from 'ethers';
import { ErrorCode } from '@tokensvc/messages';
import { ServiceError } from '@tokensvc/transport';

export const badRequest = (message: string): ServiceError => new ServiceError(ErrorCode.ERROR_CODE_BAD_REQUEST, message);

export const AUTO_SLIPPAGE_CAP = 2.5;

export function parsePositiveAmount(raw: string, name: string): bigint {
  try {
    return positiveAmountRule(raw, name);
  } catch (e) {
    if (e instanceof InvalidAmountError) throw badRequest(e.message);
    throw e;
  }
}

/** The domain's rule (`isCrossChain`), after each key is checked with a 400 that names it. */
export function isCrossChainRequest(inputKey: string, outputKey: string): boolean {
  parseKey(inputKey, 'inputToken');
  parseKey(outputKey, 'outputToken');
  return isCrossChain(inputKey, outputKey);
}

export function parseKey(raw: string, name: string): TokenId {
  try {
    return parseTokenKey(raw);
  } catch (e) {
    if (e instanceof InvalidTokenKeyError) throw badRequest(`${name}: ${e.message}`);
    throw e;
  }
}

export interface TokenPair {
  network: Network;
  input: string;
  output: string;
}

/** Same-chain pairs only for now; equal tokens are no order. */
export function parsePair(inputKey: string, outputKey: string): TokenPair {
  const input = parseKey(inputKey, 'inputToken');
  const output = parseKey(outputKey, 'outputToken');
  // The controller sends orders across networks to the cross-chain use case; this guards the same-chain ones.
  if (input.network !== output.network)
    throw badRequest(
      `inputToken and outputToken are on different networks (${input.network} -> ${output.network}): a cross-chain order, which this same-chain path does not build`,
    );
  const same = distinctTokensProblem(input.address, output.address);
  if (same) throw badRequest(same);
  return { network: input.network, input: input.address, output: output.address };
}

export function parseAddress(raw: string, name: string, opts: { allowZero: boolean }): string {
  if (!isAddress(raw)) throw badRequest(`${name} must be a 0x address (40 hex characters), got "${raw}"`);
  const address = raw.toLowerCase();
  if (!opts.allowZero && address === ZERO_ADDRESS) throw badRequest(`${name} must not be the zero address`);
  return address;
}

export function parseSlippage(value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  const problem = slippageProblem(value);
  if (problem) throw badRequest(problem);
  return value;
}

export interface PartnerFee {
  partner: string;
  /** percent, 0..1 */
  percentage: number;
  /** basis points the Router takes from the input (whole bps: the contract's unit) */
  bps: number;
}

/** A fee needs a partner; with a partner and no fee the default 0.3 % applies; no partner, no fee. */
export function parsePartnerFee(partner: string | undefined, feePercentage: number | undefined): PartnerFee {
  const problem = feeProblem(partner, feePercentage);
  if (problem) throw badRequest(problem);
  const address = partner === undefined ? ZERO_ADDRESS : parseAddress(partner, 'partner', { allowZero: false });
  return { partner: address, ...partnerFeeOf(partner, feePercentage) };
}

export function parseUint256(raw: string | undefined, name: string, fallback: bigint): bigint {
  if (raw === undefined || raw === '') return fallback;
  try {
    // parseAmount refuses what does not fit in uint256
    return parseAmount(raw, name);
  } catch (e) {
    if (e instanceof InvalidAmountError) throw badRequest(e.message);
    throw e;
  }
}

/**
 * permitDeadline (unix seconds), MaxUint256 when not given. A given deadline at or before `now()`
 * (the network's clock, ChainClock.now: what the token's permit check compares with) is a 400: a
 * permit signed with it has already expired, and an order carrying it could only revert. The
 * clock is read only when a deadline is given.
 */
export async function parsePermitDeadline(raw: string | undefined, now: () => Promise<number>): Promise<bigint> {
  if (raw === undefined || raw === '') return MaxUint256;
  const deadline = parseUint256(raw, 'permitDeadline', MaxUint256);
  const t = await now();
  if (deadline <= BigInt(t))
    throw badRequest(`permitDeadline ${deadline} is already past (now ${t}): sign the permit with a deadline in the future`);
  return deadline;
}
