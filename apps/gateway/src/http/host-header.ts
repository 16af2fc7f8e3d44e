import type { FastifyInstance } from 'fastify';
import { sendError } from './errors';

/** How many Host header lines the request carried (Node keeps the first in `headers.host` and drops the rest). */
export function hostHeaderCount(rawHeaders: readonly string[]): number {
  let n = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.length === 4 && rawHeaders[i]!.toLowerCase() === 'host') n++;
  return n;
}

/**
 * A request with more than one Host header is a 400 (RFC 9112 section 3.2): a proxy in front and
 * the gateway could each act on a different one (routing, cache keys, absolute URLs). Registered
 * first, so nothing else (CORS, authentication) runs for such a request.
 */
export function refuseDuplicateHost(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', async (req, reply) => {
    if (hostHeaderCount(req.raw.rawHeaders) > 1) return sendError(reply, 400, 'more than one Host header: send exactly one');
    return undefined;
  });
}
