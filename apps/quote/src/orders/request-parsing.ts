/**
 * Checks of trading requests that the gateway's schemas cannot make, with 400 messages that say
 * what to change. (The gateway already validated formats and ranges; a direct NATS caller gets
 * the same answers.)
 */
import { InvalidAmountError, InvalidTokenKeyError, MAX_UINT256, ZERO_ADDRESS, isAddress, parseAmount, parseTokenKey, type Network, type TokenId } from '@tokensvc/domain';
import { ErrorCode } from '@tokensvc/messages';
import { ServiceError } from '@tokensvc/transport';

export const badRequest = (message: string): ServiceError => new ServiceError(ErrorCode.ERROR_CODE_BAD_REQUEST, message);

export const SLIPPAGE_RANGE = { min: 0.1, max: 10 } as const;
export const AUTO_SLIPPAGE_CAP = 2.5;
export const DEFAULT_FEE_PERCENTAGE = 0.3;

export function parsePositiveAmount(raw: string, name: string): bigint {
  let value: bigint;
  try {
    value = parseAmount(raw, name);
  } catch (e) {
    if (e instanceof InvalidAmountError) throw badRequest(e.message);
    throw e;
  }
  if (value === 0n) throw badRequest(`${name} must be greater than zero`);
  return value;
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
  if (input.network !== output.network) throw badRequest(`cross-chain orders (${input.network} -> ${output.network}) are not supported yet; use tokens of one network`);
  if (input.address === output.address) throw badRequest('inputToken and outputToken must differ');
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
  if (!Number.isFinite(value) || value < SLIPPAGE_RANGE.min || value > SLIPPAGE_RANGE.max) {
    throw badRequest(`slippageTolerancePercentage must be between ${SLIPPAGE_RANGE.min} and ${SLIPPAGE_RANGE.max} (percent), got ${value}`);
  }
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
  if (feePercentage !== undefined && (!Number.isFinite(feePercentage) || feePercentage < 0 || feePercentage > 1)) throw badRequest(`feePercentage must be between 0 and 1 (percent), got ${feePercentage}`);
  if (partner === undefined) {
    if (feePercentage !== undefined && feePercentage > 0) throw badRequest('feePercentage needs a partner: pass the partner address that receives the fee');
    return { partner: ZERO_ADDRESS, percentage: 0, bps: 0 };
  }
  const address = parseAddress(partner, 'partner', { allowZero: false });
  const percentage = feePercentage ?? DEFAULT_FEE_PERCENTAGE;
  const bps = Math.round(percentage * 100);
  return { partner: address, percentage: bps / 100, bps };
}

export function parseUint256(raw: string | undefined, name: string, fallback: bigint): bigint {
  if (raw === undefined || raw === '') return fallback;
  try {
    const v = parseAmount(raw, name);
    if (v > MAX_UINT256) throw badRequest(`${name} must fit in uint256`);
    return v;
  } catch (e) {
    if (e instanceof InvalidAmountError) throw badRequest(e.message);
    throw e;
  }
}
