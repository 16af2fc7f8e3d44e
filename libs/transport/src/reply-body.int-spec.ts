import { randomUUID } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { Controller, Module } from '@nestjs/common';
import { Ctx, MessagePattern, NatsContext, Payload } from '@nestjs/microservices';
import { AccountRequest, ErrorCode, ListNetworksReply, type RpcContract } from '@tokensvc/messages';
import { startMicroservice, type MicroserviceHandle } from './microservice';
import { BODY_GZIP_ABOVE_BYTES, bodySubjects, bodyViewOf, EncodedBody, jsonBody } from './reply-body';
import { RpcCallError, NatsRpcClient } from './rpc-client';
import { handleRpc, handleRpcBody, ServiceError } from './rpc-handler';

jest.setTimeout(60_000);

/**
 * Replies that are the HTTP body (reply-body.ts) over the machine's NATS, between a real Nest
 * microservice (startMicroservice: the serializer as the apps run it) and NatsRpcClient. Subjects
 * are unique to this run.
 */
// the machine's NATS (the testing library's INFRA.nats; transport tests may not import that library)
const NATS_URL = process.env['TEST_NATS_URL'] ?? 'nats://127.0.0.1:4222';
const run = randomUUID();
const contract = (name: string): RpcContract<AccountRequest, ListNetworksReply> => ({
  subject: `test.reply-body.${run}.${name}.v1`,
  service: 'token-data',
  request: AccountRequest,
  reply: ListNetworksReply,
});
const BODY = contract('body');
const LEGACY = contract('legacy');

/** `owner` picks the answer: ok, missing (a domain error), boom (a bug), large (a body over the gzip size), huge (a reply over max_payload) */
function answer(owner: string): ListNetworksReply {
  if (owner === 'missing') throw new ServiceError(ErrorCode.ERROR_CODE_NOT_FOUND, 'no such owner');
  if (owner === 'boom') throw new Error('a bug');
  if (owner === 'huge') return { networks: Array.from({ length: 120_000 }, (_, i) => `network-${i}`) };
  return { networks: ['ethereum', 'base'] };
}
const bodyOf = (owner: string, view: string): Buffer =>
  Buffer.from(
    JSON.stringify({
      view,
      networks: owner === 'large' ? Array.from({ length: 40_000 }, (_, i) => `network-${i}`) : answer(owner).networks,
    }),
  );

@Controller()
class TestController {
  @MessagePattern(bodySubjects(BODY.subject))
  body(@Payload() raw: unknown, @Ctx() ctx: NatsContext): Promise<unknown> {
    const view = bodyViewOf(ctx);
    if (view) return handleRpcBody(BODY, raw, (req) => jsonBody(bodyOf(req.owner, view)));
    return handleRpc(BODY, raw, (req) => answer(req.owner));
  }

  /** a service that does not encode bodies (no view subjects): whatever the caller asks, the reply message */
  @MessagePattern(LEGACY.subject)
  legacy(@Payload() raw: unknown): Promise<unknown> {
    return handleRpc(LEGACY, raw, (req) => answer(req.owner));
  }
}

@Module({ controllers: [TestController] })
class TestModule {}

describe('reply bodies over NATS', () => {
  let service: MicroserviceHandle;
  let client: NatsRpcClient;
  beforeAll(async () => {
    service = await startMicroservice(
      'token-data',
      TestModule,
      { natsUrl: NATS_URL, databaseUrl: '', redisUrl: '', logLevel: 'error', networks: [], devnetManifest: undefined, healthPort: 0 },
      () => ({}),
    );
    client = new NatsRpcClient(NATS_URL, 5000, 'reply-body-spec');
    await client.start();
  });
  afterAll(async () => {
    await client?.close();
    await service?.stop();
  });

  it('gives the body the service encoded for the asked view, and the reply message to callers that did not ask', async () => {
    for (const view of ['paid', 'free'] as const) {
      const got = await client.callBody(BODY, AccountRequest.fromJSON({ owner: 'ok' }), view);
      expect('body' in got && got.body instanceof EncodedBody).toBe(true);
      const body = (got as { body: EncodedBody }).body;
      expect(body.encoding).toBeUndefined();
      expect(Buffer.from(body.bytes).toString()).toBe(JSON.stringify({ view, networks: ['ethereum', 'base'] }));
    }
    expect(await client.call(BODY, AccountRequest.fromJSON({ owner: 'ok' }))).toEqual({ networks: ['ethereum', 'base'] });
  });

  it('gzips bodies above the threshold; they inflate to the body', async () => {
    const got = await client.callBody(BODY, AccountRequest.fromJSON({ owner: 'large' }), 'paid');
    const body = (got as { body: EncodedBody }).body;
    expect(body.encoding).toBe('gzip');
    const plain = bodyOf('large', 'paid');
    expect(plain.length).toBeGreaterThan(BODY_GZIP_ABOVE_BYTES);
    expect(body.bytes.length).toBeLessThan(plain.length / 4);
    expect(gunzipSync(body.bytes).equals(plain)).toBe(true);
  });

  it('falls back to the reply message when the service does not encode bodies', async () => {
    expect(await client.callBody(LEGACY, AccountRequest.fromJSON({ owner: 'ok' }), 'free')).toEqual({
      reply: { networks: ['ethereum', 'base'] },
    });
  });

  it('carries errors as before: domain errors with their code and message, others as INTERNAL without details', async () => {
    for (const c of [BODY, LEGACY]) {
      await expect(client.callBody(c, AccountRequest.fromJSON({ owner: 'missing' }), 'paid')).rejects.toMatchObject({
        code: ErrorCode.ERROR_CODE_NOT_FOUND,
        message: 'no such owner',
      });
      const e = await client.callBody(c, AccountRequest.fromJSON({ owner: 'boom' }), 'paid').catch((x: unknown) => x);
      expect(e).toBeInstanceOf(RpcCallError);
      expect(e).toMatchObject({ code: ErrorCode.ERROR_CODE_INTERNAL });
      expect((e as Error).message).not.toContain('a bug');
    }
  });

  it('answers a reply over the bus max_payload with an error naming the sizes, and keeps serving', async () => {
    const started = Date.now();
    const e = await client.call(BODY, AccountRequest.fromJSON({ owner: 'huge' })).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(RpcCallError);
    expect(e).toMatchObject({ code: ErrorCode.ERROR_CODE_INTERNAL });
    expect((e as Error).message).toMatch(/reply \(\d+ bytes\) is larger than the message bus accepts \(max_payload \d+ bytes\)/);
    expect(Date.now() - started).toBeLessThan(4000); // an answer, not the 5 s timeout
    expect(await client.call(BODY, AccountRequest.fromJSON({ owner: 'ok' }))).toEqual({ networks: ['ethereum', 'base'] });
  });
});
