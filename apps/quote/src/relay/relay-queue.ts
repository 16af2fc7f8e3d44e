/**
 * BullMQ drives the relaying: one job per submitted order (job id = order id, so adding it twice
 * is a no-op) that calls `Relayer.advance` until the order is final. A crashed worker's job is
 * picked up again once its lock lapses, and a sweep re-queues every open submission found in
 * Postgres (at start and periodically), so work lost between the commit and the queue resumes too.
 */
import type { Job, JobsOptions } from 'bullmq';
import { SweptQueue } from '@tokensvc/queue';
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

export class RelayQueue extends SweptQueue<{ orderId: string }> {
  constructor(
    private readonly relayer: Relayer,
    private readonly o: RelayQueueOptions,
    log?: (msg: string) => void,
  ) {
    super(
      {
        name: RELAY_QUEUE,
        label: 'relay',
        redisUrl: o.redisUrl,
        prefix: o.prefix,
        concurrency: o.concurrency,
        lockMs: o.lockMs,
        sweepMs: o.sweepMs,
        logFailuresWhileClosing: true,
      },
      log,
    );
    relayer.onSubmitted(
      (orderId) => void this.add(orderId).catch((e: Error) => this.log(`queueing ${orderId}: ${e.message}; the sweep picks it up`)),
    );
  }

  /** The chain may have lost transactions while we were stopped (a reloaded devnet, a resynced node). */
  protected override async beforeFirstSweep(): Promise<void> {
    await this.relayer
      .reconcile()
      .catch((e: Error) => this.log(`relayer nonce reconciliation: ${e.message}; retried when a transaction waits behind a gap`));
  }

  /** Queues tracking of one order (idempotent). */
  async add(orderId: string): Promise<void> {
    await this.queue?.add('track', { orderId }, this.jobOptions(orderId));
  }

  private jobOptions(orderId: string): JobsOptions {
    return {
      jobId: orderId,
      removeOnComplete: true,
      removeOnFail: 1_000,
      attempts: 1_000,
      backoff: { type: 'fixed', delay: this.o.pollMs * 5 },
    };
  }

  async sweep(): Promise<void> {
    const ids = await this.relayer.openOrders();
    if (ids.length > 0)
      await this.queue?.addBulk(ids.map((orderId) => ({ name: 'track', data: { orderId }, opts: this.jobOptions(orderId) })));
  }

  protected async process(job: Job<{ orderId: string }>): Promise<void> {
    const { orderId } = job.data;
    const started = Date.now();
    while (!this.closing) {
      if (await this.relayer.advance(orderId)) return;
      // Give the job back now and then so a long-pending order does not hold a slot forever.
      if (Date.now() - started > 5 * 60_000) throw new Error(`order ${orderId} still pending after 5 minutes; retrying`);
      await new Promise((r) => setTimeout(r, this.o.pollMs));
    }
    throw new Error('relay worker closing');
  }
}
