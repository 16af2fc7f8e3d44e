import type { FastifyInstance } from 'fastify';
import { endpointList, type Caller, type TierPolicy } from '@tokensvc/api';
import { EncodedBody, type NatsRpcClient } from '@tokensvc/transport';
import { sendEncodedBody } from '../http/encoded-body';
import { sendError } from '../http/errors';
import { registerEndpoint } from '../http/register-endpoint';
import type { CallContext, ServedTable } from './served';
import { forTier } from './tier-transform';

type AnyHandler = (query: unknown, ctx: CallContext) => Promise<unknown>;

/**
 * Registers every operation of the public interface. Access and limits ran before (onRequest
 * hook); here the query is validated, then the served table answers, or 501 says the endpoint is
 * declared but no service answers it in this deployment yet. Token lists are cut to the caller's
 * tier here, unless the service already encoded the body for it (EncodedBody).
 */
export function registerApiRoutes(
  fastify: FastifyInstance,
  served: ServedTable,
  rpc: NatsRpcClient,
  tierPolicy: Readonly<Record<Caller, TierPolicy>>,
  validate: boolean,
): void {
  for (const { id, def } of endpointList()) {
    const handle = served[id] as AnyHandler | undefined;
    registerEndpoint(
      fastify,
      id,
      def,
      async ({ query, req, reply }) => {
        // Answered directly rather than thrown: no stack to capture on a path clients may hit often.
        if (!handle) return sendError(reply, 501, `${def.path} is not served by this deployment yet`);
        const paidData = tierPolicy[req.caller?.tier ?? 'anonymous'].paidData;
        const body = await handle(query, { rpc, caller: req.caller, requestId: req.id, clientKey: req.clientKey, paidData, req, reply });
        // a body token-data encoded for this caller's view goes out as it is
        if (body instanceof EncodedBody) return sendEncodedBody(req, reply, body);
        return def.tokenLists ? forTier(body, def.tokenLists, paidData) : body;
      },
      validate,
    );
  }
}
