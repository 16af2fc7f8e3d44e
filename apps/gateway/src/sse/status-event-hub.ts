/**
 * The gateway's one subscription to the status tracker's events: a JetStream ordered consumer on
 * every cross-chain status subject (from the stream's end at start), fanned out in memory to the
 * open SSE streams of the same (order, tx). Started on the first stream, not at boot. Ordered
 * consumers recreate themselves from the last stream sequence they delivered, so a NATS
 * reconnect loses nothing; should the consumer itself end, it is restarted and every open stream
 * is told to re-read what it may have missed.
 */
import { connect, DeliverPolicy, nanos, type ConsumerMessages, type NatsConnection } from 'nats';
import { natsConnectOptions } from '@tokensvc/config';
import { CROSS_CHAIN_STATUS_STREAM_LIMITS, CROSS_CHAIN_STATUS_SUBJECTS, CrossChainStatusEvent } from '@tokensvc/messages';
import { GatewayError } from '../http/errors';

export interface HubListener {
  /** an event of this (order, tx), in stream order */
  event(e: CrossChainStatusEvent): void;
  /** the feed was interrupted: re-read what may have been missed */
  resync(): void;
}

export class StatusEventHub {
  private readonly listeners = new Map<string, Set<HubListener>>();
  private starting: Promise<void> | undefined;
  private nc: NatsConnection | undefined;
  private messages: ConsumerMessages | undefined;
  private closed = false;
  private readonly decoder = new TextDecoder();

  constructor(
    private readonly natsUrl: string,
    private readonly stream: string,
    private readonly prefix: string,
    private readonly log: (msg: string) => void,
    /** stream replicas if the gateway creates it (JETSTREAM_REPLICAS) */
    private readonly replicas = 1,
  ) {}

  /** Resolves once events are being received; a 503 when NATS or the stream cannot be reached. */
  async ready(): Promise<void> {
    if (this.closed) throw new GatewayError(503, 'the gateway is shutting down');
    this.starting ??= this.start().catch((e: unknown) => {
      this.starting = undefined;
      throw new GatewayError(503, `status events unavailable (NATS JetStream: ${(e as Error).message}); retry shortly`);
    });
    return this.starting;
  }

  subscribe(orderId: string, txHash: string, l: HubListener): () => void {
    const key = `${orderId}:${txHash}`;
    let set = this.listeners.get(key);
    if (!set) this.listeners.set(key, (set = new Set()));
    set.add(l);
    return () => {
      set.delete(l);
      if (set.size === 0 && this.listeners.get(key) === set) this.listeners.delete(key);
    };
  }

  /** Open subscriptions (metrics, tests). */
  get size(): number {
    let n = 0;
    for (const s of this.listeners.values()) n += s.size;
    return n;
  }

  private async start(): Promise<void> {
    this.nc ??= await connect({
      ...natsConnectOptions(this.natsUrl),
      name: 'gateway-status-events',
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
      timeout: 2_000,
    });
    const jsm = await this.nc.jetstreamManager();
    let lastSeq: number;
    try {
      lastSeq = (await jsm.streams.info(this.stream)).state.last_seq;
    } catch {
      // The gateway may come up before any tracker: create the stream as the tracker would.
      const config = {
        name: this.stream,
        subjects: [`${this.prefix}.>`],
        duplicate_window: nanos(CROSS_CHAIN_STATUS_STREAM_LIMITS.duplicateWindowMs),
        max_age: nanos(CROSS_CHAIN_STATUS_STREAM_LIMITS.maxAgeMs),
        num_replicas: this.replicas,
      };
      lastSeq = (await jsm.streams.add(config).catch(() => jsm.streams.info(this.stream))).state.last_seq;
    }
    const consumer = await this.nc.jetstream().consumers.get(this.stream, {
      filterSubjects: CROSS_CHAIN_STATUS_SUBJECTS.all(this.prefix),
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: lastSeq + 1,
    });
    const messages = await consumer.consume();
    this.messages = messages;
    void this.pump(messages);
  }

  private async pump(messages: ConsumerMessages): Promise<void> {
    try {
      for await (const m of messages) {
        let e: CrossChainStatusEvent;
        try {
          e = CrossChainStatusEvent.fromJSON(JSON.parse(this.decoder.decode(m.data)));
        } catch (err) {
          this.log(`skipped an unreadable status event on ${m.subject}: ${(err as Error).message}`);
          continue;
        }
        const set = this.listeners.get(`${e.orderId}:${e.txHash}`);
        if (set) for (const l of [...set]) l.event(e);
      }
    } catch (err) {
      if (!this.closed) this.log(`status event consumer stopped: ${(err as Error).message}`);
    }
    if (this.closed) return;
    // Ended under us: start again, then let every open stream re-read what it missed.
    this.starting = undefined;
    this.messages = undefined;
    await new Promise((r) => setTimeout(r, 500));
    await this.ready().then(
      () => {
        for (const set of this.listeners.values()) for (const l of set) l.resync();
      },
      () => undefined,
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.messages?.close().catch(() => undefined);
    const nc = this.nc;
    this.nc = undefined;
    if (nc) await nc.drain().catch(() => nc.close());
  }
}
