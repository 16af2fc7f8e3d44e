/**
 * BullMQ drives the tracking: one job per (order id, origin tx hash) (job id derived from both, so
 * adding it twice is a no-op) that calls `CrossChainTracker.advance` until the order is terminal.
 * A crashed worker's job is taken over once its lock lapses, and a sweep re-queues every
 * non-terminal row found in Postgres (at start and periodically), so a job lost with Redis, or
 * between the row's insert and the queue, resumes too.
 */
import { Queue, Worker, type ConnectionOptions, type Job } from 'bullmq';
import type { CrossChainOrderStore } from './cross-chain-order-store';
import type { CrossChainTracker } from './tracker';

export const TRACKING_QUEUE = 'cross-chain-tracking';

export interface TrackingQueueOptions {
  redisUrl: string;
  /** BullMQ key prefix (tests isolate themselves with their own) */
  prefix: string;
  /** pause between two tracking steps of one order */
  pollMs: number;
  /** a job whose worker died is taken over after this long */
  lockMs: number;
  concurrency: number;
  /** open orders are re-queued from Postgres this often */
  sweepMs: number;
  /** a job gives its slot back after this long and is retried (long waits for a deadline) */
  sliceMs: number;
}

interface TrackJob {
  orderId: string;
  txHash: string;
}

function connection(url: string): ConnectionOptions {
  const u = new URL(url);
  return { host: u.hostname, port: Number(u.port) || 6379, password: u.password || undefined, db: Number(u.pathname.slice(1)) || 0, maxRetriesPerRequest: null };
}

/** BullMQ job ids may not contain ':'. */
export const trackingJobId = (orderId: string, txHash: string): string => `${orderId}_${txHash}`;

export class TrackingQueue {
  private queue?: Queue;
  private worker?: Worker;
  private sweeper?: NodeJS.Timeout;
  private closing = false;

  constructor(
    private readonly tracker: CrossChainTracker,
    private readonly store: CrossChainOrderStore,
    private readonly o: TrackingQueueOptions,
    private readonly log: (msg: string) => void = () => undefined,
  ) {}

  async start(): Promise<void> {
    this.queue = new Queue(TRACKING_QUEUE, { connection: connection(this.o.redisUrl), prefix: this.o.prefix });
    this.worker = new Worker(TRACKING_QUEUE, (job: Job<TrackJob>) => this.track(job.data), {
      connection: connection(this.o.redisUrl),
      prefix: this.o.prefix,
      concurrency: this.o.concurrency,
      lockDuration: this.o.lockMs,
      stalledInterval: Math.max(500, Math.floor(this.o.lockMs / 2)),
      maxStalledCount: 1_000,
    });
    this.worker.on('failed', (job, e) => {
      if (!this.closing) this.log(`tracking job ${job?.id ?? '?'} failed: ${e.message}`);
    });
    this.worker.on('error', (e) => this.log(`tracking worker: ${e.message}`));
    await this.sweep();
    this.sweeper = setInterval(() => void this.sweep().catch((e: Error) => this.log(`tracking sweep: ${e.message}`)), this.o.sweepMs);
    this.sweeper.unref();
  }

  /** Queues tracking of one order and transaction (idempotent). */
  async add(orderId: string, txHash: string): Promise<void> {
    if (!this.queue) throw new Error('the tracking queue is not started');
    await this.queue.add('track', { orderId, txHash }, { jobId: trackingJobId(orderId, txHash), removeOnComplete: true, removeOnFail: 1_000, attempts: 1_000_000, backoff: { type: 'fixed', delay: this.o.pollMs } });
  }

  async sweep(): Promise<void> {
    for (const o of await this.store.open()) await this.add(o.orderId, o.txHash);
  }

  async counts(): Promise<Record<string, number>> {
    return (await this.queue?.getJobCounts()) ?? {};
  }

  private async track(job: TrackJob): Promise<void> {
    const started = Date.now();
    while (!this.closing) {
      if (await this.tracker.advance(job.orderId, job.txHash)) return;
      // Give the slot back now and then: an order waiting for its deadline must not starve others.
      if (Date.now() - started > this.o.sliceMs) throw new Error(`order ${job.orderId}/${job.txHash} not terminal after ${this.o.sliceMs} ms; retrying`);
      await new Promise((r) => setTimeout(r, this.o.pollMs));
    }
    throw new Error('tracking worker closing');
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.sweeper) clearInterval(this.sweeper);
    await this.worker?.close();
    await this.queue?.close();
  }
}
