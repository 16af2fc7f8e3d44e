/**
 * The shape of the services' BullMQ queues: one queue and one worker on it, and a sweeper that
 * re-queues, at start and every `sweepMs`, whatever the database says is still open (work lost
 * with Redis, or between a commit and the queue, resumes too). A subclass names its jobs and their
 * options, runs one job (`process`) and says what a sweep re-queues (`sweep`); this class owns the
 * lifecycle: `start` opens the queue, then the worker, runs the first sweep and arms the sweeper;
 * `close` stops the sweeper, then the worker (its running jobs see `closing`), then the queue.
 */
import { Queue, Worker, type Job } from 'bullmq';
import { bullConnection, bullWorkerOptions, type WorkerSettings } from './bull-options';

export interface SweptQueueSettings extends WorkerSettings {
  /** the BullMQ queue name */
  name: string;
  /** the word that starts its log lines ("webhook" gives "webhook worker: ...") */
  label: string;
  /** open work is re-queued from the database this often */
  sweepMs: number;
  /** also log jobs that fail while the worker is closing (an interrupted job fails then) */
  logFailuresWhileClosing?: boolean;
}

export abstract class SweptQueue<T> {
  private bull?: Queue;
  private worker?: Worker;
  private sweeper?: NodeJS.Timeout;
  private stopping = false;

  protected constructor(
    private readonly settings: SweptQueueSettings,
    protected readonly log: (msg: string) => void = () => undefined,
  ) {}

  /** Runs one job; `token` is the worker's lock token, for `job.moveToDelayed`. */
  protected abstract process(job: Job<T>, token: string | undefined): Promise<void>;

  /** Re-queues every open item; run at start and every `sweepMs`. */
  abstract sweep(): Promise<void>;

  /** Runs once at start, after the worker is up and before the first sweep. */
  protected beforeFirstSweep(): Promise<void> {
    return Promise.resolve();
  }

  /** The queue once started (before, or with no Redis: undefined). */
  protected get queue(): Queue | undefined {
    return this.bull;
  }

  /** The queue, or an error when it is not started. */
  protected startedQueue(): Queue {
    if (!this.bull) throw new Error(`the ${this.settings.label} queue is not started`);
    return this.bull;
  }

  /** True once `close` began: a long job returns or gives its job back. */
  protected get closing(): boolean {
    return this.stopping;
  }

  async start(): Promise<void> {
    const { name, label } = this.settings;
    this.bull = new Queue(name, { connection: bullConnection(this.settings.redisUrl), prefix: this.settings.prefix });
    this.worker = new Worker(name, (job: Job<T>, token?: string) => this.process(job, token), bullWorkerOptions(this.settings));
    this.worker.on('failed', (job, e) => {
      if (!this.stopping || this.settings.logFailuresWhileClosing) this.log(`${label} job ${job?.id ?? '?'} failed: ${e.message}`);
    });
    this.worker.on('error', (e) => this.log(`${label} worker: ${e.message}`));
    await this.beforeFirstSweep();
    await this.sweep();
    this.sweeper = setInterval(
      () => void this.sweep().catch((e: Error) => this.log(`${label} sweep: ${e.message}`)),
      this.settings.sweepMs,
    );
    this.sweeper.unref();
  }

  /** The queue's job counts by state (empty before start). */
  async counts(): Promise<Record<string, number>> {
    return (await this.bull?.getJobCounts()) ?? {};
  }

  async close(): Promise<void> {
    this.stopping = true;
    if (this.sweeper) clearInterval(this.sweeper);
    await this.worker?.close();
    await this.bull?.close();
  }
}
