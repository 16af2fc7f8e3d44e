import type { FastifyInstance } from 'fastify';
import { endpointList, type Caller, type TierPolicy } from '@tokensvc/api';
import type { NatsRpcClient } from '@tokensvc/transport';
import { sendError } from '../http/errors';
import { registerEndpoint } from '../http/register-endpoint';
import type { CallContext, ServedTable } from './served';
import { forTier } from './tier-transform';

type AnyHandler = (query: unknown, ctx: CallContext) => Promise<unknown>;

/**
 * Registers every operation of the public interface. Access and limits ran before (onRequest
 * hook); here the query is validated, then the served table answers, or 501 says the endpoint is
 * declared but no service answers it in this deployment yet.
 */
export function registerApiRoutes(fastify: FastifyInstance, served: ServedTable, rpc: NatsRpcClient, tierPolicy: Readonly<Record<Caller, TierPolicy>>, validate: boolean): void {
  for (const { id, def } of endpointList()) {
    const handle = served[id] as AnyHandler | undefined;
    registerEndpoint(
      fastify,
      def,
      async ({ query, req, reply }) => {
        // Answered directly rather than thrown: no stack to capture on a path clients may hit often.
        if (!handle) return sendError(reply, 501, `${def.path} is not served by this deployment yet`);
        const body = await handle(query, { rpc, caller: req.caller, requestId: req.id, clientIp: req.ip });
        return def.tokenLists ? forTier(body, def.tokenLists, tierPolicy[req.caller?.tier ?? 'anonymous'].paidData) : body;
      },
      validate,
    );
  }
}
