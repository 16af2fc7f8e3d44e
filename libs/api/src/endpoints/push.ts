import { endpoint } from '../endpoint';
import { StatusEvent, WebhookDeleted, WebhookList, WebhookRegistration } from '../models/push';
import { query } from '../schema/query';
import { q } from '../schema/values';
import { orderId } from './params';

/**
 * Push delivery of cross-chain order status, beyond polling GET /v3/portal/status: webhooks and
 * Server-Sent Events. Not in the published interface (its "Events" section is empty): beta.
 */
const TAG = 'Trading';

const txHash = () => q.hex([32], 'a transaction hash').required().describe('hash of the submitted origin transaction');
const webhookId = () =>
  q.string({
    maxLength: 36,
    pattern: /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/,
    hint: 'a webhook id (UUID)',
  });
const OWNED =
  'A webhook belongs to the caller that registered it: its API key, or, without a key, whoever holds the ownerToken the registration returned ' +
  "(a client address is no owner: everyone behind one NAT shares it). Only that owner lists, replaces or deletes it, and another owner's webhook is answered as one that does not exist.";
const ownerToken = () => q.hex([32], 'an owner token (0x + 64 hex characters)');

export const webhookRegister = endpoint({
  method: 'POST',
  path: '/v3/portal/webhooks',
  summary: 'Register a webhook: every status transition of a cross-chain order is POSTed to the URL, signed',
  description:
    'Same order lookup as GET /v3/portal/status (404 only when the order cannot be found at all). Each transition (ONGOING, then SUCCESS, REFUND_STATUS or FAILED) ' +
    'is delivered once, in order, as a CrossChainStatusEvent JSON body with the headers x-tokensvc-event-id, x-tokensvc-webhook-id, x-tokensvc-timestamp and ' +
    'x-tokensvc-signature (sha256=<hex HMAC-SHA256 of "<timestamp>.<body>" keyed with the secret). Transitions recorded before the registration are delivered at once. ' +
    'Failed deliveries (no 2xx within the timeout; redirects are not followed) are retried with exponential backoff. The URL must be https, its host on the ' +
    "operator's allow-list, and resolve only to public addresses. At most WEBHOOK_MAX_PER_ORDER webhooks per order (409 beyond). " +
    OWNED,
  tag: TAG,
  access: 'trading',
  query: query({
    orderId: orderId().describe('context.orderId of the quote'),
    txHash: txHash(),
    url: q
      .string({
        maxLength: 2048,
        pattern: /^[A-Za-z][A-Za-z0-9+.-]*:\/\/\S+$/,
        hint: 'an absolute URL of at most 2048 characters (https, on the allowed hosts)',
      })
      .required()
      .describe('where the events are POSTed'),
    replaces: webhookId().describe(
      'id of one of your webhooks of this order and transaction that the new one replaces (deleted at once; it does not count against the limit)',
    ),
    ownerToken: ownerToken().describe(
      'register under the owner of this token (from an earlier registration) instead of a new one; without a key and without it, the reply carries a new ownerToken',
    ),
  }),
  response: WebhookRegistration,
  status: 201,
  extraErrors: [404, 409],
  beta: true,
});

export const webhookList = endpoint({
  method: 'GET',
  path: '/v3/portal/webhooks',
  summary: 'List your webhooks of a cross-chain order (without their secrets)',
  description: OWNED,
  tag: TAG,
  access: 'trading',
  query: query({
    orderId: orderId().describe('context.orderId of the quote'),
    txHash: txHash(),
    ownerToken: ownerToken().describe('required without an API key: the ownerToken of the registration'),
  }),
  response: WebhookList,
  beta: true,
});

export const webhookDelete = endpoint({
  method: 'DELETE',
  path: '/v3/portal/webhooks',
  summary: 'Delete one of your webhooks: nothing more is delivered to it',
  description: OWNED,
  tag: TAG,
  access: 'trading',
  query: query({
    id: webhookId().required().describe('the webhook id (from the registration)'),
    ownerToken: ownerToken().describe('required without an API key: the ownerToken of the registration'),
  }),
  response: WebhookDeleted,
  extraErrors: [404],
  beta: true,
});

export const crossChainStatusStream = endpoint({
  method: 'GET',
  path: '/v3/portal/status/stream',
  summary: "Follow a cross-chain order's status as Server-Sent Events until it is terminal",
  description:
    'text/event-stream. The first event is the current record (type status.current, id = its seq), then every transition once (id = seq, data = a ' +
    'CrossChainStatusEvent); comment lines keep the connection alive; the stream closes after a terminal status. A reconnect with Last-Event-ID (header, or ' +
    'the lastEventId parameter) resumes after that event without loss or repeat; once the order is terminal and nothing is left to send it answers 204 ' +
    '(an EventSource stops reconnecting). Same 404 rule as GET /v3/portal/status; 429 when the caller has too many streams open.',
  tag: TAG,
  access: 'trading',
  query: query({
    orderId: orderId().describe('context.orderId of the quote'),
    txHash: txHash(),
    lastEventId: q
      .int({ min: 0, max: 1_000_000 })
      .describe('resume after this event id (the Last-Event-ID header wins when both are sent)'),
  }),
  // The schema of one event's data: the body is a stream of `id: <seq>` + `data: <CrossChainStatusEvent JSON>` blocks.
  response: StatusEvent,
  contentType: 'text/event-stream',
  extraErrors: [404],
  beta: true,
});
