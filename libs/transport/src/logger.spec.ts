import { context, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { JsonLogger } from './logger';
import { scrubSecrets } from './log-redaction';
import { withRequestId } from './telemetry/request-context';
import { handleTraced, traceHeaders } from './telemetry/nats-trace';
import { initTracing, resetTracing } from './telemetry/tracing';

type Line = Record<string, any>;

function capture(level: 'debug' | 'info' = 'debug'): { logger: JsonLogger; lines: Line[] } {
  const lines: Line[] = [];
  const logger = new JsonLogger('svc', level, { write: (s: string) => void lines.push(JSON.parse(s) as Line) });
  return { logger, lines };
}

describe('JsonLogger (pino)', () => {
  it('writes one JSON object per line with time, level name, service and msg', () => {
    const { logger, lines } = capture('info');
    logger.info('started', { port: 3000 });
    logger.debug('hidden at info');
    expect(lines).toEqual([
      { time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), level: 'info', service: 'svc', port: 3000, msg: 'started' },
    ]);
  });

  it('logs an Error with its type, message and stack; Nest style (message, stack, context) keeps the stack', () => {
    const { logger, lines } = capture();
    const e = new TypeError('boom');
    logger.error(e);
    logger.error({ msg: 'request failed', err: e, status: 500 });
    logger.error('handler failed', e.stack, 'TokensController');
    expect(lines[0]).toMatchObject({
      level: 'error',
      msg: 'boom',
      err: { type: 'TypeError', message: 'boom', stack: expect.stringContaining('logger.spec.ts') },
    });
    expect(lines[1]).toMatchObject({
      msg: 'request failed',
      status: 500,
      err: { type: 'TypeError', stack: expect.stringMatching(/^TypeError: boom\n\s+at /) },
    });
    expect(lines[2]).toMatchObject({
      msg: 'handler failed',
      context: 'TokensController',
      stack: expect.stringMatching(/^TypeError: boom\n\s+at /),
    });
  });

  it('redacts secrets: fields by name (also in headers and nested), URL credentials, bearer tokens, API keys, name=value pairs', () => {
    const { logger, lines } = capture();
    const apiKey = 'tsk_live_AbCdEf0123456789AbCdEf0123456789';
    logger.info({
      msg: `connecting to postgres://app:hunter2@db:5432/x with Bearer ${apiKey}`,
      apiKey,
      password: 'hunter2',
      headers: { authorization: `Bearer ${apiKey}`, 'x-api-key': apiKey, accept: 'application/json' },
      order: { signature: '0xdeadbeef', amount: '1' },
      url: 'redis://:s3cret@cache:6379',
    });
    logger.error(new Error(`RPC https://user:pw@node.example/v3 failed; password=hunter2`));
    const text = lines.map((l) => JSON.stringify(l)).join('\n');
    for (const secret of ['hunter2', 's3cret', 'pw@', '0xdeadbeef', apiKey]) expect(text).not.toContain(secret);
    expect(lines[0]).toMatchObject({
      apiKey: '[redacted]',
      password: '[redacted]',
      headers: { authorization: '[redacted]', 'x-api-key': '[redacted]', accept: 'application/json' },
      order: { signature: '[redacted]', amount: '1' },
      url: 'redis://***@cache:6379',
      msg: 'connecting to postgres://***@db:5432/x with Bearer ***',
    });
    expect(lines[1]!['err'].message).toBe('RPC https://***@node.example/v3 failed; password=***');
    // the display prefix of a key stays (it names the key without giving it)
    expect(scrubSecrets(`key ${apiKey}`)).toBe('key tsk_live_AbCdEf***');
    expect(scrubSecrets('nothing secret here')).toBe('nothing secret here');
  });

  describe('request id and trace id', () => {
    const exporter = new InMemorySpanExporter();
    beforeAll(() => initTracing('svc', { spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    afterAll(() => resetTracing());

    it('a line logged while a service handles a NATS request carries the gateway request id and the trace id', async () => {
      const { logger, lines } = capture();
      // the gateway's side: its request span and id, as headers on the NATS message
      const gatewaySpan = trace.getTracer('test').startSpan('GET /v2/tokens');
      const headers = traceHeaders(withRequestId('req-42', trace.setSpan(context.active(), gatewaySpan)));
      // the service's side: the handler runs inside the context the headers carry
      await handleTraced('tokensvc.tokens.list', headers, async () => {
        await new Promise((r) => setTimeout(r, 1));
        logger.info('listing tokens');
      });
      gatewaySpan.end();
      logger.info('outside any request');
      const traceId = gatewaySpan.spanContext().traceId;
      const server = exporter.getFinishedSpans().find((s) => s.name === 'process tokensvc.tokens.list')!;
      expect(lines[0]).toMatchObject({ msg: 'listing tokens', requestId: 'req-42', traceId, spanId: server.spanContext().spanId });
      expect(server.parentSpanContext?.spanId).toBe(gatewaySpan.spanContext().spanId);
      expect(lines[1]).not.toHaveProperty('requestId');
      expect(lines[1]).not.toHaveProperty('traceId');
    });
  });
});
