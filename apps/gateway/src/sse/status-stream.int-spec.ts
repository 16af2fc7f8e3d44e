/**
 * The status stream's ordering guarantees, with a stand-in status tracker on a private
 * nats-server (JetStream) that publishes events at the awkward moments: an event published while
 * the stream reads the record is sent once after it; an event the record already contains is not
 * repeated; a gap in the feed is filled from the recorded events before the later one goes out;
 * the stream ends after the terminal event. Real gateway (HTTP, auth hook, limits, Redis, Postgres).
 */
import { get as httpGet, type IncomingMessage } from 'node:http';
import { connect, JSONCodec, nanos, type JetStreamClient, type NatsConnection } from 'nats';
import {
  CROSS_CHAIN_STATUS_STREAM_LIMITS,
  CROSS_CHAIN_STATUS_SUBJECTS,
  CrossChainStatusEvent,
  CrossChainStatusEventsReply,
  CrossChainStatusReply,
  RPC,
  STREAMS,
  type CrossChainStatusEventsRequest,
} from '@tokensvc/messages';
import { createTestDatabaseUrl, freePort, INFRA, PrivateNatsServer } from '@tokensvc/testing';
import { GatewayHarness } from '../../test/harness';
import { httpMetrics } from '../http/metrics';
import { DEFAULT_SSE_SETTINGS } from './sse-settings';
import { StatusStreams } from './status-stream';

const json = JSONCodec<unknown>();
const TX = (n: number): string => `0x${n.toString(16).padStart(64, '0')}`;
const ORDER = (n: number): string => `00000000-0000-4000-8000-${n.toString().padStart(12, '0')}`;

const record = (txHash: string, status: string, seq: number): CrossChainStatusReply =>
  CrossChainStatusReply.fromJSON({
    txHash,
    status,
    crossChainProvider: 'across',
    originTxHashes: [txHash],
    fromChainId: '1',
    toChainId: '8453',
    eventSeq: String(seq),
  });
const event = (orderId: string, txHash: string, seq: number, status: string): CrossChainStatusEvent => ({
  orderId,
  txHash,
  seq: String(seq),
  status,
  createdAt: new Date(1_700_000_000_000 + seq).toISOString(),
  record: record(txHash, status, seq),
});

/** Reads a whole event stream (until the server ends it) into its events. */
async function readAll(res: Response, timeoutMs = 20_000): Promise<Array<{ id: number; data: any }>> {
  let timer: NodeJS.Timeout | undefined;
  const text = await Promise.race([
    res.text(),
    new Promise<string>((_, reject) => (timer = setTimeout(() => reject(new Error('stream did not end')), timeoutMs))),
  ]).finally(() => clearTimeout(timer));
  return text
    .split('\n\n')
    .filter((b) => b.includes('data: '))
    .map((b) => ({ id: Number(/^id: (\d+)$/m.exec(b)![1]), data: JSON.parse(/^data: (.*)$/m.exec(b)![1]!) }));
}

describe('status stream ordering (gateway, stand-in tracker on JetStream)', () => {
  let nats: PrivateNatsServer;
  let gw: GatewayHarness;
  let nc: NatsConnection;
  let js: JetStreamClient;
  /** the stand-in's behaviour per order id */
  const scripts = new Map<string, (req: CrossChainStatusEventsRequest) => Promise<CrossChainStatusEventsReply>>();
  const calls: CrossChainStatusEventsRequest[] = [];

  const publish = async (e: CrossChainStatusEvent, msgID?: string): Promise<void> => {
    await js.publish(
      CROSS_CHAIN_STATUS_SUBJECTS.event(e.orderId, e.txHash),
      JSON.stringify(CrossChainStatusEvent.toJSON(e)),
      msgID ? { msgID } : undefined,
    );
  };

  beforeAll(async () => {
    nats = new PrivateNatsServer(await freePort());
    await nats.start();
    nc = await connect({ servers: nats.url });
    const jsm = await nc.jetstreamManager();
    await jsm.streams.add({
      name: STREAMS.crossChainStatus.name,
      subjects: ['cross-chain-status.>'],
      duplicate_window: nanos(CROSS_CHAIN_STATUS_STREAM_LIMITS.duplicateWindowMs),
    });
    js = nc.jetstream();
    const sub = nc.subscribe(RPC.crossChainStatusEvents.subject, { queue: 'status-tracker' });
    void (async () => {
      for await (const m of sub) {
        const packet = json.decode(m.data) as { id: string; data: unknown };
        const req = RPC.crossChainStatusEvents.request.fromJSON(packet.data);
        calls.push(req);
        const script = scripts.get(req.orderId);
        const rep = script ? await script(req) : undefined;
        m.respond(
          json.encode(
            rep
              ? { id: packet.id, response: RPC.crossChainStatusEvents.reply.toJSON(rep), isDisposed: true }
              : { id: packet.id, err: { code: 'ERROR_CODE_NOT_FOUND', message: `no cross-chain order ${req.orderId}` }, isDisposed: true },
          ),
        );
      }
    })();
    gw = await GatewayHarness.start({
      infra: { databaseUrl: createTestDatabaseUrl('gw_sse'), redisUrl: INFRA.redis, natsUrl: nats.url },
      options: { sse: { ...DEFAULT_SSE_SETTINGS, heartbeatMs: 200, resyncMs: 600_000 } },
    });
  });

  afterAll(async () => {
    await gw?.close();
    await nc?.close();
    await nats?.dispose();
  });

  const stream = (orderId: string, txHash: string, headers: Record<string, string> = {}): Promise<Response> =>
    gw.request(`/v3/portal/status/stream?orderId=${orderId}&txHash=${txHash}`, { headers });

  it('sends an event published while the record is read once, after the record', async () => {
    const [orderId, txHash] = [ORDER(1), TX(1)];
    scripts.set(orderId, async () => {
      // The transition commits and is published after the tracker read the row (PENDING, seq 0).
      await publish(event(orderId, txHash, 1, 'ONGOING'));
      await new Promise((r) => setTimeout(r, 300));
      return { record: record(txHash, 'PENDING', 0), events: [] };
    });
    const res = await stream(orderId, txHash);
    expect(res.status).toBe(200);
    const reading = readAll(res);
    await new Promise((r) => setTimeout(r, 600));
    await publish(event(orderId, txHash, 1, 'ONGOING')); // a re-publish without message id: not sent again
    await publish(event(orderId, txHash, 2, 'SUCCESS'));
    const got = await reading;
    expect(got.map((e) => [e.id, e.data.type, e.data.record.status])).toEqual([
      [0, 'status.current', 'PENDING'],
      [1, 'status.ongoing', 'ONGOING'],
      [2, 'status.success', 'SUCCESS'],
    ]);
    expect(got[1]!.data).toEqual({
      id: `${orderId}:${txHash}:1`,
      type: 'status.ongoing',
      seq: 1,
      orderId,
      txHash,
      createdAt: '2023-11-14T22:13:20.001Z',
      record: expect.objectContaining({ status: 'ONGOING', fromChainId: 1, toChainId: 8453 }),
    });
    expect(got[1]!.data.record).not.toHaveProperty('eventSeq');
  });

  it('does not repeat an event the record already contains', async () => {
    const [orderId, txHash] = [ORDER(2), TX(2)];
    scripts.set(orderId, async () => {
      await publish(event(orderId, txHash, 1, 'ONGOING'));
      await new Promise((r) => setTimeout(r, 300));
      return { record: record(txHash, 'ONGOING', 1), events: [] };
    });
    const res = await stream(orderId, txHash);
    const reading = readAll(res);
    await new Promise((r) => setTimeout(r, 600));
    await publish(event(orderId, txHash, 2, 'FAILED'));
    expect((await reading).map((e) => [e.id, e.data.type])).toEqual([
      [1, 'status.current'],
      [2, 'status.failed'],
    ]);
  });

  it('fills a gap in the feed from the recorded events before sending the later one', async () => {
    const [orderId, txHash] = [ORDER(3), TX(3)];
    const recorded = [event(orderId, txHash, 1, 'ONGOING'), event(orderId, txHash, 2, 'REFUND_STATUS')];
    scripts.set(orderId, async (req) => ({
      record: record(txHash, 'PENDING', 0),
      events: req.afterSeq === undefined ? [] : recorded.filter((e) => Number(e.seq) > Number(req.afterSeq)),
    }));
    const res = await stream(orderId, txHash);
    const reading = readAll(res);
    await new Promise((r) => setTimeout(r, 300));
    // seq 1 never reaches this gateway's feed; seq 2 does.
    await publish(recorded[1]!);
    expect((await reading).map((e) => [e.id, e.data.type])).toEqual([
      [0, 'status.current'],
      [1, 'status.ongoing'],
      [2, 'status.refund_status'],
    ]);
    expect(calls.filter((c) => c.orderId === orderId).map((c) => c.afterSeq)).toEqual([undefined, '0']);
  });

  it('keeps a quiet stream alive with comments and gives the subscription back when the client leaves', async () => {
    const [orderId, txHash] = [ORDER(4), TX(4)];
    scripts.set(orderId, async () => ({ record: record(txHash, 'PENDING', 0), events: [] }));
    // node:http rather than fetch: fetch's pool opens a spare connection that would hold the server's close.
    const req = httpGet(`${gw.baseUrl}/v3/portal/status/stream?orderId=${orderId}&txHash=${txHash}`, { agent: false });
    const res = await new Promise<IncomingMessage>((resolve, reject) => req.once('response', resolve).once('error', reject));
    expect(res.statusCode).toBe(200);
    let text = '';
    res.on('data', (c: Buffer) => (text += c.toString()));
    const until = Date.now() + 5_000;
    while (!text.includes(': keep-alive') && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(text).toMatch(/^retry: 3000\n\nid: 0\ndata: .*\n\n(: keep-alive\n\n)+$/s);
    const streams = gw.app.get(StatusStreams);
    const openGauge = async (): Promise<number | undefined> => (await httpMetrics.sseStreams.get()).values[0]?.value;
    expect(streams.size).toBe(1);
    expect(await openGauge()).toBe(1);
    req.destroy();
    const end = Date.now() + 5_000;
    while (streams.size > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    expect(streams.size).toBe(0);
    expect(await openGauge()).toBe(0);
  });

  it("answers the tracker's 404 before any event, as JSON", async () => {
    const res = await stream(ORDER(99), TX(99));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: `no cross-chain order ${ORDER(99)}`,
      code: 'not_found',
    });
  });
});
