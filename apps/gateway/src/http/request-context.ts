import { context, propagation, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { withRequestId } from '@tokensvc/transport';

/**
 * Every HTTP request runs inside its own context from the first byte (issue 20): a server span
 * continuing the caller's W3C `traceparent` if it sent one, and the request id (the caller's
 * `x-request-id` when sane, else a new UUID). Fastify's handler is called inside that context, so
 * every hook, route, NATS call (the span and id go on in NATS headers) and log line of the
 * request sees both. The span ends when the response is done; its name is the matched route.
 */
const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
const TRACER = 'tokensvc-gateway';

interface RequestState {
  id: string;
  span: Span;
}
const STATE = new WeakMap<IncomingMessage, RequestState>();

function requestIdOfHeaders(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/** Fastify `genReqId`: the id chosen when the request came in (a request from inject() gets one here). */
export function requestIdOf(req: IncomingMessage): string {
  return STATE.get(req)?.id ?? requestIdOfHeaders(req);
}

/** Fastify `serverFactory`: a plain HTTP server running each request inside its span and request id. */
export function tracedServerFactory(handler: (req: IncomingMessage, res: ServerResponse) => void): Server {
  return createServer((req, res) => {
    const id = requestIdOfHeaders(req);
    const parent = propagation.extract(context.active(), req.headers);
    const span = trace
      .getTracer(TRACER)
      .startSpan(
        `${req.method ?? 'GET'}`,
        { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method ?? '', 'http.request_id': id } },
        parent,
      );
    STATE.set(req, { id, span });
    res.once('close', () => {
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    context.with(withRequestId(id, trace.setSpan(parent, span)), () => handler(req, res));
  });
}

/** Names each request's span after its route (`GET /v2/tokens`) once Fastify has matched it. */
export function nameRequestSpans(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', async (req) => {
    const state = STATE.get(req.raw);
    const route = req.routeOptions.url;
    if (!state || !route) return;
    state.span.updateName(`${req.method} ${route}`);
    state.span.setAttribute('http.route', route);
  });
}
