/**
 * GET /v3/portal/status/stream: one cross-chain order's status as Server-Sent Events.
 *
 * No transition may be lost between reading the record and following the events, so a stream
 * subscribes first (to the hub's JetStream feed), then reads the record and its sequence from the
 * status tracker, then applies buffered and live events whose seq is above what it sent. A gap
 * (an event with seq above the next expected one) is filled from the tracker's recorded events
 * before the event goes out, and every `resyncMs` the stream re-reads them anyway, so each
 * transition is sent once, in order, whatever the feed does. Event ids are the per-order seq, so
 * Last-Event-ID resumes exactly after the last event a client saw. The stream ends after a
 * terminal status; a resume with nothing left to send on a terminal order answers 204.
 */
import { PassThrough } from 'node:stream';
import { statusEventId, transitionEventType, type Endpoints, type ParsedQuery, type StatusEvent } from '@tokensvc/api';
import { RPC, type CrossChainStatusEvent, type CrossChainStatusReply } from '@tokensvc/messages';
import type { NatsRpcClient } from '@tokensvc/transport';
import { callerIdentity, type CallContext } from '../api/call-context';
import { crossChainStatusBody } from '../api/trading-forwarding';
import { GatewayError } from '../http/errors';
import { httpMetrics } from '../http/metrics';
import { ClientSlots } from './client-slots';
import { lastEventId, sseComment, sseEvent, sseRetry } from './sse-format';
import type { SseSettings } from './sse-settings';
import type { StatusEventHub } from './status-event-hub';

type Query = ParsedQuery<Endpoints['crossChainStatusStream']['query']>;

const TERMINAL = new Set(['SUCCESS', 'REFUND_STATUS', 'FAILED']);

/** One open stream: what it sent, and the serial queue every write goes through. */
class StatusStream {
  readonly out = new PassThrough();
  private lastSent = -1;
  /** events received before the record was read; undefined once live */
  private buffered: CrossChainStatusEvent[] | undefined = [];
  private chain: Promise<void> = Promise.resolve();
  private ended = false;
  private unsubscribe: () => void = () => undefined;
  private timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly orderId: string,
    private readonly txHash: string,
    private readonly rpc: NatsRpcClient,
    private readonly onEnd: () => void,
  ) {}

  /** Subscribes, then reads the record (errors here are the request's: 400, 404, 503, 504). */
  async open(hub: StatusEventHub, resumeAfter: number | undefined): Promise<'streaming' | 'nothing-left'> {
    this.unsubscribe = hub.subscribe(this.orderId, this.txHash, {
      event: (e) => this.received(e),
      resync: () => this.serial(() => this.fill()),
    });
    const snap = await this.rpc.call(RPC.crossChainStatusEvents, {
      orderId: this.orderId,
      txHash: this.txHash,
      afterSeq: resumeAfter === undefined ? undefined : String(resumeAfter),
    });
    const record = snap.record;
    if (!record) throw new GatewayError(503, 'the status tracker answered without a record; retry shortly');
    const seq = Number(record.eventSeq);
    this.out.write(sseRetry(3_000));
    if (resumeAfter === undefined) {
      this.out.write(sseEvent(seq, this.envelope(seq, 'status.current', new Date().toISOString(), record)));
      this.lastSent = seq;
    } else {
      this.lastSent = resumeAfter;
      const sent = snap.events.filter((e) => this.write(e)).length;
      if (sent === 0 && TERMINAL.has(record.status) && this.lastSent >= seq) return 'nothing-left';
    }
    if (TERMINAL.has(record.status) && this.lastSent >= seq) this.end();
    else {
      const early = this.buffered ?? [];
      this.buffered = undefined;
      for (const e of early) this.received(e);
    }
    return 'streaming';
  }

  /** Heartbeat comments and the periodic re-read. */
  keepAlive(heartbeatMs: number, resyncMs: number): void {
    if (this.ended) return;
    this.timers.push(setInterval(() => this.out.write(sseComment('keep-alive')), heartbeatMs));
    this.timers.push(setInterval(() => this.serial(() => this.fill()), resyncMs));
  }

  private received(e: CrossChainStatusEvent): void {
    if (this.buffered) this.buffered.push(e);
    else this.serial(() => this.apply(e));
  }

  private serial(step: () => Promise<void> | void): void {
    this.chain = this.chain.then(step).catch(() => undefined);
  }

  private async apply(e: CrossChainStatusEvent): Promise<void> {
    const seq = Number(e.seq);
    if (this.ended || seq <= this.lastSent) return;
    if (seq > this.lastSent + 1) await this.fill(); // a gap: the recorded events come first
    this.write(e);
  }

  /** The recorded events after the last one sent (a failed read waits for the next try). */
  private async fill(): Promise<void> {
    if (this.ended || this.buffered) return;
    const snap = await this.rpc.call(RPC.crossChainStatusEvents, {
      orderId: this.orderId,
      txHash: this.txHash,
      afterSeq: String(this.lastSent),
    });
    for (const e of snap.events) this.write(e);
  }

  /** Sends `e` if it is the next one; true when sent. */
  private write(e: CrossChainStatusEvent): boolean {
    const seq = Number(e.seq);
    if (this.ended || seq !== this.lastSent + 1 || !e.record) return false;
    this.out.write(sseEvent(seq, this.envelope(seq, transitionEventType(e.status), e.createdAt, e.record)));
    this.lastSent = seq;
    if (TERMINAL.has(e.status)) this.end();
    return true;
  }

  private envelope(seq: number, type: StatusEvent['type'], createdAt: string, record: CrossChainStatusReply): StatusEvent {
    return {
      id: statusEventId(this.orderId, this.txHash, seq),
      type,
      seq,
      orderId: this.orderId,
      txHash: this.txHash,
      createdAt,
      record: crossChainStatusBody(record),
    };
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    for (const t of this.timers) clearInterval(t);
    this.unsubscribe();
    this.out.end();
    this.onEnd();
  }
}

/** When a client refused a stream for the bounds may try again: streams end as their orders settle, so a few seconds. */
export const STREAM_RETRY_AFTER_S = 5;

/** The served handler of the stream, its per-client bounds, and the open streams (ended on shutdown). */
export class StatusStreams {
  private readonly slots: ClientSlots;
  private readonly open = new Set<StatusStream>();

  constructor(
    private readonly hub: StatusEventHub,
    private readonly s: SseSettings,
  ) {
    this.slots = new ClientSlots(s.maxPerClient, s.maxTotal);
  }

  get size(): number {
    return this.open.size;
  }

  readonly handler = async (q: Query, ctx: CallContext): Promise<StatusEvent> => {
    const resume = lastEventId(ctx.req.headers['last-event-id'], q.lastEventId);
    if (!resume.ok) throw new GatewayError(400, resume.message);
    // anonymous streams per client: an IPv6 client is its whole prefix, not each of its addresses
    const slot = this.slots.take(callerIdentity(ctx));
    if ('refused' in slot) {
      // A 429 says when to come back (RFC 9110 retry-after), as the rate limiter's do.
      void ctx.reply.header('retry-after', String(STREAM_RETRY_AFTER_S));
      throw new GatewayError(429, `${slot.refused} (retry in ${STREAM_RETRY_AFTER_S} s)`);
    }
    const stream = new StatusStream(q.orderId.toLowerCase(), q.txHash, ctx.rpc, () => {
      this.open.delete(stream);
      httpMetrics.sseStreams.dec();
      slot.release();
    });
    this.open.add(stream);
    httpMetrics.sseStreams.inc();
    let state: 'streaming' | 'nothing-left';
    try {
      await this.hub.ready();
      state = await stream.open(this.hub, resume.value);
    } catch (e) {
      stream.end();
      throw e;
    }
    if (state === 'nothing-left') {
      stream.end();
      // An EventSource stops reconnecting on 204: the order is terminal and the client has it all.
      void ctx.reply.code(204).send();
      return ctx.reply as unknown as StatusEvent;
    }
    // The client may have gone while the record was read ('close' already emitted).
    if (ctx.reply.raw.destroyed || ctx.req.raw.socket?.destroyed || ctx.req.method === 'HEAD') stream.end();
    ctx.reply.raw.on('close', () => stream.end());
    stream.out.on('close', () => stream.end());
    stream.keepAlive(this.s.heartbeatMs, this.s.resyncMs);
    void ctx.reply
      .header('content-type', 'text/event-stream; charset=utf-8')
      .header('cache-control', 'no-cache, no-store')
      .header('x-accel-buffering', 'no');
    // Fastify sends a stream as it is written (the declared type is that of each event's data).
    return stream.out as unknown as StatusEvent;
  };

  /** Ends every open stream (gateway shutdown: the HTTP server waits for open responses). */
  close(): void {
    for (const s of [...this.open]) s.end();
  }
}
