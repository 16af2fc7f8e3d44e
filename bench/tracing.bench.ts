/**
 * `npm run bench -- tracing`: what logs and traces cost per request, in process (issue 20). One
 * "request" is what the gateway and a service do around a NATS call: the gateway's HTTP span and
 * request id, the NATS client span with its headers, the service's handler span from those
 * headers, three child spans (queries) when tracing records, and two log lines. Tracing off (the
 * default: ids only) against on (spans recorded, batched to an exporter that drops them), and the
 * cost of one log line.
 */
import { context, trace } from '@opentelemetry/api';
import { BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-node';
import { handleTraced, initTracing, JsonLogger, resetTracing, tracedRequest, withRequestId } from '@tokensvc/transport';

const dropAll: SpanExporter = {
  export: (_spans: ReadableSpan[], done) => done({ code: 0 }),
  shutdown: async () => undefined,
};

async function oneRequest(logger: JsonLogger, i: number): Promise<void> {
  const tracer = trace.getTracer('bench');
  const http = tracer.startSpan('GET /v2/tokens');
  await context.with(withRequestId(`req-${i}`, trace.setSpan(context.active(), http)), () =>
    tracedRequest('tokensvc.tokens.list', 'token-data', (headers) =>
      handleTraced('tokensvc.tokens.list', headers, async () => {
        for (let q = 0; q < 3; q++) if (trace.getActiveSpan()?.isRecording()) tracer.startSpan('pg.query:SELECT').end();
        logger.info('handled');
      }),
    ),
  );
  logger.info({ msg: 'request', status: 200 });
  http.end();
}

async function perRequestMicros(logger: JsonLogger, n: number): Promise<number> {
  for (let i = 0; i < 2000; i++) await oneRequest(logger, i);
  const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await oneRequest(logger, i);
  return Number(process.hrtime.bigint() - t) / 1000 / n;
}

export async function runTracingBench(log: (s: string) => void, n = 20_000): Promise<void> {
  let sink = 0;
  const logger = new JsonLogger('bench', 'info', { write: (s: string) => void (sink += s.length) });
  const rows: Array<[string, number]> = [];
  await resetTracing();
  initTracing('bench', { env: {} });
  rows.push(['tracing off (ids, 2 log lines)', await perRequestMicros(logger, n)]);
  await resetTracing();
  initTracing('bench', { spanProcessors: [new BatchSpanProcessor(dropAll)] });
  rows.push(['tracing on (6 spans recorded, 2 log lines)', await perRequestMicros(logger, n)]);
  await resetTracing();
  const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) logger.info({ msg: 'request', requestId: `req-${i}`, status: 200, route: '/v2/tokens' });
  rows.push(['one log line (pino, redaction on)', Number(process.hrtime.bigint() - t) / 1000 / n]);
  log(
    `\nlogs and traces, per request (${n} requests, one process)\n${rows.map(([name, us]) => `${name.padEnd(46)} ${us.toFixed(1).padStart(7)} µs`).join('\n')}`,
  );
  log(`(${sink} bytes of log lines written to a counter)`);
}
