/**
 * POST /v3/portal/webhooks (orderId, txHash, url). The order is looked up exactly as
 * GET /v3/portal/status looks it up (same 404 rule; the first request creates its row and
 * tracking). The URL must pass the destination policy now (400 naming `url` otherwise). The
 * reply carries the webhook id and its secret (shown once). Transitions recorded before the
 * registration are queued at once, so the client misses none.
 *
 * A webhook belongs to its `owner` (the gateway sets it from the caller: the API key's id, or the
 * anonymous client's address); only that owner lists, replaces (`replaces`) or deletes it
 * (`manage-webhooks.usecase.ts`). An order has at most `maxPerOrder` webhooks over all its
 * transactions and owners, counted under a lock (409 beyond).
 */
import { randomUUID } from 'node:crypto';
import { ErrorCode, type RegisterWebhookReply, type RegisterWebhookRequest } from '@tokensvc/messages';
import { ServiceError } from '@tokensvc/transport';
import type { CrossChainStatusUseCase } from '../status/cross-chain-status.usecase';
import { DestinationError, type DestinationPolicy } from './destination-policy';
import type { StatusEventStore } from './status-event-store';
import { newWebhookSecret } from './webhook-signature';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** `key:<api key id>`, `token:<sha256 of an owner token>` (anonymous, issue 30), or `ip:<address>` (rows of earlier versions) */
const OWNER = /^(key|ip):[0-9A-Za-z.:_/%-]{1,100}$|^token:[0-9a-f]{64}$/;

/** The caller a webhook request is made for; refused when the gateway did not say (no webhook without an owner). */
export function checkOwner(owner: string): string {
  if (!OWNER.test(owner))
    throw new ServiceError(
      ErrorCode.ERROR_CODE_BAD_REQUEST,
      'a webhook request needs its owner ("key:<id>" or "token:<sha256 hex>", set by the gateway)',
    );
  return owner;
}

export { UUID as WEBHOOK_ID };

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
    const owner = checkOwner(req.owner);
    const replaces = req.replaces === '' ? undefined : req.replaces.toLowerCase();
    if (replaces !== undefined && !UUID.test(replaces))
      throw new ServiceError(ErrorCode.ERROR_CODE_BAD_REQUEST, 'replaces must be the id (a UUID) of one of your webhooks of this order');
    const bad = (m: string): ServiceError =>
      new ServiceError(ErrorCode.ERROR_CODE_BAD_REQUEST, `invalid url "${req.url.slice(0, 200)}": ${m}`);
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
    const hook = await this.store.insertWebhook(
      { id: randomUUID(), owner, orderId, txHash, url: url.toString(), secret: newWebhookSecret(), replaces },
      this.maxPerOrder,
    );
    if (hook === 'not-found')
      throw new ServiceError(
        ErrorCode.ERROR_CODE_NOT_FOUND,
        `no webhook ${replaces} of yours on order ${orderId} with transaction ${txHash} to replace`,
      );
    if (hook === 'full')
      throw new ServiceError(
        ErrorCode.ERROR_CODE_CONFLICT,
        `order ${orderId} has ${this.maxPerOrder} webhooks already, the most one order may have (delete one, or replace one of yours)`,
      );
    const recorded = Number(record.eventSeq);
    // Queued even with nothing recorded yet: a transition committed while this request ran may
    // have been dispatched before the webhook existed. Redis briefly away: the sweep queues it.
    await this.enqueue([hook.id]).catch(() => undefined);
    return {
      id: hook.id,
      secret: hook.secret,
      orderId,
      txHash,
      url: hook.url,
      createdAt: hook.createdAt.toISOString(),
      recordedEvents: String(recorded),
      status: record.status,
    };
  }
}
