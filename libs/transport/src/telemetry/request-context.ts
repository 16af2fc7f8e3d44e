import { context, createContextKey, trace, type Context } from '@opentelemetry/api';

/**
 * The request being handled, as the active OpenTelemetry context holds it (AsyncLocalStorage under
 * the hood, set up by initTracing): the gateway's request id (an HTTP request's `x-request-id`,
 * carried to the services in the NATS header of the same name) next to the active span. Every log
 * line reads both (logger.ts), so one request's lines can be found across the services.
 */
const REQUEST_ID = createContextKey('tokensvc.request_id');

/** The NATS (and HTTP) header carrying the gateway's request id. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** `ctx` (default: the active context) with the request id set. */
export function withRequestId(requestId: string, ctx: Context = context.active()): Context {
  return ctx.setValue(REQUEST_ID, requestId);
}

/** The request id of `ctx` (default: the active context), if a request is being handled. */
export function currentRequestId(ctx: Context = context.active()): string | undefined {
  const id = ctx.getValue(REQUEST_ID);
  return typeof id === 'string' ? id : undefined;
}

export interface LogCorrelation {
  requestId?: string;
  traceId?: string;
  spanId?: string;
}

/** The fields every log line carries: request id, trace id and span id of the active context. */
export function logCorrelation(): LogCorrelation {
  const ctx = context.active();
  const out: LogCorrelation = {};
  const requestId = currentRequestId(ctx);
  if (requestId !== undefined) out.requestId = requestId;
  const span = trace.getSpanContext(ctx);
  if (span && trace.isSpanContextValid(span)) {
    out.traceId = span.traceId;
    out.spanId = span.spanId;
  }
  return out;
}
