/**
 * Runs one NetworkFollower per bridge network and turns its batches into work: new tracking rows
 * get their BullMQ job (the safety net), and every open order an event concerns is advanced at once
 * (`CrossChainTracker.advance(..., 'event')`, a bounded number at a time). A batch's wakes finish
 * before the next read, so a burst of events cannot pile up unbounded work.
 *
 * One replica follows a network at a time: the follower holds a session-level Postgres advisory
 * lock per network on its own connection (released when the process dies, even by SIGKILL); other
 * replicas retry every few seconds and take over. Cursor writes are compare-and-set besides, so a
 * replica that lost its lock without noticing cannot move a cursor backwards or write a batch twice.
 * When a follower (re)starts, it first wakes the open orders that have a stored event they have not
 * acted on: the wakes a crash between a batch's commit and its wakes would otherwise leave to the
 * safety-net poll.
 */
import { Client } from 'pg';
import type { BridgeProvider } from '@tokensvc/bridge';
import { ChainReader, type JsonRpcClient } from '@tokensvc/chain';
import { NETWORK_INFO, type Network } from '@tokensvc/domain';
import { TRACKER_METRICS } from '../metrics';
import type { CrossChainTracker } from '../tracking/tracker';
import type { BridgeEventStore, OrderKey } from './bridge-event-store';
import { type FollowerBatch, NetworkFollower } from './network-follower';
import type { QuoteMatcher } from './quote-matcher';

export interface EventFollowingOptions {
  databaseUrl: string;
  /** logs are read this many blocks below the head */
  confirmations: number;
  /** a network followed for the first time is read from this many blocks below its head */
  startBlocks: number;
  /** pause between two reads once at the head (and after an error) */
  followMs: number;
  /** orders advanced at once after a batch */
  wakeConcurrency: number;
}

export type FollowingLog = (level: 'warn' | 'error', msg: string) => void;

const LEADER_RETRY_MS = 5_000;
const PRUNE_EVERY_MS = 3_600_000;

/** Another replica follows the network (or none does while this one stops): its gauges are not ours to report. */
function forgetFollowerGauges(network: Network): void {
  for (const g of [TRACKER_METRICS.followerHead, TRACKER_METRICS.followerCursor, TRACKER_METRICS.followerLag]) g.remove({ network });
}

async function mapLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

export class BridgeEventFollowing {
  private stopping = false;
  private loops: Array<Promise<void>> = [];
  private readonly wakeups = new Set<() => void>();
  private lockClient: Promise<Client> | undefined;
  /** the lock connection's statements, one at a time: every network's loop shares it */
  private lockStatements: Promise<unknown> = Promise.resolve();
  private readonly held = new Set<Network>();
  private pruner?: NodeJS.Timeout;

  readonly followers: readonly NetworkFollower[];

  constructor(
    /** the networks to follow (the provider's), each with its RPC client */
    networks: ReadonlyArray<{ network: Network; rpc: JsonRpcClient }>,
    provider: BridgeProvider,
    matcher: QuoteMatcher,
    private readonly store: BridgeEventStore,
    private readonly tracker: CrossChainTracker,
    /** queues the safety-net job of a row the follower created (TrackingQueue.add) */
    private readonly enqueue: (orderId: string, txHash: string) => Promise<void>,
    private readonly o: EventFollowingOptions,
    private readonly log: FollowingLog = () => undefined,
  ) {
    this.followers = networks.map(
      (n) =>
        new NetworkFollower(
          n.network,
          provider,
          new ChainReader(n.rpc),
          store,
          matcher,
          { confirmations: o.confirmations, startBlocks: o.startBlocks, maxRange: NETWORK_INFO[n.network].maxLogRange },
          (b) => this.onBatch(b),
          log,
        ),
    );
  }

  follower(network: Network): NetworkFollower | undefined {
    return this.followers.find((f) => f.network === network);
  }

  /** True while this process follows `network`. */
  leads(network: Network): boolean {
    return this.held.has(network);
  }

  start(): void {
    this.stopping = false;
    this.loops = this.followers.map((f) => this.loop(f));
    const prune = (): void => void this.store.prune().catch((e: Error) => this.log('warn', `pruning bridge events: ${e.message}`));
    prune();
    this.pruner = setInterval(prune, PRUNE_EVERY_MS);
    this.pruner.unref();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.pruner) clearInterval(this.pruner);
    for (const w of this.wakeups) w();
    await Promise.all(this.loops);
    this.loops = [];
    for (const f of this.followers) forgetFollowerGauges(f.network);
    this.held.clear();
    const c = this.lockClient;
    this.lockClient = undefined;
    await c?.then((client) => client.end()).catch(() => undefined);
  }

  /** What a batch means for the orders: jobs for new rows, then one step of each order concerned. */
  async onBatch(b: FollowerBatch): Promise<void> {
    for (const k of b.created)
      await this.enqueue(k.orderId, k.txHash).catch((e: Error) =>
        this.log('warn', `queueing ${k.orderId}/${k.txHash}: ${e.message} (the sweep retries)`),
      );
    await this.wake(b.wake);
  }

  private async wake(keys: readonly OrderKey[]): Promise<void> {
    const unique = [...new Map(keys.map((k) => [`${k.orderId}_${k.txHash}`, k])).values()];
    await mapLimit(unique, this.o.wakeConcurrency, async (k) => {
      // A failed step is not lost: the order's job looks again (safety net).
      await this.tracker
        .advance(k.orderId, k.txHash, 'event')
        .catch((e: Error) => this.log('warn', `advancing ${k.orderId}/${k.txHash} on an event: ${e.message}`));
    });
  }

  private async loop(f: NetworkFollower): Promise<void> {
    while (!this.stopping) {
      try {
        if (!this.held.has(f.network)) {
          if (!(await this.tryLead(f.network))) {
            forgetFollowerGauges(f.network);
            await this.pause(Math.max(LEADER_RETRY_MS, this.o.followMs));
            continue;
          }
          f.reset();
          await this.wake(await this.store.openOrdersWithEvents(f.network));
        }
        const r = await f.tick();
        if (r === 'idle' || r === 'retry') await this.pause(this.o.followMs);
      } catch (e) {
        TRACKER_METRICS.followerErrors.inc({ network: f.network });
        if (!this.stopping) this.log('warn', `bridge follower ${f.network}: ${(e as Error).message}`);
        await this.pause(this.o.followMs);
      }
    }
  }

  private async tryLead(network: Network): Promise<boolean> {
    this.lockClient ??= this.connectLockClient();
    const client = await this.lockClient.catch((e: unknown) => {
      this.lockClient = undefined;
      throw e;
    });
    const run = this.lockStatements.then(() =>
      client.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(hashtext($1)) AS ok`, [`status-tracker:follow:${network}`]),
    );
    this.lockStatements = run.catch(() => undefined);
    const { rows } = await run;
    if (rows[0]?.ok) this.held.add(network);
    return this.held.has(network);
  }

  private async connectLockClient(): Promise<Client> {
    const c = new Client({ connectionString: this.o.databaseUrl, application_name: 'status-tracker-follow' });
    c.on('error', (e) => {
      // The session, and every lock with it, is gone: follow nothing until the locks are taken again.
      this.log('warn', `bridge follower lock connection: ${e.message}`);
      this.lockClient = undefined;
      this.held.clear();
    });
    await c.connect();
    return c;
  }

  private pause(ms: number): Promise<void> {
    if (this.stopping) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(t);
        this.wakeups.delete(done);
        resolve();
      };
      const t = setTimeout(done, ms);
      this.wakeups.add(done);
    });
  }
}
