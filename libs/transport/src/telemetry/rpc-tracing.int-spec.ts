import { randomUUID } from 'node:crypto';
import { context, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { Controller, Logger, Module } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Pool } from 'pg';
import { AccountRequest, ListNetworksReply, type RpcContract } from '@tokensvc/messages';
import { startMicroservice, type MicroserviceHandle } from '../microservice';
import { NatsRpcClient } from '../rpc-client';
import { handleRpc } from '../rpc-handler';
import { withRequestId } from './request-context';
import { initTracing, resetTracing } from './tracing';

jest.setTimeout(60_000);

/**
 * A request's trace and request id across NATS between NatsRpcClient and a real microservice
 * (startMicroservice, as the apps run): the handler's log lines carry the caller's request id and
 * trace id, and its spans (handler, pg query) hang under the caller's span, in one trace.
 */
// the machine's NATS and Postgres (transport tests may not import the testing library)
const NATS_URL = process.env['TEST_NATS_URL'] ?? 'nats://127.0.0.1:4222';
const PG_URL = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CONTRACT: RpcContract<AccountRequest, ListNetworksReply> = {
  subject: `test.tracing.${randomUUID()}.v1`,
  service: 'token-data',
  request: AccountRequest,
  reply: ListNetworksReply,
};
const pool = new Pool({ connectionString: PG_URL, max: 1 });

@Controller()
class TracedController {
  private readonly log = new Logger('TracedController');

  @MessagePattern(CONTRACT.subject)
  answer(@Payload() raw: unknown): Promise<unknown> {
    return handleRpc(CONTRACT, raw, async (req) => {
      const { rows } = await pool.query<{ n: number }>('SELECT 1 AS n');
      this.log.log({ msg: 'answering', owner: req.owner });
      return { networks: [String(rows[0]!.n)] };
    });
  }
}

@Module({ controllers: [TracedController] })
class TracedModule {}

describe('trace context and request id over NATS (startMicroservice)', () => {
  const exporter = new InMemorySpanExporter();
  const lines: string[] = [];
  let service: MicroserviceHandle;
  let client: NatsRpcClient;
  let spies: jest.SpyInstance[] = [];

  beforeAll(async () => {
    initTracing('token-data', { spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const capture = (stream: NodeJS.WriteStream): jest.SpyInstance =>
      jest.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
        lines.push(String(chunk));
        return true;
      });
    spies = [capture(process.stdout), capture(process.stderr)];
    service = await startMicroservice(
      'token-data',
      TracedModule,
      { natsUrl: NATS_URL, databaseUrl: '', redisUrl: '', logLevel: 'debug', networks: [], devnetManifest: undefined, healthPort: 0 },
      () => ({}),
    );
    client = new NatsRpcClient(NATS_URL, 5000, 'tracing-spec');
    await client.start();
  });
  afterAll(async () => {
    for (const s of spies) s.mockRestore();
    await client?.close();
    await service?.stop();
    await pool.end();
    await resetTracing();
  });

  it("the handler's log lines carry the caller's request id and trace id; its spans continue the caller's trace", async () => {
    const root = trace.getTracer('test').startSpan('GET /v1/networks');
    const reply = await context.with(withRequestId('req-int-7', trace.setSpan(context.active(), root)), () =>
      client.call(CONTRACT, AccountRequest.fromJSON({ owner: 'x' })),
    );
    root.end();
    expect(reply).toEqual({ networks: ['1'] });
    const traceId = root.spanContext().traceId;

    const logged = lines
      .flatMap((l) => l.split('\n'))
      .filter((l) => l.includes('"requestId":"req-int-7"'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(logged.map((l) => l['msg'])).toEqual(expect.arrayContaining(['answering', 'rpc handled']));
    for (const l of logged) expect(l).toMatchObject({ service: 'token-data', requestId: 'req-int-7', traceId });

    const spans = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
    const byName = (prefix: string) => spans.find((s) => s.name.startsWith(prefix))!;
    const send = byName(`send ${CONTRACT.subject}`);
    const handler = byName(`process ${CONTRACT.subject}`);
    const query = spans.find((s) => s.attributes['db.system.name'] === 'postgresql')!;
    expect(send.parentSpanContext?.spanId).toBe(root.spanContext().spanId);
    expect(handler.parentSpanContext?.spanId).toBe(send.spanContext().spanId);
    expect(query.parentSpanContext?.spanId).toBe(handler.spanContext().spanId);
    // a query outside any request makes no span
    await pool.query('SELECT 2');
    expect(exporter.getFinishedSpans().filter((s) => s.attributes['db.system.name'] !== undefined)).toHaveLength(1);
  });
});
