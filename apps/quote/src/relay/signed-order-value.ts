/**
 * The stored signed order's typed-data `value` as the Router struct, with the Router's binding
 * checks done off-chain first: the signature covers `routeHash` (the calls) and `submitter`, so an
 * order whose stored calls or relayer no longer match would only revert, and the 400 says why
 * instead of the relayer paying for a failed simulation's guesswork.
 */
import { type ExecutorCall, type SignedRouterOrder, routeHash } from '@tokensvc/contracts';
import { ZERO_ADDRESS } from '@tokensvc/domain';
import { ErrorCode } from '@tokensvc/messages';
import { ServiceError } from '@tokensvc/transport';

const bad = (m: string): ServiceError => new ServiceError(ErrorCode.ERROR_CODE_BAD_REQUEST, m);
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HASH = /^0x[0-9a-fA-F]{64}$/;

/**
 * `relayer`: the address that will send the transaction. Throws a 400 when the order was quoted
 * without the route binding (before it existed), or binds other calls or another submitter.
 */
export function signedOrderOf(v: Record<string, string | number>, calls: readonly ExecutorCall[], relayer: string): SignedRouterOrder {
  const submitter = String(v['submitter'] ?? '');
  const signedRoute = String(v['routeHash'] ?? '');
  if (!ADDRESS.test(submitter) || !HASH.test(signedRoute)) {
    throw bad(
      'this order was quoted before signed orders bound their route and submitter, and the Router refuses it; get a new quote from GET /v2/portal',
    );
  }
  const route = routeHash(calls);
  if (signedRoute.toLowerCase() !== route.toLowerCase()) {
    throw bad(
      `the order's signed routeHash ${signedRoute.toLowerCase()} is not the hash of its stored calls (${route}); get a new quote from GET /v2/portal`,
    );
  }
  if (submitter.toLowerCase() !== ZERO_ADDRESS && submitter.toLowerCase() !== relayer.toLowerCase()) {
    throw bad(
      `the order may only be submitted by ${submitter.toLowerCase()}, not by this relayer (${relayer.toLowerCase()}); get a new quote from GET /v2/portal`,
    );
  }
  return {
    sender: String(v['sender']),
    inputToken: String(v['inputToken']),
    inputAmount: BigInt(v['inputAmount']!),
    outputToken: String(v['outputToken']),
    minOutputAmount: BigInt(v['minOutputAmount']!),
    recipient: String(v['recipient']),
    partner: String(v['partner']),
    feeBps: Number(v['feeBps']),
    relayerFee: BigInt(v['relayerFee']!),
    submitter,
    routeHash: signedRoute,
    nonce: BigInt(v['nonce']!),
    deadline: BigInt(v['deadline']!),
  };
}
