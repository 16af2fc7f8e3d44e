/**
 * BullMQ is the tracking's safety net: one job per (order id, origin tx hash) (job id derived from
 * both, so adding it twice is a no-op). Each run is one `CrossChainTracker.step`; an order not yet
 * terminal is put back as a delayed job, due again after `pendingPollMs` (PENDING: a reverted
 * origin transaction logs no event) or `pollMs` (ONGOING: its fill or refund event normally wakes
 * it long before; the poll catches an event that was missed). Runs are short, so a slot is never
 * held while an order waits. A crashed worker's job is taken over once its lock lapses, and a sweep
 * re-queues every non-terminal row found in Postgres (at start and periodically), so a job lost
 * with Redis, or between the row's insert and the queue, resumes too.
 */
import { DelayedError, type Job, type JobsOptions } from 'bullmq';
import { SweptQueue } from '@tokensvc/queue';
import type { CrossChainOrderStore } from './cross-chain-order-store';
import type { CrossChainTracker } from './tracker';
import { isTerminal } from './transition';

export const TRACKING_QUEUE = 'cross-chain-tracking';

export interface TrackingQueueOptions {
  redisUrl: string;
  /** BullMQ key prefix (tests isolate themselves with their own) */
  prefix: string;
  /** pause between two steps of one ONGOING order (the safety net under its events) */
  pollMs: number;
  /** pause between two steps of one PENDING order */
  pendingPollMs: number;
  /** a job whose worker died is taken over after this long */
  lockMs: number;
  concurrency: number;
  /** open orders are re-queued from Postgres this often */
  sweepMs: number;
}

interface TrackJob {
  orderId: string;
  txHash: string;
}

/** BullMQ job ids may not contain ':'. */
export const trackingJobId = (orderId: string, txHash: string): string => `${orderId}_${txHash}`;

export class TrackingQueue extends SweptQueue<TrackJob> {
  constructor(
    private readonly tracker: CrossChainTracker,
    private readonly store: CrossChainOrderStore,
    private readonly o: TrackingQueueOptions,
    log?: (msg: string) => void,
  ) {
    super(
      {
        name: TRACKING_QUEUE,
        label: 'tracking',
        redisUrl: o.redisUrl,
        prefix: o.prefix,
        concurrency: o.concurrency,
        lockMs: o.lockMs,
        sweepMs: o.sweepMs,
      },
      log,
    );
  }

  /** Queues tracking of one order and transaction (idempotent). */
  async add(orderId: string, txHash: string): Promise<void> {
    await this.startedQueue().add('track', { orderId, txHash }, this.jobOptions(orderId, txHash));
  }

  async sweep(): Promise<void> {
    const queue = this.startedQueue();
    const open = await this.store.open();
    for (let i = 0; i < open.length; i += 500) {
      await queue.addBulk(
        open
          .slice(i, i + 500)
          .map((o) => ({ name: 'track', data: { orderId: o.orderId, txHash: o.txHash }, opts: this.jobOptions(o.orderId, o.txHash) })),
      );
    }
  }

  private jobOptions(orderId: string, txHash: string): JobsOptions {
    // A failing step (an RPC or Postgres error) is retried after the PENDING pause.
    return {
      jobId: trackingJobId(orderId, txHash),
      removeOnComplete: true,
      removeOnFail: 1_000,
      attempts: 1_000_000,
      backoff: { type: 'fixed', delay: this.o.pendingPollMs },
    };
  }

  protected async process(job: Job<TrackJob>, token: string | undefined): Promise<void> {
    const status = await this.tracker.step(job.data.orderId, job.data.txHash, 'poll');
    if (status === undefined || isTerminal(status)) return;
    // Spread over 0.5-1.5 times the pause: orders registered together must not all poll together.
    const pause = (status === 'PENDING' ? this.o.pendingPollMs : this.o.pollMs) * (0.5 + Math.random());
    await job.moveToDelayed(Date.now() + Math.round(pause), token);
    throw new DelayedError();
  }
}
