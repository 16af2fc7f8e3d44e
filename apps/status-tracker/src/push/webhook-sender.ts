/**
 * One delivery attempt of one status event to one webhook: a signed JSON POST to a destination
 * the policy accepts now (the socket connects only to addresses judged at this moment), within a
 * timeout, no redirect followed (a 3xx is a failure), the response body ignored. Success is a 2xx.
 */
import http from 'node:http';
import https from 'node:https';
import { crossChainStatusRecord, statusEventId, transitionEventType, type StatusEvent } from '@tokensvc/api';
import type { CrossChainStatusEvent } from '@tokensvc/messages';
import { DestinationError, type DestinationPolicy } from './destination-policy';
import { EVENT_ID_HEADER, SIGNATURE_HEADER, signPayload, TIMESTAMP_HEADER, WEBHOOK_ID_HEADER } from './webhook-signature';

export type DeliveryResult = { ok: true; statusCode: number } | { ok: false; statusCode?: number; error: string };

/** The JSON body of a delivery: the event envelope with the public record (as GET /v3/portal/status answers). */
export function webhookBody(e: CrossChainStatusEvent): StatusEvent {
  const seq = Number(e.seq);
  if (!e.record) throw new Error(`status event ${e.orderId}/${e.txHash}/${seq} has no record`);
  return {
    id: statusEventId(e.orderId, e.txHash, seq),
    type: transitionEventType(e.status),
    seq,
    orderId: e.orderId,
    txHash: e.txHash,
    createdAt: e.createdAt,
    record: crossChainStatusRecord(e.record),
  };
}

export interface WebhookTarget {
  id: string;
  url: string;
  secret: string;
}

export class WebhookSender {
  constructor(
    private readonly policy: DestinationPolicy,
    private readonly timeoutMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async send(hook: WebhookTarget, event: CrossChainStatusEvent): Promise<DeliveryResult> {
    let url: URL;
    try {
      url = this.policy.checkUrl(hook.url);
      // IP literals are not looked up by the socket: judge them here (names are judged at connect).
      if (/^(\[.*\]|[\d.]+)$/.test(url.hostname)) await this.policy.addresses(url);
    } catch (e) {
      return { ok: false, error: e instanceof DestinationError ? `destination refused: ${e.message}` : (e as Error).message };
    }
    const body = JSON.stringify(webhookBody(event));
    const timestamp = Math.floor(this.now() / 1000);
    const headers = {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'user-agent': 'tokensvc-webhooks/1',
      [EVENT_ID_HEADER]: statusEventId(event.orderId, event.txHash, Number(event.seq)),
      [WEBHOOK_ID_HEADER]: hook.id,
      [TIMESTAMP_HEADER]: String(timestamp),
      [SIGNATURE_HEADER]: signPayload(hook.secret, timestamp, body),
    };
    return new Promise<DeliveryResult>((resolve) => {
      let settled = false;
      const done = (r: DeliveryResult): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(r);
      };
      const request = url.protocol === 'https:' ? https.request : http.request;
      // A fresh connection per attempt (agent: false): no pooled socket outlives the address check.
      const req = request(url, { method: 'POST', headers, agent: false, lookup: this.policy.lookupFor(url) }, (res) => {
        const status = res.statusCode ?? 0;
        // The body is never read: whatever its size, the socket is dropped.
        res.destroy();
        req.destroy();
        if (status >= 200 && status < 300) done({ ok: true, statusCode: status });
        else if (status >= 300 && status < 400)
          done({ ok: false, statusCode: status, error: `answered ${status}; redirects are not followed` });
        else done({ ok: false, statusCode: status, error: `answered ${status}` });
      });
      const timer = setTimeout(() => {
        req.destroy();
        done({ ok: false, error: `no response within ${this.timeoutMs} ms` });
      }, this.timeoutMs);
      req.on('error', (e: NodeJS.ErrnoException) =>
        done({
          ok: false,
          error: e.code === 'EWEBHOOKDESTINATION' ? `destination refused: ${e.message}` : `${e.code ?? 'error'}: ${e.message}`,
        }),
      );
      req.end(body);
    });
  }
}

/** The outcome label of one delivery attempt (a bounded set). */
export function deliveryOutcome(r: DeliveryResult): string {
  if (r.ok) return 'ok';
  if (r.statusCode !== undefined)
    return r.statusCode >= 500 ? 'http_5xx' : r.statusCode >= 400 ? 'http_4xx' : r.statusCode >= 300 ? 'redirect' : 'http_other';
  if (r.error.startsWith('destination refused')) return 'refused';
  if (r.error.startsWith('no response within')) return 'timeout';
  return 'network';
}
