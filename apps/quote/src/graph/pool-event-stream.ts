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

export class PoolEventStream {
  private nc: NatsConnection | undefined;
  private messages: ConsumerMessages | undefined;
  private closed = false;
  private readonly decoder = new TextDecoder();
  /** events applied since start (metrics, tests) */
  received = 0;

  constructor(private readonly opts: PoolEventStreamOptions, private readonly log: (msg: string, extra?: Record<string, unknown>) => void) {}

  private async connection(): Promise<NatsConnection> {
    this.nc ??= await connect({ ...natsConnectOptions(this.opts.natsUrl), name: 'quote-pool-events', maxReconnectAttempts: -1, reconnectTimeWait: 250 });
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
        // One wildcard filter: servers before 2.10 have no multi-subject filters (an ordered
        // consumer asked for several never delivers there); other networks and kinds are skipped below.
        const filterSubjects = `${this.opts.subjectPrefix}.>`;
        const consumer = await js.consumers.get(
          this.opts.stream,
          afterSeq === undefined ? { filterSubjects, deliver_policy: DeliverPolicy.All } : { filterSubjects, deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: afterSeq + 1 },
        );
        this.messages = await consumer.consume();
        break;
      } catch (e) {
        // The indexer creates the stream; until it runs, say so now and then, not every retry.
        if (attempt % 30 === 0) this.log('pool event stream not available yet; retrying', { stream: this.opts.stream, error: (e as Error).message });
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
