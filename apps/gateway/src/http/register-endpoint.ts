import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseQuery, QueryError, routeSchema, type EndpointDef, type ParsedQuery } from '@tokensvc/api';

export interface EndpointInput<E extends EndpointDef> {
  readonly query: ParsedQuery<E['query']>;
  readonly req: FastifyRequest;
  readonly reply: FastifyReply;
}

/** A JSON body as a flat record for `parseQuery` (admin operations); anything else is a 400. */
export function bodyRecord(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new QueryError(['the request body must be a JSON object']);
  return body as Record<string, unknown>;
}

/**
 * Registers one declared operation on Fastify: the route carries the schema @fastify/swagger
 * documents (`routeSchema`; the instance compiles nothing from it, see `documentOnlyCompilers`),
 * validates the query against the declaration (unless `validate` is off, which only the overhead
 * benchmark does), runs the handler and sets the declared success status. Errors go to the error
 * filter.
 */
export function registerEndpoint<E extends EndpointDef>(
  fastify: FastifyInstance,
  id: string,
  def: E,
  handler: (input: EndpointInput<E>) => Promise<unknown>,
  validate = true,
): void {
  fastify.route({
    method: def.method,
    url: def.path,
    schema: routeSchema(id, def),
    handler: async (req, reply) => {
      const raw = req.query as Record<string, unknown>;
      // Without validation the raw strings go through as they are: benchmark only (see GatewayOptions.enforcement).
      const query = (validate ? parseQuery(def.query, raw) : raw) as ParsedQuery<E['query']>;
      const result = await handler({ query, req, reply });
      if (def.status !== undefined) void reply.code(def.status);
      return result;
    },
  });
}
