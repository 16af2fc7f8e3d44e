import { createHash, randomBytes } from 'node:crypto';
import { CROSS_CHAIN_STATUSES, type Endpoints, type ParsedQuery } from '@tokensvc/api';
import { RPC } from '@tokensvc/messages';
import { GatewayError } from '../http/errors';
import type { CallContext } from './call-context';

type Q<K extends keyof Endpoints> = ParsedQuery<Endpoints[K]['query']>;

/**
 * Who a webhook belongs to (issues 16 and 30): the caller's API key, or, without a key, whoever
 * holds the owner token the registration returned. A client address is no owner: everyone behind
 * one NAT or IPv6 /64 shares it. The gateway makes the token (32 random bytes) and sends the status
 * tracker only its hash (`token:<sha256>`), so the tracker's rows hold nothing that lists or
 * deletes a webhook. A registration that presents a token joins that owner; the token wins over a
 * key when both are sent. The status tracker lets only the owner list, replace or delete the
 * webhook; the owner is carried in the message, never taken from the client.
 */
export function webhookOwner(ctx: Pick<CallContext, 'caller'>, ownerToken: string | undefined): string {
  if (ownerToken !== undefined) return `token:${createHash('sha256').update(ownerToken.toLowerCase()).digest('hex')}`;
  if (ctx.caller?.key) return `key:${ctx.caller.key.id}`;
  throw new GatewayError(
    400,
    'ownerToken is required without an API key: send the ownerToken the webhook registration (POST /v3/portal/webhooks) returned',
    'invalid_parameter',
  );
}

/** A new anonymous owner's token: 32 random bytes, 0x-hex (shown once, in the registration). */
export function newOwnerToken(): string {
  return `0x${randomBytes(32).toString('hex')}`;
}

const WEBHOOK_STATES = ['active', 'done', 'failed'] as const;

/** POST, GET and DELETE /v3/portal/webhooks, answered by the status tracker (URL policy 400, unknown order or webhook 404, limit 409). */
export const PUSH_ENDPOINTS = {
  webhookRegister: async (q: Q<'webhookRegister'>, ctx: CallContext) => {
    // without a key (and without a token to join), a new owner: its token goes back once
    const ownerToken = q.ownerToken ?? (ctx.caller?.key ? undefined : newOwnerToken());
    const r = await ctx.rpc.call(RPC.registerWebhook, {
      orderId: q.orderId,
      txHash: q.txHash,
      url: q.url,
      owner: webhookOwner(ctx, ownerToken),
      replaces: q.replaces ?? '',
    });
    return {
      ...(ownerToken === undefined ? {} : { ownerToken }),
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
    const r = await ctx.rpc.call(RPC.listWebhooks, { orderId: q.orderId, txHash: q.txHash, owner: webhookOwner(ctx, q.ownerToken) });
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
    const r = await ctx.rpc.call(RPC.deleteWebhook, { id: q.id, owner: webhookOwner(ctx, q.ownerToken) });
    return { id: r.id };
  },
};
