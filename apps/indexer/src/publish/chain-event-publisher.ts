import { connect, nanos, type JetStreamClient, type NatsConnection } from 'nats';
import { natsConnectOptions } from '@tokensvc/config';
import { BlockFinalized, CHAIN_EVENT_SUBJECTS, IndexedHead, PoolStateChanged } from '@tokensvc/messages';
import type { Network } from '@tokensvc/domain';

export interface PublisherOptions {
  natsUrl: string;
  stream: string;
  subjectPrefix: string;
  /** JetStream de-duplication window */
  duplicateWindowMs?: number;
  /** stream replicas when it is created (JETSTREAM_REPLICAS); default 1 */
  replicas?: number;
}

/**
 * JetStream side of the indexer: makes sure the stream exists, then publishes with message ids
 * so a re-send (after a crash between commit and publish) is dropped by the server.
 */
export class ChainEventPublisher {
  private nc: NatsConnection | undefined;
  private js: JetStreamClient | undefined;
  private readonly encoder = new TextEncoder();

  constructor(private readonly opts: PublisherOptions) {}

  async connect(): Promise<void> {
    const nc = await connect({
      ...natsConnectOptions(this.opts.natsUrl),
      name: 'indexer-events',
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
    });
    const jsm = await nc.jetstreamManager();
    const config = {
      name: this.opts.stream,
      subjects: [`${this.opts.subjectPrefix}.>`],
      duplicate_window: nanos(this.opts.duplicateWindowMs ?? 120_000),
      num_replicas: this.opts.replicas ?? 1,
    };
    try {
      await jsm.streams.info(this.opts.stream);
    } catch {
      try {
        await jsm.streams.add(config);
      } catch (e) {
        // Another replica created it in between.
        await jsm.streams.info(this.opts.stream).catch(() => {
          throw e;
        });
      }
    }
    this.nc = nc;
    this.js = nc.jetstream();
  }

  /** Publishes; resolves once JetStream stored it (or recognised the id as a duplicate). */
  async poolState(network: Network, msg: PoolStateChanged, msgID: string): Promise<void> {
    await this.publish(CHAIN_EVENT_SUBJECTS.poolState(network, this.opts.subjectPrefix), PoolStateChanged.toJSON(msg), msgID);
  }

  async blockFinalized(network: Network, msg: BlockFinalized, msgID: string): Promise<void> {
    await this.publish(CHAIN_EVENT_SUBJECTS.blockFinalized(network, this.opts.subjectPrefix), BlockFinalized.toJSON(msg), msgID);
  }

  /** After the pool states of a publishing run: they are the state at this block. */
  async indexedHead(network: Network, msg: IndexedHead, msgID: string): Promise<void> {
    await this.publish(CHAIN_EVENT_SUBJECTS.indexedHead(network, this.opts.subjectPrefix), IndexedHead.toJSON(msg), msgID);
  }

  private async publish(subject: string, json: unknown, msgID: string): Promise<void> {
    if (!this.js) throw new Error('publisher is not connected');
    await this.js.publish(subject, this.encoder.encode(JSON.stringify(json)), { msgID });
  }

  async close(): Promise<void> {
    const nc = this.nc;
    this.nc = undefined;
    this.js = undefined;
    if (nc) await nc.drain();
  }
}
