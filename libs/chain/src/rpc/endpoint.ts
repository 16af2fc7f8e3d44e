/**
 * What the client has learned about one RPC URL: its health (recent failures, latency), its
 * request budget (a token bucket), a rate-limit pause (429, Retry-After), the largest batch it
 * accepts and the last head it reported. Pure state with an injected clock; RpcPool drives it.
 */
export interface EndpointOptions {
  /** requests per second allowed to this URL; 0 = no budget */
  maxRps: number;
  /** first batch size tried (shrinks when the URL refuses a batch) */
  maxBatch: number;
}

/** latency and failure share are exponentially weighted over about the last 1/ALPHA requests */
const ALPHA = 0.2;
/** a failure costs as much as this many ms of latency when choosing a URL */
const FAILURE_PENALTY_MS = 2_000;

export class RpcEndpoint {
  /** largest batch this URL answered in full (halved on a refused or short batch, never below 1) */
  batchCap: number;
  /** the last head this URL reported, lowered when it lacked a block; undefined until known */
  head: number | undefined;
  /** recent latency (ms, EWMA) */
  latencyMs = 50;
  /** recent share of failed requests (EWMA, 0..1) */
  failureShare = 0;
  /** no request before this time (a 429's pause) */
  throttledUntil = 0;
  /** requests sent and not answered yet */
  inflight = 0;
  private throttles = 0;
  private tokens: number;
  private refilledAt: number;

  constructor(
    readonly url: string,
    private readonly o: EndpointOptions,
    now: number,
  ) {
    if (o.maxBatch < 1) throw new Error('maxBatch must be at least 1');
    this.batchCap = o.maxBatch;
    this.tokens = Math.max(1, o.maxRps);
    this.refilledAt = now;
  }

  /** ms before a request to this URL should go (a 429's pause, the budget) without taking a token */
  waitMs(now: number): number {
    const pause = Math.max(0, this.throttledUntil - now);
    if (this.o.maxRps <= 0) return pause;
    const tokens = Math.min(Math.max(1, this.o.maxRps), this.tokens + ((now - this.refilledAt) * this.o.maxRps) / 1000);
    return Math.max(pause, tokens >= 1 ? 0 : ((1 - tokens) * 1000) / this.o.maxRps);
  }

  /**
   * Takes a token for one request; returns how long to wait before sending it (the token is
   * reserved meanwhile, so concurrent callers queue up instead of all waking at once).
   */
  reserve(now: number): number {
    const pause = Math.max(0, this.throttledUntil - now);
    if (this.o.maxRps <= 0) return pause;
    const burst = Math.max(1, this.o.maxRps);
    this.tokens = Math.min(burst, this.tokens + ((now - this.refilledAt) * this.o.maxRps) / 1000);
    this.refilledAt = now;
    this.tokens -= 1;
    return Math.max(pause, this.tokens >= 0 ? 0 : (-this.tokens * 1000) / this.o.maxRps);
  }

  /**
   * What choosing this URL is expected to cost (ms): its wait, its latency (times the requests
   * already in flight there, so concurrent requests spread over equally good URLs) and its recent
   * failures.
   */
  cost(now: number): number {
    return this.waitMs(now) + this.latencyMs * (1 + this.inflight) + this.failureShare * FAILURE_PENALTY_MS;
  }

  onAnswer(latencyMs: number): void {
    this.latencyMs += ALPHA * (latencyMs - this.latencyMs);
    this.failureShare *= 1 - ALPHA;
    this.throttles = 0;
  }

  /** a dropped connection, a timeout, a 5xx, a broken reply */
  onFailure(): void {
    this.failureShare += ALPHA * (1 - this.failureShare);
  }

  /**
   * A 429: no request to this URL before Retry-After (at most a minute), or else before an
   * exponential pause with jitter (0.5 s, 1 s, 2 s ... up to `capMs`, each times 0.5..1).
   */
  onThrottled(now: number, retryAfterMs: number | undefined, random: () => number, capMs = 10_000): number {
    const backoff = Math.min(Math.max(500, capMs), 500 * 2 ** this.throttles) * (0.5 + random() / 2);
    this.throttles++;
    const pause = retryAfterMs !== undefined ? Math.min(60_000, retryAfterMs) : backoff;
    this.throttledUntil = Math.max(this.throttledUntil, now + pause);
    return pause;
  }

  /** the URL refused (or cut short) a batch of `size`: later batches are at most `answered`, else half */
  shrinkBatch(size: number, answered = 0): void {
    const to = answered > 0 && answered < size ? answered : Math.floor(size / 2);
    this.batchCap = Math.max(1, Math.min(this.batchCap, to));
  }

  /** the URL does not have `block` yet: its head is below it */
  lacks(block: number): void {
    this.head = this.head === undefined ? block - 1 : Math.min(this.head, block - 1);
  }
}
