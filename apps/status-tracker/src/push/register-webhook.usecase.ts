/**
 * POST /v3/portal/webhooks (orderId, txHash, url). The order is looked up exactly as
 * GET /v3/portal/status looks it up (same 404 rule; the first request creates its row and
 * tracking). The URL must pass the destination policy now (400 naming `url` otherwise). The
 * reply carries the webhook id and its secret (shown once). Transitions recorded before the
 * registration are queued at once, so the client misses none.
 */
import { randomUUID } from 'node:crypto';
import { ErrorCode, type RegisterWebhookReply, type RegisterWebhookRequest } from '@tokensvc/messages';
import { ServiceError } from '@tokensvc/transport';
import type { CrossChainStatusUseCase } from '../status/cross-chain-status.usecase';
import { DestinationError, type DestinationPolicy } from './destination-policy';
import type { StatusEventStore } from './status-event-store';
import { newWebhookSecret } from './webhook-signature';

export class RegisterWebhookUseCase {
  constructor(
    private readonly status: CrossChainStatusUseCase,
    private readonly store: StatusEventStore,
    private readonly policy: DestinationPolicy,
    /** queues delivery of a webhook (WebhookQueue.add) */
    private readonly enqueue: (webhookIds: string[]) => Promise<void>,
    private readonly maxPerOrder: number,
  ) {}

  async execute(req: RegisterWebhookRequest): Promise<RegisterWebhookReply> {
    const bad = (m: string): ServiceError => new ServiceError(ErrorCode.ERROR_CODE_BAD_REQUEST, `invalid url "${req.url.slice(0, 200)}": ${m}`);
    // The form and the lists first (no lookup for a URL refused anyway), then the order, then DNS.
    let url: URL;
    try {
      url = this.policy.checkUrl(req.url);
    } catch (e) {
      if (e instanceof DestinationError) throw bad(e.message);
      throw e;
    }
    const record = await this.status.execute({ orderId: req.orderId, txHash: req.txHash });
    try {
      await this.policy.addresses(url);
    } catch (e) {
      if (e instanceof DestinationError) throw bad(e.message);
      throw e;
    }
    const orderId = req.orderId.toLowerCase();
    const txHash = record.txHash;
    const hook = await this.store.insertWebhook({ id: randomUUID(), orderId, txHash, url: url.toString(), secret: newWebhookSecret() }, this.maxPerOrder);
    if (!hook) throw new ServiceError(ErrorCode.ERROR_CODE_BAD_REQUEST, `order ${orderId} with transaction ${txHash} has ${this.maxPerOrder} webhooks already, the most one order may have`);
    const recorded = Number(record.eventSeq);
    // Queued even with nothing recorded yet: a transition committed while this request ran may
    // have been dispatched before the webhook existed. Redis briefly away: the sweep queues it.
    await this.enqueue([hook.id]).catch(() => undefined);
    return { id: hook.id, secret: hook.secret, orderId, txHash, url: hook.url, createdAt: hook.createdAt.toISOString(), recordedEvents: String(recorded), status: record.status };
  }
}
