/**
 * Signing of webhook deliveries: `x-tokensvc-signature: sha256=<hex>` where hex is the
 * HMAC-SHA256, keyed with the webhook's secret (its UTF-8 bytes), of `<timestamp>.<raw body>`,
 * `timestamp` being the `x-tokensvc-timestamp` header (unix seconds). A receiver recomputes it
 * over the raw body it received, compares in constant time, and refuses old timestamps (replays).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-tokensvc-signature';
export const TIMESTAMP_HEADER = 'x-tokensvc-timestamp';
export const EVENT_ID_HEADER = 'x-tokensvc-event-id';
export const WEBHOOK_ID_HEADER = 'x-tokensvc-webhook-id';

/** A new webhook secret: `whsec_` + 32 random bytes, base64url. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

export function signPayload(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** What a receiver does; `toleranceSeconds` bounds the age (and future skew) of the timestamp. */
export function verifySignature(
  secret: string,
  header: string | undefined,
  timestamp: string | undefined,
  body: string,
  nowSeconds = Math.floor(Date.now() / 1000),
  toleranceSeconds = 300,
): boolean {
  if (header === undefined || timestamp === undefined || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > toleranceSeconds) return false;
  const want = Buffer.from(signPayload(secret, Number(timestamp), body));
  const got = Buffer.from(header);
  return got.length === want.length && timingSafeEqual(got, want);
}
