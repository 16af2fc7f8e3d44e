import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

const tracer = trace.getTracer('tokensvc-chain');

/** The host of an RPC URL (never its path or query: providers put API keys there). */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'unknown';
  }
}

/**
 * One JSON-RPC HTTP round trip as a client span (`eth_call`, `eth_call batch`), when it is part of
 * a recorded trace (a request being handled with tracing on); otherwise `run` runs bare, so
 * background loops and tracing-off processes pay nothing (issue 20).
 */
export async function rpcSpan<T>(url: string, method: string, count: number, run: () => Promise<T>): Promise<T> {
  if (!trace.getActiveSpan()?.isRecording()) return run();
  const span = tracer.startSpan(count > 1 ? `${method} batch` : method, {
    kind: SpanKind.CLIENT,
    attributes: { 'rpc.system': 'jsonrpc', 'rpc.method': method, 'rpc.jsonrpc.batch_size': count, 'server.address': hostOf(url) },
  });
  try {
    return await run();
  } catch (e) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: (e as Error).message });
    throw e;
  } finally {
    span.end();
  }
}
