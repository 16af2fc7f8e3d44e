import { CROSS_CHAIN_STATUSES, type Endpoints, type ParsedQuery } from '@tokensvc/api';
import { RPC } from '@tokensvc/messages';
import { callerIdentity, type CallContext } from './call-context';

type Q<K extends keyof Endpoints> = ParsedQuery<Endpoints[K]['query']>;

/**
 * Who a webhook belongs to (issue 16): the caller's identity (API key, or the anonymous client's
 * budget key). The status tracker lets only this owner list, replace or delete the webhook; it is
 * carried in the message, never taken from the client.
 */
export const webhookOwner = callerIdentity;

const WEBHOOK_STATES = ['active', 'done', 'failed'] as const;

/** POST, GET and DELETE /v3/portal/webhooks, answered by the status tracker (URL policy 400, unknown order or webhook 404, limit 409). */
export const PUSH_ENDPOINTS = {
  webhookRegister: async (q: Q<'webhookRegister'>, ctx: CallContext) => {
    const r = await ctx.rpc.call(RPC.registerWebhook, { orderId: q.orderId, txHash: q.txHash, url: q.url, owner: webhookOwner(ctx), replaces: q.replaces ?? '' });
    return {
      id: r.id,
      secret: r.secret,
      orderId: r.orderId,
      txHash: r.txHash,
      url: r.url,
      status: CROSS_CHAIN_STATUSES.find((s) => s === r.status) ?? 'PENDING',
      recordedEvents: Number(r.recordedEvents),
      createdAt: r.createdAt,
    };
  },
  webhookList: async (q: Q<'webhookList'>, ctx: CallContext) => {
    const r = await ctx.rpc.call(RPC.listWebhooks, { orderId: q.orderId, txHash: q.txHash, owner: webhookOwner(ctx) });
    return {
      webhooks: r.webhooks.map((w) => ({
        id: w.id,
        orderId: w.orderId,
        txHash: w.txHash,
        url: w.url,
        state: WEBHOOK_STATES.find((s) => s === w.state) ?? 'active',
        deliveredEvents: Number(w.deliveredEvents),
        createdAt: w.createdAt,
      })),
    };
  },
  webhookDelete: async (q: Q<'webhookDelete'>, ctx: CallContext) => {
    const r = await ctx.rpc.call(RPC.deleteWebhook, { id: q.id, owner: webhookOwner(ctx) });
    return { id: r.id };
  },
};
