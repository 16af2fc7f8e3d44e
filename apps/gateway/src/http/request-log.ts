import type { FastifyReply, FastifyRequest } from 'fastify';
import type { JsonLogger } from '@tokensvc/transport';
import { httpMetrics } from './metrics';

/**
 * `onResponse`: the per-route/status histogram and one JSON access-log line with the request id.
 * The caller appears as tier and key display prefix, never the key.
 */
export function observeResponse(logger: JsonLogger): (req: FastifyRequest, reply: FastifyReply) => Promise<void> {
  return async (req, reply) => {
    const route = req.routeOptions.url ?? 'unmatched';
    httpMetrics.duration.observe({ method: req.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    logger.info({
      msg: 'request',
      requestId: req.id,
      method: req.method,
      route,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      ip: req.ip,
      tier: req.caller?.tier,
      key: req.caller?.key?.displayPrefix,
    });
  };
}
