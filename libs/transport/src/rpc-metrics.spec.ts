import { ErrorCode, RPC } from '@tokensvc/messages';
import { HealthServer } from './health-server';
import { EncodedBody } from './reply-body';
import { handleRpc, handleRpcBody, ServiceError } from './rpc-handler';
import { RPC_METRICS } from './rpc-metrics';

const count = async (subject: string, outcome: string): Promise<number> =>
  (await RPC_METRICS.handled.get()).values.find(
    (v) => v.metricName === 'nats_handler_duration_seconds_count' && v.labels['subject'] === subject && v.labels['outcome'] === outcome,
  )?.value ?? 0;

describe('NATS handler metrics (the shared handler wrapper)', () => {
  const ping = RPC.pingQuote;
  const pingReply = { service: 'quote', instanceId: 'i-1', time: '2026-01-01T00:00:00.000Z' };

  it('counts and times each handled request by subject and outcome', async () => {
    const before = {
      ok: await count(ping.subject, 'ok'),
      notFound: await count(ping.subject, 'not_found'),
      internal: await count(ping.subject, 'internal'),
    };
    await handleRpc(ping, {}, () => pingReply);
    await handleRpc(ping, {}, async () => pingReply);
    await expect(
      handleRpc(ping, {}, () => Promise.reject(new ServiceError(ErrorCode.ERROR_CODE_NOT_FOUND, 'no such thing'))),
    ).rejects.toMatchObject({ error: { code: ErrorCode.ERROR_CODE_NOT_FOUND } });
    await expect(
      handleRpc(
        ping,
        {},
        () => Promise.reject(new Error('boom')),
        () => undefined,
      ),
    ).rejects.toMatchObject({ error: { code: ErrorCode.ERROR_CODE_INTERNAL } });
    expect(await count(ping.subject, 'ok')).toBe(before.ok + 2);
    expect(await count(ping.subject, 'not_found')).toBe(before.notFound + 1);
    expect(await count(ping.subject, 'internal')).toBe(before.internal + 1);
  });

  it('covers handlers that answer the HTTP body itself', async () => {
    const subject = RPC.listTokens.subject;
    const before = { ok: await count(subject, 'ok'), bad: await count(subject, 'bad_request') };
    await handleRpcBody(RPC.listTokens, {}, async () => new EncodedBody(Buffer.from('{}')));
    await expect(
      handleRpcBody(RPC.listTokens, {}, () => Promise.reject(new ServiceError(ErrorCode.ERROR_CODE_BAD_REQUEST, 'bad'))),
    ).rejects.toBeDefined();
    expect(await count(subject, 'ok')).toBe(before.ok + 1);
    expect(await count(subject, 'bad_request')).toBe(before.bad + 1);
  });

  it('is served on every microservice health server with its service label', async () => {
    await handleRpc(ping, {}, () => pingReply);
    const text = await new HealthServer('quote', {}).registry.metrics();
    expect(text).toMatch(
      new RegExp(
        `^nats_handler_duration_seconds_count\\{service="quote",subject="${ping.subject.replace(/\./g, '\\.')}",outcome="ok"\\} [1-9]\\d*$`,
        'm',
      ),
    );
    expect(text).toContain(`nats_handler_duration_seconds_bucket{le="0.005",service="quote",subject="${ping.subject}",outcome="ok"}`);
  });
});
