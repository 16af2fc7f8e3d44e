/**
 * The same order as an EIP-712 signed order: the relayer submits it and takes its gas back in
 * the input token (`relayerFee`), so the route runs on a little less input. Absent for native
 * input (a signature cannot move native tokens) and when prices to convert the gas are unknown.
 * The signature covers the route (`routeHash` of the stored calls, the same as context.routeHash)
 * and the submitter (the service's relayer), so a copy seen in the mempool cannot be run through
 * other calls or by someone else.
 */
import { signedOrderTypedData, type SignedRouterOrder } from '@tokensvc/contracts';
import { ZERO_ADDRESS } from '@tokensvc/domain';
import type { TypedData } from '@tokensvc/messages';
import { replayPlan } from '../planning/plan-order';
import type { Quote } from './quote-engine';
import { minOutput } from './slippage';

/** Signature check, route hash (~3k gas for a one-hop route), nonce bitmap and the relayer's transfer on top of the plain order. */
const SIGNED_ORDER_EXTRA_GAS = 45_000n;
/**
 * The gas price may rise between the quote and the submission (the relayer refuses an order whose
 * fee no longer covers its gas): the fee is priced 25 % above the quote's gas price.
 */
const GAS_PRICE_HEADROOM_PERCENT = 125n;

export interface SignedVariant {
  relayerFee: bigint;
  outputAmount: bigint;
  minOutputAmount: bigint;
  typedData: TypedData;
}

export interface SignedTerms {
  sender: string;
  partner: string;
  feeBps: number;
  feeAmount: bigint;
  inputAmount: bigint;
  slippage: number;
  deadline: bigint;
  nonce: bigint;
  gasLimit: bigint;
  /** routeHash(calls) of the calls stored with the order: the only ones the Router will run for it */
  routeHash: string;
  /** the relayer's address on this network; the zero address (anyone) when no relayer is configured */
  submitter: string;
}

/** Native wei into input-token base units at USD prices; undefined when a price is missing. */
function weiInInput(quote: Quote, wei: bigint): bigint | undefined {
  const native = quote.graph.token(ZERO_ADDRESS);
  const input = quote.input;
  if (!native || native.priceUsd <= 0 || input.priceUsd <= 0) return undefined;
  const units = (Number(wei) / 1e18) * (native.priceUsd / input.priceUsd) * 10 ** input.decimals;
  return BigInt(Math.ceil(units));
}

export function signedVariant(quote: Quote, t: SignedTerms): SignedVariant | undefined {
  if (quote.input.address === ZERO_ADDRESS) return undefined;
  const relayerFee = weiInInput(quote, ((t.gasLimit + SIGNED_ORDER_EXTRA_GAS) * quote.gasPrice * GAS_PRICE_HEADROOM_PERCENT) / 100n);
  if (relayerFee === undefined || t.feeAmount + relayerFee >= t.inputAmount) return undefined;
  let outputAmount: bigint;
  try {
    outputAmount = replayPlan(quote.world, quote.plan, t.inputAmount - t.feeAmount - relayerFee);
  } catch {
    return undefined;
  }
  const minOutputAmount = minOutput(outputAmount, t.slippage);
  const order: SignedRouterOrder = {
    sender: t.sender,
    inputToken: quote.input.address,
    inputAmount: t.inputAmount,
    outputToken: quote.output.address,
    minOutputAmount,
    recipient: t.sender,
    partner: t.partner,
    feeBps: t.feeBps,
    relayerFee,
    submitter: t.submitter,
    routeHash: t.routeHash,
    nonce: t.nonce,
    deadline: t.deadline,
  };
  const typed = signedOrderTypedData(quote.deployment.chainId, quote.deployment.router, order);
  const value = Object.fromEntries(Object.entries(order).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v]));
  const domain = { ...typed.domain, chainId: Number(typed.domain.chainId) };
  return { relayerFee, outputAmount, minOutputAmount, typedData: { types: typed.types, domain, value } };
}
