import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  MAX_CUSTOM_RATE_PER_MINUTE,
  SURFACE_OF,
  type AccessClass,
  type ErrorCodeName,
  type Caller,
  type Surface,
  type TierPolicy,
} from '@tokensvc/api';
import { sendError } from '../http/errors';
import { httpMetrics } from '../http/metrics';
import { nextMonth, setRateHeaders } from '../limits/headers';
import type { EndpointUsage } from '../limits/endpoint-usage';
import type { Decision, RateLimiter, Reservation } from '../limits/rate-limiter';
import type { UsageRecorder } from '../limits/usage-recorder';
import { credentialFrom } from './credentials';
import type { KeyIdentity, KeyLookup, KeyStore } from './key-store';
import { accessOf } from '../operations/operations';

/** Who is calling, attached to the request for handlers and the access log. */
export interface CallerInfo {
  readonly tier: Caller;
  readonly key: KeyIdentity | undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller: CallerInfo | undefined;
  }
}

export const PLAN_FORBIDS = 'Your plan does not allow access to this endpoint: it needs a paid or enterprise API key';
const KEY_REQUIRED = 'API key required: send it as "Authorization: Bearer <API_KEY>"';

export interface AccessDeps {
  readonly keys: KeyStore;
  readonly limiter: RateLimiter;
  readonly usage: UsageRecorder;
  /** admitted calls per key and endpoint (the console's usage view); optional */
  readonly endpointUsage?: EndpointUsage;
  readonly tierPolicy: Readonly<Record<Caller, TierPolicy>>;
  /** failed authentications (unknown, revoked, expired, malformed keys) allowed per client and window */
  readonly failedAuthLimit: number;
  readonly onLimiterError: (e: unknown) => void;
  /** a key lookup failed (database down, pool exhausted): logged; the client gets a 503 */
  readonly onKeyStoreError: (e: unknown) => void;
}

/** seconds a client is told to wait when the key table cannot be read */
const KEY_STORE_RETRY_S = 2;

/** What authenticating a key not in the cache came to: the key table's answer, or a refusal to ask it. */
type AuthOutcome = { found: KeyLookup } | { refused: { status: number; message: string; retryAfter?: number; code?: ErrorCodeName } };

/**
 * The one place access is decided, as an `onRequest` hook on every public route: the route's
 * declared class picks authentication (none, optional, key, paid key), then the rate limit and
 * monthly quota are spent. Refusals (401/403) spend nothing. A route without a class is refused.
 * Admin routes are not served on the public listener (admin/admin-server.ts guards its own).
 */
export class AccessPolicy {
  private readonly windowSeconds: number;
  private monthCache = { at: 0, value: nextMonth() };
  /** judgements of keys not in the cache under way, by client and key (see authenticate) */
  private readonly judging = new Map<string, Promise<AuthOutcome>>();
  /** client addresses over their failed-auth budget with a key lookup in flight (judgeCredential) */
  private readonly overBudgetLookups = new Set<string>();

  constructor(private readonly deps: AccessDeps) {
    this.windowSeconds = Math.ceil(deps.limiter.windowMs / 1000);
  }

  /** Resolves to the reply when the request was answered here (refused), undefined to go on. */
  async check(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    const url = req.routeOptions.url;
    if (url === undefined) return undefined; // no route: the not-found handler answers 404
    const access = accessOf(req.method, url);
    switch (access) {
      case undefined:
        return sendError(reply, 500, `route ${req.method} ${url} declares no access class; refusing it (request id ${req.id})`);
      case 'public':
        return undefined;
      case 'admin':
        return sendError(reply, 404, `no route ${req.method} ${req.url.split('?')[0]}; see /docs for the routes`);
      case 'data':
      case 'data-paid':
      case 'trading':
        return this.limited(req, reply, access, url);
    }
  }

  private async limited(
    req: FastifyRequest,
    reply: FastifyReply,
    access: 'data' | 'data-paid' | 'trading',
    url: string,
  ): Promise<FastifyReply | undefined> {
    const key = await this.authenticate(req, reply, access);
    if (key === null) return reply;
    const tier: Caller = key?.tier ?? 'anonymous';
    const policy = this.deps.tierPolicy[tier];
    const surface = SURFACE_OF[access] as Surface;
    const limit = surfaceLimit(key, policy, surface);
    req.caller = { tier, key };
    const subject = key ? `key:${key.id}` : `ip:${req.clientKey}`;
    if (limit === undefined || (access === 'data-paid' && !policy.paidData)) {
      httpMetrics.authRejections.inc({ reason: 'plan' });
      if (limit !== undefined && (await this.withLimiter(reply, () => this.deps.limiter.peek(subject, surface, limit))) === undefined)
        return reply;
      return sendError(reply, 403, PLAN_FORBIDS, 'forbidden_plan');
    }
    const month = this.month();
    const quota =
      key && policy.monthlyCalls !== undefined
        ? { limit: policy.monthlyCalls, period: month.period, ttlSeconds: month.seconds + 7 * 86_400 }
        : undefined;
    const d = await this.withLimiter(reply, () => this.deps.limiter.consume(subject, surface, limit, quota));
    if (d === undefined) return reply;
    if (d.verdict === 'admitted') {
      if (key) {
        this.deps.usage.count(key.id);
        this.deps.endpointUsage?.count(key.id, `${req.method === 'HEAD' ? 'GET' : req.method} ${url}`);
      }
      return undefined;
    }
    httpMetrics.limitRejections.inc({ surface, reason: d.verdict });
    const who = key ? `this ${tier} key` : 'anonymous callers from this address';
    if (d.verdict === 'rate') {
      void reply.header('retry-after', d.resetSeconds);
      return sendError(
        reply,
        429,
        `rate limit exceeded: ${limit} requests per ${this.windowSeconds} s on ${surface} endpoints for ${who}; retry in ${d.resetSeconds} s`,
      );
    }
    void reply.header('retry-after', month.seconds);
    return sendError(
      reply,
      429,
      `monthly quota exhausted: the ${tier} plan allows ${quota?.limit} calls per month; it resets at ${month.at.toISOString()}`,
      'quota_exhausted',
    );
  }

  /** The quota period and its end, recomputed at most once a second (this runs per request). */
  private month(): ReturnType<typeof nextMonth> {
    const now = Date.now();
    if (now - this.monthCache.at >= 1000) this.monthCache = { at: now, value: nextMonth(new Date(now)) };
    return this.monthCache.value;
  }

  /** The caller's key; undefined for an anonymous trading call; null when a 401 (or 429, 503) was sent. */
  private async authenticate(req: FastifyRequest, reply: FastifyReply, access: AccessClass): Promise<KeyIdentity | undefined | null> {
    const credential = credentialFrom(req.headers.authorization);
    if (credential === undefined) {
      if (access === 'trading') return undefined;
      httpMetrics.authRejections.inc({ reason: 'missing' });
      sendError(reply, 401, KEY_REQUIRED);
      return null;
    }
    const cached = this.deps.keys.cached(credential);
    if (cached?.status === 'valid') return cached.key;
    // A client's concurrent requests with one key share one judgement (one slot, one lookup): a
    // burst of first requests with a new valid key is not a burst of failures.
    const id = `${req.clientKey}\n${credential}`;
    let judging = this.judging.get(id);
    if (!judging) {
      judging = this.judgeCredential(credential, req.clientKey, cached).finally(() => this.judging.delete(id));
      this.judging.set(id, judging);
    }
    const outcome = await judging;
    if ('refused' in outcome) {
      const { status, message, retryAfter, code } = outcome.refused;
      if (retryAfter !== undefined) void reply.header('retry-after', retryAfter);
      sendError(reply, status, message, code);
      return null;
    }
    const found = outcome.found;
    if (found.status === 'valid') return found.key;
    httpMetrics.authRejections.inc({ reason: found.status });
    const which = found.displayPrefix ? `API key ${found.displayPrefix}…` : 'API key';
    const why =
      found.status === 'unknown'
        ? 'invalid API key: it is not a key this service issued'
        : `${which} ${found.status === 'revoked' ? 'has been revoked' : 'has expired'}`;
    sendError(reply, 401, `${why}; send a valid key as "Authorization: Bearer <API_KEY>"`);
    return null;
  }

  /**
   * A key the cache does not vouch for (`cached`: its answer for a malformed key or a fresh
   * unknown, revoked or expired one; undefined when only the table can tell). A key the table held at its last lookup (its cache entry gone
   * stale, or revoked) is a key in use, not a guess: it is refreshed or refused without the
   * failed-auth budget, so the owner of a valid key is not locked out by someone else's guesses
   * from the same address (NAT, /64).
   *
   * Anything else may be a guess, and only failures count: a slot of the client's failed-auth
   * budget is taken before the lookup (so a concurrent burst cannot overrun it) and given back if
   * the key turns out valid. A client over its failure budget still has a never-seen key looked
   * up, and a valid one passes; only an invalid one is refused (429, not 401). Why: refusing the
   * lookup let 20 junk keys a minute from a shared address (NAT, /64) lock out every new key, and
   * every key after a gateway restart (the cache empty). The lookup is cheap: one SHA-256 and one
   * unique-index read by hash, shared by concurrent requests with the key and cached (miss too);
   * malformed keys and keys already found unknown are answered from memory. Guessing stays
   * throttled: past the budget every invalid key is a 429 until the window frees a slot (a
   * 190-bit key cannot be guessed online anyway; the throttle bounds the work a guesser causes).
   * That work is bounded too: over the budget, one lookup at a time per client address in this
   * process (a concurrent one meanwhile is a 429 without a query), so a flood of invented keys
   * from one address holds at most one database connection.
   */
  private async judgeCredential(credential: string, clientKey: string, cached: KeyLookup | undefined): Promise<AuthOutcome> {
    let slot: Reservation | undefined;
    let throttled: AuthOutcome | undefined;
    if (!this.deps.keys.wasFound(credential)) {
      try {
        slot = await this.deps.limiter.reserve(`ip:${clientKey}`, 'auth', this.deps.failedAuthLimit);
      } catch (e) {
        this.deps.onLimiterError(e);
        return { refused: { status: 503, message: 'rate limiter unavailable (Redis); retry shortly' } };
      }
      if (slot.decision.verdict !== 'admitted') {
        const retry = slot.decision.resetSeconds;
        slot = undefined;
        throttled = {
          refused: {
            status: 429,
            code: 'failed_auth_throttled',
            retryAfter: retry,
            message: `too many failed authentication attempts from this address: ${this.deps.failedAuthLimit} per ${this.windowSeconds} s; retry in ${retry} s with a valid key`,
          },
        };
        // over the budget: a key memory has judged (malformed, found unknown) is refused from memory, and one table lookup at a time per address
        if (cached !== undefined || this.overBudgetLookups.has(clientKey)) {
          httpMetrics.limitRejections.inc({ surface: 'auth', reason: 'rate' });
          return throttled;
        }
      }
    }
    let found: KeyLookup;
    const lane = throttled !== undefined && cached === undefined;
    if (lane) this.overBudgetLookups.add(clientKey);
    try {
      found = cached ?? (await this.deps.keys.lookup(credential));
    } catch (e) {
      // The key table is out of reach (database down, pool exhausted): nothing was judged, so the
      // slot goes back and the client is told to retry (a 503, not an internal error).
      slot?.release().catch(this.deps.onLimiterError);
      this.deps.onKeyStoreError(e);
      return {
        refused: {
          status: 503,
          retryAfter: KEY_STORE_RETRY_S,
          message: `API key check unavailable (key store unreachable); retry in ${KEY_STORE_RETRY_S} s`,
        },
      };
    } finally {
      if (lane) this.overBudgetLookups.delete(clientKey);
    }
    if (found.status === 'valid') {
      slot?.release().catch(this.deps.onLimiterError);
      return { found };
    }
    if (throttled) {
      httpMetrics.limitRejections.inc({ surface: 'auth', reason: 'rate' });
      return throttled;
    }
    return { found };
  }

  /** Runs a limiter call and sets the headers; a limiter failure answers 503 (fail closed). */
  private async withLimiter(reply: FastifyReply, call: () => Promise<Decision>): Promise<Decision | undefined> {
    try {
      const d = await call();
      setRateHeaders(reply, d, this.windowSeconds);
      return d;
    } catch (e) {
      this.deps.onLimiterError(e);
      sendError(reply, 503, 'rate limiter unavailable (Redis); retry shortly');
      return undefined;
    }
  }
}

/** A key's budget per window on a surface; enterprise keys may carry their own data rate, never above the table's ceiling. */
export function surfaceLimit(key: KeyIdentity | undefined, policy: TierPolicy, surface: Surface): number | undefined {
  if (surface === 'data' && key?.tier === 'enterprise' && key.rateLimitPerMinute !== null)
    return Math.min(key.rateLimitPerMinute, MAX_CUSTOM_RATE_PER_MINUTE);
  return policy.perMinute[surface];
}
