/**
 * BullMQ drives the relaying: one job per submitted order (job id = order id, so adding it twice
 * is a no-op) that calls `Relayer.advance` until the order is final. A crashed worker's job is
 * picked up again once its lock lapses, and a sweep re-queues every open submission found in
 * Postgres (at start and periodically), so work lost between the commit and the queue resumes too.
 */
import { redisConnectionOptions } from '@tokensvc/config';
import { Queue, Worker, type ConnectionOptions, type Job, type JobsOptions } from 'bullmq';
import type { Relayer } from './relayer';

export const RELAY_QUEUE = 'signed-order-relay';

export interface RelayQueueOptions {
  redisUrl: string;
  /** BullMQ key prefix (tests isolate themselves with their own) */
  prefix: string;
  /** pause between two tracking steps of one order */
  pollMs: number;
  /** a job whose worker died is taken over after this long */
  lockMs: number;
  concurrency: number;
  /** open submissions are re-queued from Postgres this often */
  sweepMs: number;
}

function connection(url: string): ConnectionOptions {
  // the password decoded (REDIS_PASSWORD is folded into the URL percent-encoded)
  return { ...redisConnectionOptions(url), maxRetriesPerRequest: null };
}

export class RelayQueue {
  private queue?: Queue;
  private worker?: Worker;
  private sweeper?: NodeJS.Timeout;
  private closing = false;

  constructor(
    private readonly relayer: Relayer,
    private readonly o: RelayQueueOptions,
    private readonly log: (msg: string) => void = () => undefined,
  ) {
    relayer.onSubmitted((orderId) => void this.add(orderId).catch((e: Error) => this.log(`queueing ${orderId}: ${e.message}; the sweep picks it up`)));
  }

  async start(): Promise<void> {
    this.queue = new Queue(RELAY_QUEUE, { connection: connection(this.o.redisUrl), prefix: this.o.prefix });
    this.worker = new Worker(RELAY_QUEUE, (job: Job<{ orderId: string }>) => this.track(job.data.orderId), {
      connection: connection(this.o.redisUrl),
      prefix: this.o.prefix,
      concurrency: this.o.concurrency,
      lockDuration: this.o.lockMs,
      stalledInterval: Math.max(500, Math.floor(this.o.lockMs / 2)),
      maxStalledCount: 1_000,
    });
    this.worker.on('failed', (job, e) => this.log(`relay job ${job?.id ?? '?'} failed: ${e.message}`));
    this.worker.on('error', (e) => this.log(`relay worker: ${e.message}`));
    // The chain may have lost transactions while we were stopped (a reloaded devnet, a resynced node).
    await this.relayer.reconcile().catch((e: Error) => this.log(`relayer nonce reconciliation: ${e.message}; retried when a transaction waits behind a gap`));
    await this.sweep();
    this.sweeper = setInterval(() => void this.sweep().catch((e: Error) => this.log(`relay sweep: ${e.message}`)), this.o.sweepMs);
    this.sweeper.unref();
  }

  /** Queues tracking of one order (idempotent). */
  async add(orderId: string): Promise<void> {
    await this.queue?.add('track', { orderId }, this.jobOptions(orderId));
  }

  private jobOptions(orderId: string): JobsOptions {
    return { jobId: orderId, removeOnComplete: true, removeOnFail: 1_000, attempts: 1_000, backoff: { type: 'fixed', delay: this.o.pollMs * 5 } };
  }

  async sweep(): Promise<void> {
    const ids = await this.relayer.openOrders();
    if (ids.length > 0) await this.queue?.addBulk(ids.map((orderId) => ({ name: 'track', data: { orderId }, opts: this.jobOptions(orderId) })));
  }

  private async track(orderId: string): Promise<void> {
    const started = Date.now();
    while (!this.closing) {
      if (await this.relayer.advance(orderId)) return;
      // Give the job back now and then so a long-pending order does not hold a slot forever.
      if (Date.now() - started > 5 * 60_000) throw new Error(`order ${orderId} still pending after 5 minutes; retrying`);
      await new Promise((r) => setTimeout(r, this.o.pollMs));
    }
    throw new Error('relay worker closing');
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.sweeper) clearInterval(this.sweeper);
    await this.worker?.close();
    await this.queue?.close();
  }
}
