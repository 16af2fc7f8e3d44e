import type { ErrorBody, ErrorCode } from './types';

/** The rate-limit headers of a response (absent headers are undefined). */
export interface RateLimit {
  /** requests allowed per window (ratelimit-limit) */
  limit?: number;
  /** requests left in the current window (ratelimit-remaining) */
  remaining?: number;
  /** seconds until the oldest counted request leaves the window (ratelimit-reset) */
  reset?: number;
  /** `<limit>;w=<window seconds>` (ratelimit-policy) */
  policy?: string;
  /** seconds to wait before retrying (retry-after, on a 429) */
  retryAfter?: number;
}

const int = (v: string | null): number | undefined => {
  if (v === null || v.trim() === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
};

/** Reads the rate-limit headers; retry-after may be seconds or an HTTP date. */
export function readRateLimit(headers: Headers, now = Date.now()): RateLimit {
  const out: RateLimit = {};
  const limit = int(headers.get('ratelimit-limit'));
  const remaining = int(headers.get('ratelimit-remaining'));
  const reset = int(headers.get('ratelimit-reset'));
  const policy = headers.get('ratelimit-policy');
  if (limit !== undefined) out.limit = limit;
  if (remaining !== undefined) out.remaining = remaining;
  if (reset !== undefined) out.reset = reset;
  if (policy !== null) out.policy = policy;
  const ra = headers.get('retry-after');
  if (ra !== null) {
    const secs = int(ra);
    if (secs !== undefined) out.retryAfter = Math.max(0, secs);
    else if (!Number.isNaN(Date.parse(ra))) out.retryAfter = Math.max(0, Math.ceil((Date.parse(ra) - now) / 1000));
  }
  return out;
}

/** Every code of the service's closed set; anything else from the wire becomes `unknown`. */
const CODES: ReadonlySet<string> = new Set<ErrorCode>([
  'invalid_parameter',
  'unauthorized',
  'forbidden',
  'forbidden_plan',
  'not_found',
  'method_not_allowed',
  'payload_too_large',
  'unsupported_media_type',
  'conflict',
  'rate_limited',
  'quota_exhausted',
  'failed_auth_throttled',
  'internal',
  'not_implemented',
  'unavailable',
  'timeout',
]);

/** An error answer of the service: its HTTP status, its `code` (branch on this), message and rate-limit headers. */
export class TokensvcError extends Error {
  override readonly name = 'TokensvcError';

  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'unknown',
    message: string,
    readonly rateLimit: RateLimit,
    /** the x-request-id of the answer, for support */
    readonly requestId: string | undefined,
    /** the body as received */
    readonly body: unknown,
  ) {
    super(message);
  }

  /** Builds the error from a non-2xx response and its parsed body (JSON or text). */
  static from(response: Response, body: unknown): TokensvcError {
    const b = (typeof body === 'object' && body !== null ? body : {}) as Partial<ErrorBody>;
    const code = typeof b.code === 'string' && CODES.has(b.code) ? b.code : 'unknown';
    const message =
      typeof b.message === 'string'
        ? b.message
        : `HTTP ${response.status}${typeof body === 'string' && body ? `: ${body.slice(0, 200)}` : ''}`;
    return new TokensvcError(
      response.status,
      code,
      message,
      readRateLimit(response.headers),
      response.headers.get('x-request-id') ?? undefined,
      body,
    );
  }
}

/** A wait ended by its timeout (waitForStatus, receipts). */
export class TokensvcTimeoutError extends Error {
  override readonly name = 'TokensvcTimeoutError';
}

/** An order that ended in a state other than the one asked for (reverted, expired, REFUND_STATUS, FAILED). */
export class OrderFailedError extends Error {
  override readonly name = 'OrderFailedError';

  constructor(
    message: string,
    readonly status: string,
    readonly record: unknown,
  ) {
    super(message);
  }
}
