import { randomUUID } from 'node:crypto';
import { connect, JSONCodec, type NatsConnection } from 'nats';
import { ErrorCode, type RpcContract } from '@tokensvc/messages';
import { NatsRpcClient, RpcCallError } from './rpc-client';

jest.setTimeout(30_000);

/**
 * NatsRpcClient against "replicas" on the machine's NATS (subjects unique to this run): one that
 * takes a request and dies with it (never answers), one that answers. An idempotent call is sent
 * once more and answered within its deadline; any other call is sent once and answers TIMEOUT.
 */
const NATS_URL = process.env['TEST_NATS_URL'] ?? 'nats://127.0.0.1:4222';
const run = randomUUID();
const json = JSONCodec<{ id: string; data: { n: number } }>();
const identity = { fromJSON: (o: unknown) => o as { n: number }, toJSON: (o: { n: number }) => o };
const contract = (name: string, idempotent: boolean): RpcContract<{ n: number }, { n: number }> => ({
  subject: `test.retry.${run}.${name}.v1`,
  service: 'quote',
  request: identity,
  reply: identity,
  idempotent,
});

describe('NatsRpcClient: a request whose replica dies with it', () => {
  let nc: NatsConnection;
  let client: NatsRpcClient;
  const seen: Record<string, number> = {};

  /** The first request on `subject` is swallowed (its replica died), the next ones are answered. */
  const flakyReplicas = (subject: string): void => {
    seen[subject] = 0;
    nc.subscribe(subject, {
      queue: 'replicas',
      callback: (_e, msg) => {
        if (seen[subject]!++ === 0) return;
        const { id, data } = json.decode(msg.data);
        msg.respond(new TextEncoder().encode(JSON.stringify({ id, response: { n: data.n * 2 }, isDisposed: true })));
      },
    });
  };

  beforeAll(async () => {
    nc = await connect({ servers: NATS_URL });
    client = new NatsRpcClient(NATS_URL, 1000, 'retry-test', { hedgeAfterMs: 300, pauseMs: 50 });
    await client.start();
  });

  afterAll(async () => {
    await client?.close();
    await nc?.drain();
  });

  it('sends an idempotent call once more and answers within the deadline', async () => {
    const c = contract('read', true);
    flakyReplicas(c.subject);
    await nc.flush();
    const t = Date.now();
    await expect(client.call(c, { n: 21 })).resolves.toEqual({ n: 42 });
    expect(Date.now() - t).toBeLessThan(1000);
    expect(seen[c.subject]).toBe(2);
  });

  it('sends any other call once: TIMEOUT at the deadline, never a second delivery', async () => {
    const c = contract('write', false);
    flakyReplicas(c.subject);
    await nc.flush();
    const err = await client.call(c, { n: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcCallError);
    expect((err as RpcCallError).code).toBe(ErrorCode.ERROR_CODE_TIMEOUT);
    await new Promise((r) => setTimeout(r, 200));
    expect(seen[c.subject]).toBe(1);
  });

  it('answers UNAVAILABLE after one more try when no replica listens', async () => {
    const err = await client.call(contract('nobody', true), { n: 1 }).catch((e: unknown) => e);
    expect((err as RpcCallError).code).toBe(ErrorCode.ERROR_CODE_UNAVAILABLE);
  });
});
