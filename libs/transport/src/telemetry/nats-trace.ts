import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type TextMapGetter,
  type TextMapSetter,
} from '@opentelemetry/api';
import { headers as natsHeaders, Match, type MsgHdrs } from 'nats';
import { currentRequestId, REQUEST_ID_HEADER, withRequestId } from './request-context';

/**
 * The W3C trace context (`traceparent`, `tracestate`) and the gateway's request id in NATS message
 * headers: the caller's side (rpc-client.ts, JetStream publishes) injects them, the service's side
 * (the RPC tracing interceptor) extracts them, so a request is one trace across the bus.
 */
const TRACER = 'tokensvc-nats';

const setter: TextMapSetter<MsgHdrs> = { set: (h, k, v) => h.set(k, v) };
const getter: TextMapGetter<MsgHdrs | undefined> = {
  keys: (h) => (h ? h.keys() : []),
  get: (h, k) => (h?.has(k, Match.IgnoreCase) ? h.get(k, Match.IgnoreCase) : undefined),
};

/** Headers carrying `ctx`'s trace context and request id (into `into`, or new headers). */
export function traceHeaders(ctx: Context = context.active(), into: MsgHdrs = natsHeaders()): MsgHdrs {
  propagation.inject(ctx, into, setter);
  const requestId = currentRequestId(ctx);
  if (requestId !== undefined) into.set(REQUEST_ID_HEADER, requestId);
  return into;
}

/** The context a message's headers carry (its trace parent and request id), on top of the root context. */
export function contextFromHeaders(h: MsgHdrs | undefined): Context {
  const ctx = propagation.extract(ROOT_CONTEXT, h, getter);
  const requestId = getter.get(h, REQUEST_ID_HEADER);
  return typeof requestId === 'string' && requestId ? withRequestId(requestId, ctx) : ctx;
}

function ended<T>(span: Span, run: () => Promise<T>): Promise<T> {
  return run().then(
    (v) => {
      span.end();
      return v;
    },
    (e: unknown) => {
      span.recordException(e instanceof Error ? e : String(e));
      span.setStatus({ code: SpanStatusCode.ERROR, message: e instanceof Error ? e.message : String(e) });
      span.end();
      throw e;
    },
  );
}

/**
 * A NATS request as a client span (`send <subject>`): `send` gets the headers to attach, carrying
 * this span as the service's parent.
 */
export function tracedRequest<T>(subject: string, service: string, send: (headers: MsgHdrs) => Promise<T>): Promise<T> {
  const span = trace.getTracer(TRACER).startSpan(`send ${subject}`, {
    kind: SpanKind.CLIENT,
    attributes: {
      'messaging.system': 'nats',
      'messaging.operation.type': 'send',
      'messaging.destination.name': subject,
      'rpc.service': service,
    },
  });
  const ctx = trace.setSpan(context.active(), span);
  return ended(span, () => send(traceHeaders(ctx)));
}

/**
 * Runs a service's handling of one NATS message inside a server span (`process <subject>`) whose
 * parent is the caller's span from the headers, with the caller's request id active.
 */
export function handleTraced<T>(subject: string, h: MsgHdrs | undefined, run: () => Promise<T>): Promise<T> {
  const parent = contextFromHeaders(h);
  const span = trace.getTracer(TRACER).startSpan(
    `process ${subject}`,
    {
      kind: SpanKind.SERVER,
      attributes: { 'messaging.system': 'nats', 'messaging.operation.type': 'process', 'messaging.destination.name': subject },
    },
    parent,
  );
  return context.with(trace.setSpan(parent, span), () => ended(span, run));
}
