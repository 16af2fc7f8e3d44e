import { Type } from '@sinclair/typebox';
import { dateTime, named, stringEnum, type Static } from '../schema/types';
import { CROSS_CHAIN_STATUSES, CrossChainStatus } from './order';

/**
 * Push delivery of cross-chain order status (webhooks and Server-Sent Events): the event
 * envelope both deliver, the webhook registration, and the one mapping from the status
 * tracker's record to the public record of GET /v3/portal/status that the gateway and the
 * tracker's webhook sender share (so a pushed record is byte for byte what the poll answers).
 */

/** `status.current`: the record an SSE stream opens with; the others: the status a transition entered. */
export const STATUS_EVENT_TYPES = ['status.current', 'status.ongoing', 'status.success', 'status.refund_status', 'status.failed'] as const;
export type StatusEventType = (typeof STATUS_EVENT_TYPES)[number];

/** The event type of a transition into `status` (ONGOING -> status.ongoing, ...). */
export function transitionEventType(status: string): StatusEventType {
  const t = `status.${status.toLowerCase()}`;
  const found = STATUS_EVENT_TYPES.find((x) => x === t && x !== 'status.current');
  if (!found) throw new Error(`no status event type for a transition into "${status}"`);
  return found;
}

/** The event id of transition `seq` of (order, tx): the same on JetStream, webhooks and SSE. */
export const statusEventId = (orderId: string, txHash: string, seq: number): string => `${orderId}:${txHash}:${seq}`;

export const StatusEvent = named(
  'CrossChainStatusEvent',
  Type.Object({
    id: Type.String({ description: '<orderId>:<txHash>:<seq>; the same event always has the same id (deduplicate on it)' }),
    type: stringEnum(STATUS_EVENT_TYPES, {
      description: 'status.current: the record an SSE stream opens with; otherwise the status the transition entered',
    }),
    seq: Type.Integer({ description: 'per order and transaction: 1, 2, ... in transition order (0: no transition yet)' }),
    orderId: Type.String(),
    txHash: Type.String(),
    createdAt: dateTime({ description: 'when the transition was written (status.current: when the record was read)' }),
    record: CrossChainStatus,
  }),
);
export type StatusEvent = Static<typeof StatusEvent>;

export const WebhookRegistration = named(
  'WebhookRegistration',
  Type.Object({
    id: Type.String({ description: 'webhook id (sent as x-tokensvc-webhook-id)' }),
    secret: Type.String({ description: 'HMAC-SHA256 key of the x-tokensvc-signature header; shown once, store it' }),
    ownerToken: Type.Optional(
      Type.String({
        description:
          'without an API key: the token that lists, replaces and deletes this webhook (ownerToken parameter); shown once, store it. Absent when registered with a key',
      }),
    ),
    orderId: Type.String(),
    txHash: Type.String(),
    url: Type.String(),
    status: stringEnum(CROSS_CHAIN_STATUSES, { description: 'the order status at registration' }),
    recordedEvents: Type.Integer({ description: 'transitions that happened before the registration; they are delivered at once' }),
    createdAt: dateTime(),
  }),
);
export type WebhookRegistration = Static<typeof WebhookRegistration>;

export const WebhookSummary = named(
  'Webhook',
  Type.Object({
    id: Type.String({ description: 'webhook id (sent as x-tokensvc-webhook-id)' }),
    orderId: Type.String(),
    txHash: Type.String(),
    url: Type.String(),
    state: stringEnum(['active', 'done', 'failed'] as const, {
      description: 'active; done: the terminal event was delivered; failed: given up after its retries',
    }),
    deliveredEvents: Type.Integer({ description: 'transitions delivered so far' }),
    createdAt: dateTime(),
  }),
);
export type WebhookSummary = Static<typeof WebhookSummary>;

export const WebhookList = named('WebhookList', Type.Object({ webhooks: Type.Array(WebhookSummary) }));
export type WebhookList = Static<typeof WebhookList>;

export const WebhookDeleted = named('WebhookDeleted', Type.Object({ id: Type.String({ description: 'the deleted webhook' }) }));
export type WebhookDeleted = Static<typeof WebhookDeleted>;

/** The status tracker's record (proto CrossChainStatusReply, structurally). */
export interface CrossChainStatusSource<C, T> {
  readonly context?: C | undefined;
  readonly tx?: T | undefined;
  readonly txHash: string;
  readonly status: string;
  readonly statusReason?: string | undefined;
  readonly crossChainRequestId: string;
  readonly crossChainProvider: string;
  readonly destinationTxHashes: string[];
  readonly originTxHashes: string[];
  readonly fromChainId: string | number;
  readonly toChainId: string | number;
}

/** The public record of GET /v3/portal/status (chain ids as numbers, the status from the closed set). */
export function crossChainStatusRecord<C, T>(r: CrossChainStatusSource<C, T>) {
  return {
    context: r.context,
    tx: r.tx,
    txHash: r.txHash,
    status: CROSS_CHAIN_STATUSES.find((x) => x === r.status) ?? 'PENDING',
    statusReason: r.statusReason,
    crossChainRequestId: r.crossChainRequestId,
    crossChainProvider: r.crossChainProvider,
    destinationTxHashes: r.destinationTxHashes,
    originTxHashes: r.originTxHashes,
    fromChainId: Number(r.fromChainId),
    toChainId: Number(r.toChainId),
  };
}
