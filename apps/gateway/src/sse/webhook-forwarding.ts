import { CROSS_CHAIN_STATUSES, type Endpoints, type ParsedQuery } from '@tokensvc/api';
import { RPC } from '@tokensvc/messages';
import type { CallContext } from '../api/call-context';

type Q<K extends keyof Endpoints> = ParsedQuery<Endpoints[K]['query']>;

/** POST /v3/portal/webhooks, answered by the status tracker (URL policy 400, unknown order 404). */
export const PUSH_ENDPOINTS = {
  webhookRegister: async (q: Q<'webhookRegister'>, { rpc }: CallContext) => {
    const r = await rpc.call(RPC.registerWebhook, { orderId: q.orderId, txHash: q.txHash, url: q.url });
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
};
