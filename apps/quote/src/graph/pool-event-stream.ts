/**
 * The quote replica's view of the indexer's JetStream pool events. Each replica reads with its own
 * ordered consumer (no acks, nothing left behind when it goes away) from the stream sequence that
 * follows its database snapshot: the indexer commits before it publishes, so every event up to
 * that sequence is already in the snapshot, and replays after it are filtered by block position.
 */
import { DeliverPolicy, connect, type ConsumerMessages, type NatsConnection } from 'nats';
import { natsConnectOptions } from '@tokensvc/config';
import type { Network } from '@tokensvc/domain';
import { CHAIN_EVENT_SUBJECTS, IndexedHead, PoolStateChanged } from '@tokensvc/messages';

export interface PoolEventStreamOptions {
  natsUrl: string;
  stream: string;
  subjectPrefix: string;
  /** how often to look for the stream while the indexer has not created it yet */
  retryMs?: number;
}

/** pool: a pool state; head: the pool states before it (on that network) are the state at this block */
export interface PoolEventHandlers {
  pool(network: Network, event: PoolStateChanged): void;
  head(network: Network, head: IndexedHead): void;
}

/**
 * The ordered consumer that reads every event after `afterSeq` (from the first when undefined).
 * One wildcard filter: servers before 2.10 have no multi-subject filters (an ordered consumer
 * asked for several never delivers there); other networks and kinds are skipped by the reader.
 */
export function orderedConsumerOptions(
  subjectPrefix: string,
  afterSeq: number | undefined,
): { filterSubjects: string; deliver_policy: DeliverPolicy; opt_start_seq: number } {
  return { filterSubjects: `${subjectPrefix}.>`, deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: (afterSeq ?? 0) + 1 };
}

export class PoolEventStream {
  private nc: NatsConnection | undefined;
  private messages: ConsumerMessages | undefined;
  private closed = false;
  private readonly decoder = new TextDecoder();
  /** events applied since start (metrics, tests) */
  received = 0;

  constructor(
    private readonly opts: PoolEventStreamOptions,
    private readonly log: (msg: string, extra?: Record<string, unknown>) => void,
  ) {}

  private async connection(): Promise<NatsConnection> {
    this.nc ??= await connect({
      ...natsConnectOptions(this.opts.natsUrl),
      name: 'quote-pool-events',
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
    });
    return this.nc;
  }

  /** The stream's last sequence now, or undefined when the stream does not exist yet. */
  async lastSequence(): Promise<number | undefined> {
    const jsm = await (await this.connection()).jetstreamManager();
    try {
      return (await jsm.streams.info(this.opts.stream)).state.last_seq;
    } catch {
      return undefined;
    }
  }

  /**
   * Delivers every pool event after `afterSeq` (all of them when the stream did not exist at
   * snapshot time) for `networks`, in stream order, until close(). Resolves once consuming started.
   */
  async start(networks: readonly Network[], afterSeq: number | undefined, on: PoolEventHandlers): Promise<void> {
    const nc = await this.connection();
    const pools = new Map(networks.map((n) => [CHAIN_EVENT_SUBJECTS.poolState(n, this.opts.subjectPrefix), n]));
    const heads = new Map(networks.map((n) => [CHAIN_EVENT_SUBJECTS.indexedHead(n, this.opts.subjectPrefix), n]));
    const js = nc.jetstream();
    for (let attempt = 0; ; attempt++) {
      if (this.closed) return;
      try {
        // Always a start sequence, 1 when the stream did not exist at snapshot time: nats.js sends
        // its ordered consumer's first request with opt_start_seq set, which the server refuses
        // with DeliverPolicy.All, and then retries every 30 s for 15 minutes without a word
        // (measured: consume() never resolved; the graph stayed at its snapshot and quotes
        // found no pools). pool-event-stream.int-spec.ts covers both cases.
        const consumer = await js.consumers.get(this.opts.stream, orderedConsumerOptions(this.opts.subjectPrefix, afterSeq));
        this.messages = await consumer.consume();
        break;
      } catch (e) {
        // The indexer creates the stream; until it runs, say so now and then, not every retry.
        if (attempt % 30 === 0)
          this.log('pool event stream not available yet; retrying', { stream: this.opts.stream, error: (e as Error).message });
        await new Promise((r) => setTimeout(r, this.opts.retryMs ?? 2_000));
      }
    }
    const messages = this.messages;
    void (async () => {
      try {
        for await (const m of messages) {
          const poolNetwork = pools.get(m.subject);
          const headNetwork = heads.get(m.subject);
          if (!poolNetwork && !headNetwork) continue;
          try {
            const json: unknown = JSON.parse(this.decoder.decode(m.data));
            if (poolNetwork) on.pool(poolNetwork, PoolStateChanged.fromJSON(json));
            else if (headNetwork) on.head(headNetwork, IndexedHead.fromJSON(json));
            this.received++;
          } catch (e) {
            this.log('skipped an unreadable pool event', { subject: m.subject, seq: m.seq, error: (e as Error).message });
          }
        }
      } catch (e) {
        if (!this.closed) this.log('pool event consumer stopped', { error: (e as Error).message });
      }
    })();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.messages?.close();
    const nc = this.nc;
    this.nc = undefined;
    if (nc) await nc.drain();
  }
}
