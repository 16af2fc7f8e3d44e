/**
 * BullMQ drives webhook delivery: one job per webhook (job id `wh_<webhookId>`, so queueing it
 * twice is a no-op) that delivers the order's recorded events after the webhook's
 * `delivered_seq`, one at a time in seq order. A failed attempt reschedules the same job with
 * exponential backoff (`backoffMs` * 2^(failures - 1)); after `maxAttempts` consecutive failures
 * the webhook is given up (state failed). Each success is recorded once per (webhook, seq)
 * before the next event is sent. New events while a job waits for its retry go out after the
 * failing one, in order. The relay queues jobs for new events; a sweep re-queues any active
 * webhook still behind its order (a job lost with Redis, an event recorded while its job was
 * finishing).
 */
import { DelayedError, type Job } from 'bullmq';
import { SweptQueue } from '@tokensvc/queue';
import { TRACKER_METRICS } from '../metrics';
import type { StatusEventStore } from './status-event-store';
import { deliveryOutcome, type WebhookSender } from './webhook-sender';

export const WEBHOOK_QUEUE = 'webhook-delivery';

const TERMINAL = new Set(['SUCCESS', 'REFUND_STATUS', 'FAILED']);

export interface WebhookQueueOptions {
  redisUrl: string;
  prefix: string;
  maxAttempts: number;
  backoffMs: number;
  concurrency: number;
  sweepMs: number;
}

interface DeliverJob {
  webhookId: string;
}

export const webhookJobId = (webhookId: string): string => `wh_${webhookId}`;

export class WebhookQueue extends SweptQueue<DeliverJob> {
  constructor(
    private readonly store: StatusEventStore,
    private readonly sender: WebhookSender,
    private readonly o: WebhookQueueOptions,
    log?: (msg: string) => void,
  ) {
    // no lockMs: BullMQ's default lock and stalled-job check
    super(
      { name: WEBHOOK_QUEUE, label: 'webhook', redisUrl: o.redisUrl, prefix: o.prefix, concurrency: o.concurrency, sweepMs: o.sweepMs },
      log,
    );
  }

  /** Queues delivery for these webhooks (idempotent per webhook). */
  async add(webhookIds: readonly string[]): Promise<void> {
    const queue = this.startedQueue();
    if (webhookIds.length === 0) return;
    await queue.addBulk(
      webhookIds.map((webhookId) => ({
        name: 'deliver',
        data: { webhookId },
        opts: { jobId: webhookJobId(webhookId), removeOnComplete: true, removeOnFail: true, attempts: 1 },
      })),
    );
  }

  async sweep(): Promise<void> {
    await this.add(await this.store.behind());
  }

  protected async process(job: Job<DeliverJob>, token: string | undefined): Promise<void> {
    const hook = await this.store.webhook(job.data.webhookId);
    if (!hook || hook.state !== 'active') return;
    let after = hook.deliveredSeq;
    while (!this.closing) {
      const events = await this.store.eventsAfter(hook.orderId, hook.txHash, after, 20);
      if (events.length === 0) return;
      for (const e of events) {
        const seq = Number(e.seq);
        const end = TRACKER_METRICS.webhookDeliveries.startTimer();
        const r = await this.sender.send(hook, e);
        end({ outcome: deliveryOutcome(r) });
        if (!r.ok) {
          const { failedAttempts, gaveUp } = await this.store.recordFailure(hook.id, `event ${seq}: ${r.error}`, this.o.maxAttempts);
          if (gaveUp) {
            TRACKER_METRICS.webhooksGivenUp.inc();
            this.log(`webhook ${hook.id} given up after ${failedAttempts} failed attempts (${r.error})`);
            return;
          }
          // Same job, later: nothing after this event goes out before it (order per webhook).
          await job.moveToDelayed(Date.now() + this.o.backoffMs * 2 ** (failedAttempts - 1), token);
          throw new DelayedError();
        }
        await this.store.recordDelivery(hook.id, seq, r.statusCode, TERMINAL.has(e.status));
        after = seq;
      }
    }
    // Failed and removed (removeOnFail): the sweep of the next worker queues it again.
    throw new Error('webhook worker closing');
  }
}
