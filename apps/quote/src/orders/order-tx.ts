/**
 * The Router transaction of a planned order: the order struct, the executor calls and the
 * calldata of `execute` (approved input or native) or `executeWithPermit`.
 */
import { Signature } from 'ethers';
import {
  type ExecutorCall,
  type PermitParams,
  type RouterOrder,
  encodeExecute,
  encodeExecuteWithPermit,
  routeHash,
  unwrapAllCall,
  wrapAllCall,
} from '@tokensvc/contracts';
import { ZERO_ADDRESS } from '@tokensvc/domain';
import { planCalls } from '../planning/executor-calls';
import type { Quote } from './quote-engine';
import { badRequest } from './request-parsing';

export interface OrderTerms {
  sender: string;
  recipient: string;
  partner: string;
  feeBps: number;
  inputAmount: bigint;
  minOutputAmount: bigint;
  deadline: bigint;
  executor: string;
}

export interface OrderTx {
  order: RouterOrder;
  calls: ExecutorCall[];
  routeHash: string;
  to: string;
  data: string;
  value: bigint;
}

/**
 * The executor calls of a plan (single or multi-input: only its steps, native legs, network and
 * platforms matter). The Router hands native input to the executor as native and takes a native
 * output from it as native (it names no WETH, so it has one address on every chain): a plan with a
 * native input starts by wrapping all of it into the network's wrapped native token, and one with
 * a native output ends by unwrapping all of it.
 */
export function orderCalls(
  quote: Pick<Quote, 'deployment' | 'network'> & { plan: Pick<Quote['plan'], 'steps' | 'wrapNative' | 'unwrapNative'> },
  terms: Pick<OrderTerms, 'executor' | 'recipient' | 'deadline'>,
): ExecutorCall[] {
  const platforms = quote.deployment.platforms;
  const { wrapNative, unwrapNative } = quote.plan;
  const steps = planCalls(
    quote.plan.steps.map((s) => s.action),
    {
      network: quote.network,
      executor: terms.executor,
      recipient: terms.recipient,
      deadline: terms.deadline,
      platformAddress: (slug, role) => {
        const address = platforms.get(slug)?.[role];
        if (!address) throw badRequest(`unsupported: platform ${slug} has no ${role} configured on ${quote.network}`);
        return address;
      },
      platformAddresses: (slug) => platforms.get(slug),
      refuse: (message) => {
        throw badRequest(message);
      },
    },
  );
  return [...(wrapNative ? [wrapAllCall(wrapNative)] : []), ...steps, ...(unwrapNative ? [unwrapAllCall(unwrapNative)] : [])];
}

export function routerOrder(quote: Quote, terms: OrderTerms): RouterOrder {
  return {
    inputToken: quote.input.address,
    inputAmount: terms.inputAmount,
    outputToken: quote.output.address,
    minOutputAmount: terms.minOutputAmount,
    recipient: terms.recipient,
    partner: terms.partner,
    feeBps: terms.feeBps,
    deadline: terms.deadline,
  };
}

/** v, r, s of a 65-byte permit signature over `value`/`deadline`. */
export function permitParams(signature: string, value: bigint, deadline: bigint): PermitParams {
  try {
    const sig = Signature.from(signature);
    return { value, deadline, v: sig.v, r: sig.r, s: sig.s };
  } catch (e) {
    throw badRequest(`permitSignature is not a valid 65-byte secp256k1 signature: ${(e as Error).message}`);
  }
}

export function buildOrderTx(quote: Quote, terms: OrderTerms, permit?: PermitParams): OrderTx {
  const calls = orderCalls(quote, terms);
  const order = routerOrder(quote, terms);
  const data = permit ? encodeExecuteWithPermit(order, permit, calls) : encodeExecute(order, calls);
  return {
    order,
    calls,
    routeHash: routeHash(calls),
    to: quote.deployment.router,
    data,
    value: quote.input.address === ZERO_ADDRESS ? terms.inputAmount : 0n,
  };
}
