/**
 * The relay of the status outbox: publishes every recorded status event to JetStream (subject
 * per order and tx, message id `<orderId>:<txHash>:<seq>`) and queues the webhooks of the orders
 * concerned. It runs on the transition's NOTIFY and every `pollMs` (a missed NOTIFY, a replica
 * that restarted, NATS or Redis back after an outage). Crash-safe: rows are marked only after
 * the work is done (see StatusEventStore.publishBatch / dispatchBatch). One replica publishes at
 * a time (an advisory lock), so the stream holds each order's events in seq order.
 */
import { Client } from 'pg';
import { connect, nanos, type JetStreamClient, type NatsConnection } from 'nats';
import { natsConnectOptions } from '@tokensvc/config';
import { CROSS_CHAIN_STATUS_STREAM_LIMITS, CROSS_CHAIN_STATUS_SUBJECTS, CrossChainStatusEvent } from '@tokensvc/messages';
import { statusEventId } from '@tokensvc/api';
import { STATUS_EVENTS_CHANNEL } from '../tracking/status-outbox';
import type { StatusEventStore } from './status-event-store';

export interface RelayOptions {
  databaseUrl: string;
  natsUrl: string;
  stream: string;
  prefix: string;
  pollMs: number;
  batch?: number;
  /** stream replicas when it is created (JETSTREAM_REPLICAS); default 1 */
  replicas?: number;
}

export class StatusOutboxRelay {
  private nc: NatsConnection | undefined;
  private js: JetStreamClient | undefined;
  private listener: Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private closed = false;
  private readonly encoder = new TextEncoder();
  /** events published by this replica (metrics, tests) */
  published = 0;

  constructor(
    private readonly store: StatusEventStore,
    private readonly o: RelayOptions,
    /** queues the delivery of these webhooks (WebhookQueue.add) */
    private readonly dispatch: (webhookIds: string[]) => Promise<void>,
    private readonly log: (msg: string) => void,
  ) {}

  /** Starts listening and polling; NATS is connected in the background (events wait in the outbox meanwhile). */
  async start(): Promise<void> {
    void this.connectNats();
    await this.listen();
    this.timer = setInterval(() => this.kick(), this.o.pollMs);
    this.timer.unref();
    this.kick();
  }

  /** Runs a pass now, or once more after the current one. */
  kick(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.kick();
      }
    });
  }

  /** Resolves once no pass is running (tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async pass(): Promise<void> {
    const batch = this.o.batch ?? 500;
    if (this.js) {
      try {
        while (!this.closed && (await this.store.publishBatch(batch, (events) => this.publish(events))) === batch);
      } catch (e) {
        this.log(`status events not published yet: ${(e as Error).message}`);
      }
    }
    try {
      while (!this.closed && (await this.store.dispatchBatch(batch, this.dispatch)) === batch);
    } catch (e) {
      this.log(`webhooks not queued yet: ${(e as Error).message}`);
    }
  }

  private async publish(events: { event: CrossChainStatusEvent }[]): Promise<void> {
    const js = this.js;
    if (!js) throw new Error('NATS is not connected');
    // Sent in order on one connection, awaited together: the stream keeps the send order.
    await Promise.all(
      events.map(({ event: e }) =>
        js.publish(
          CROSS_CHAIN_STATUS_SUBJECTS.event(e.orderId, e.txHash, this.o.prefix),
          this.encoder.encode(JSON.stringify(CrossChainStatusEvent.toJSON(e))),
          {
            msgID: statusEventId(e.orderId, e.txHash, Number(e.seq)),
          },
        ),
      ),
    );
    this.published += events.length;
  }

  private async connectNats(): Promise<void> {
    for (let attempt = 0; !this.closed; attempt++) {
      let nc: NatsConnection | undefined;
      try {
        nc = await connect({
          ...natsConnectOptions(this.o.natsUrl),
          name: 'status-tracker-outbox',
          maxReconnectAttempts: -1,
          reconnectTimeWait: 250,
        });
        if (this.closed) return void (await nc.close());
        const jsm = await nc.jetstreamManager();
        const config = {
          name: this.o.stream,
          subjects: [`${this.o.prefix}.>`],
          duplicate_window: nanos(CROSS_CHAIN_STATUS_STREAM_LIMITS.duplicateWindowMs),
          max_age: nanos(CROSS_CHAIN_STATUS_STREAM_LIMITS.maxAgeMs),
          num_replicas: this.o.replicas ?? 1,
        };
        try {
          await jsm.streams.info(this.o.stream);
        } catch {
          // Created here unless the gateway (or another replica) did in between.
          await jsm.streams.add(config).catch(async (e: unknown) => {
            await jsm.streams.info(this.o.stream).catch(() => Promise.reject(e));
          });
        }
        this.nc = nc;
        this.js = nc.jetstream();
        this.kick();
        return;
      } catch (e) {
        await nc?.close().catch(() => undefined);
        if (attempt % 30 === 0) this.log(`status event stream not available yet (retrying): ${(e as Error).message}`);
        await new Promise((r) => setTimeout(r, 1_000));
      }
    }
  }

  /** LISTEN on a connection of its own; on its loss, a new one (the poll covers the gap). */
  private async listen(): Promise<void> {
    if (this.closed) return;
    const client = new Client({ connectionString: this.o.databaseUrl, application_name: 'status-tracker-outbox' });
    client.on('notification', () => this.kick());
    client.on('error', (e) => {
      this.log(`outbox listener: ${e.message}`);
      if (this.listener === client) this.listener = undefined;
      void client.end().catch(() => undefined);
      setTimeout(() => void this.listen().catch(() => undefined), 1_000).unref();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${STATUS_EVENTS_CHANNEL}`);
      this.listener = client;
    } catch (e) {
      this.log(`outbox listener not connected: ${(e as Error).message}`);
      await client.end().catch(() => undefined);
      setTimeout(() => void this.listen().catch(() => undefined), 1_000).unref();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.idle();
    await this.listener?.end().catch(() => undefined);
    this.listener = undefined;
    const nc = this.nc;
    this.nc = undefined;
    this.js = undefined;
    if (nc) await nc.drain().catch(() => nc.close());
  }
}
