/**
 * GET and DELETE /v3/portal/webhooks: a caller sees and deletes only its own webhooks (the owner
 * the gateway set at registration). Another caller's webhook is answered exactly as one that
 * does not exist (an empty list, 404), so ids and URLs of others are not disclosed.
 */
import {
  ErrorCode,
  type DeleteWebhookReply,
  type DeleteWebhookRequest,
  type ListWebhooksReply,
  type ListWebhooksRequest,
} from '@tokensvc/messages';
import { ServiceError } from '@tokensvc/transport';
import { checkOwner, WEBHOOK_ID } from './register-webhook.usecase';
import type { StatusEventStore } from './status-event-store';

const TX_HASH = /^0x[0-9a-f]{64}$/;

export class ManageWebhooksUseCase {
  constructor(private readonly store: StatusEventStore) {}

  async list(req: ListWebhooksRequest): Promise<ListWebhooksReply> {
    const owner = checkOwner(req.owner);
    const orderId = req.orderId.toLowerCase();
    const txHash = req.txHash.toLowerCase();
    if (!WEBHOOK_ID.test(orderId))
      throw new ServiceError(ErrorCode.ERROR_CODE_BAD_REQUEST, 'orderId must be a UUID (context.orderId of the order)');
    if (!TX_HASH.test(txHash)) throw new ServiceError(ErrorCode.ERROR_CODE_BAD_REQUEST, 'txHash must be 0x followed by 64 hex characters');
    const hooks = await this.store.ownedWebhooks(owner, orderId, txHash);
    return {
      webhooks: hooks.map((h) => ({
        id: h.id,
        orderId: h.orderId,
        txHash: h.txHash,
        url: h.url,
        state: h.state,
        deliveredEvents: String(h.deliveredSeq),
        createdAt: h.createdAt.toISOString(),
      })),
    };
  }

  async delete(req: DeleteWebhookRequest): Promise<DeleteWebhookReply> {
    const owner = checkOwner(req.owner);
    const id = req.id.toLowerCase();
    if (!WEBHOOK_ID.test(id)) throw new ServiceError(ErrorCode.ERROR_CODE_BAD_REQUEST, 'id must be a webhook id (a UUID)');
    if (!(await this.store.deleteOwnedWebhook(owner, id)))
      throw new ServiceError(ErrorCode.ERROR_CODE_NOT_FOUND, `no webhook ${id} registered by this caller`);
    return { id };
  }
}
