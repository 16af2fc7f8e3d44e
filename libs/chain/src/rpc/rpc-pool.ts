/**
 * The RPC URLs of one network, and the loop that sends a request through them: the cheapest URL
 * first (health score, budget, rate-limit pause), a failed request at once to another URL (then,
 * all tried, after a backoff with jitter), a 429 pausing only its URL (Retry-After honoured), a
 * node that lacks a block skipped for that block. Hand-written: the JSON-RPC libraries on npm
 * (ethers' FallbackProvider, viem's fallback transport) rank and fail over whole providers but do
 * not learn batch caps, log ranges or a lagging node's head, and would replace our parsing path.
 */
import { RpcEndpoint } from './endpoint';
import { BlockNotOnNodeError, RpcTransportError, isBehindError, isRateLimitError, isRetryableRpcError } from './errors';
import { DEFAULT_RETRY, backoffDelay, sleep, type RetryPolicy } from './retry';

export interface RpcPoolOptions {
  /** per-URL request budget (requests per second); default 0 = none */
  maxRps?: number;
  /** first batch size tried per URL; default 100 */
  maxBatch?: number;
  /** attempts per request on failures (a failover counts as one); default DEFAULT_RETRY */
  retry?: RetryPolicy;
  /** 429s tolerated per request (each pauses only its URL); default 5 per retry attempt (30 with DEFAULT_RETRY) */
  maxThrottles?: number;
  /** a URL whose head is more than this many blocks below the best is left out of the safe head; default 16 */
  maxHeadLag?: number;
  now?: () => number;
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export interface RunOptions<T> {
  /** for messages and onRetry */
  method: string;
  /** the request needs this block: URLs known to be below it are skipped while others exist */
  minBlock?: number;
  /** errors thrown to the caller at once (e.g. "range too large": the caller asks for less) */
  giveUp?: (e: unknown) => boolean;
  /** which failures are tried again (elsewhere first); default isRetryableRpcError */
  retryIf?: (e: unknown) => boolean;
  /** every URL lacked the block (BlockNotOnNodeError or "beyond head"): this answer instead of waiting */
  whenNoneHasIt?: () => T;
  onRetry?: (method: string, e: unknown, attempt: number) => void;
}

export class RpcPool {
  readonly endpoints: readonly RpcEndpoint[];
  readonly maxHeadLag: number;
  private readonly retry: RetryPolicy;
  private readonly maxThrottles: number;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(urls: string | readonly string[], o: RpcPoolOptions = {}) {
    const list = typeof urls === 'string' ? [urls] : [...urls];
    if (list.length === 0) throw new Error('an RPC pool needs at least one URL');
    this.now = o.now ?? Date.now;
    this.random = o.random ?? Math.random;
    this.sleep = o.sleep ?? sleep;
    this.retry = o.retry ?? DEFAULT_RETRY;
    this.maxThrottles = o.maxThrottles ?? 5 * this.retry.attempts;
    this.maxHeadLag = o.maxHeadLag ?? 16;
    const start = this.now();
    this.endpoints = list.map((url) => new RpcEndpoint(url, { maxRps: o.maxRps ?? 0, maxBatch: o.maxBatch ?? 100 }, start));
  }

  /**
   * The URL to send to: not in `skip`, not known to be below `minBlock` (unless every URL is),
   * the lowest expected cost. Undefined when every URL is in `skip`.
   */
  pick(skip: ReadonlySet<RpcEndpoint>, minBlock?: number): RpcEndpoint | undefined {
    const open = this.endpoints.filter((e) => !skip.has(e));
    const has = minBlock === undefined ? open : open.filter((e) => e.head === undefined || e.head >= minBlock);
    const now = this.now();
    let best: RpcEndpoint | undefined;
    for (const e of has.length > 0 ? has : open) if (!best || e.cost(now) < best.cost(now)) best = e;
    return best;
  }

  /**
   * Runs `send` against the pool's URLs until it succeeds: failures move to another URL at once
   * and, once every URL failed, wait a backoff with jitter; 429s pause their URL; a URL lacking
   * the block is skipped (and remembered as behind).
   */
  async run<T>(send: (e: RpcEndpoint) => Promise<T>, o: RunOptions<T>): Promise<T> {
    const retryIf = o.retryIf ?? isRetryableRpcError;
    const tried = new Set<RpcEndpoint>();
    const lacking = new Set<RpcEndpoint>();
    // One more attempt per extra URL, so a failover does not eat a single URL's retries.
    const attempts = this.retry.attempts + this.endpoints.length - 1;
    let failures = 0;
    let rounds = 0;
    let throttles = 0;
    for (;;) {
      let picked = this.pick(tried, o.minBlock);
      if (!picked) {
        if (o.whenNoneHasIt && lacking.size === this.endpoints.length) return o.whenNoneHasIt();
        tried.clear();
        lacking.clear();
        await this.sleep(backoffDelay(rounds++, this.retry, this.random));
        picked = this.pick(tried, o.minBlock)!;
      }
      const e = picked;
      const answered = await this.attempt(e, send, (err, started) => {
        if (o.giveUp?.(err)) {
          // A timeout may be a range too large, or a URL that hangs: the latter must lose its rank.
          if (err instanceof RpcTransportError && err.status === undefined) e.onFailure();
          else e.onAnswer(this.now() - started);
          throw err;
        }
        if (isRateLimitError(err)) {
          e.onThrottled(this.now(), err instanceof RpcTransportError ? err.retryAfterMs : undefined, this.random, this.retry.maxDelayMs);
          if (++throttles > this.maxThrottles) throw err;
          o.onRetry?.(o.method, err, failures + throttles - 1);
          return;
        }
        if (isBehindError(err)) {
          // Not a failure of the node: it is behind (or a load balancer sent us to a backend that is).
          const block = err instanceof BlockNotOnNodeError ? err.block : o.minBlock;
          if (block !== undefined) e.lacks(block);
          lacking.add(e);
        } else if (retryIf(err)) e.onFailure();
        else {
          e.onAnswer(this.now() - started);
          throw err;
        }
        tried.add(e);
        if (++failures >= attempts) throw err;
        o.onRetry?.(o.method, err, failures - 1);
      });
      if (answered) return answered.result;
    }
  }

  /** One attempt on `e` (its budget and 429 pause respected, its health updated), no retry. */
  async once<T>(e: RpcEndpoint, send: (e: RpcEndpoint) => Promise<T>): Promise<T> {
    const answered = await this.attempt(e, send, (err) => {
      if (isRateLimitError(err))
        e.onThrottled(this.now(), err instanceof RpcTransportError ? err.retryAfterMs : undefined, this.random, this.retry.maxDelayMs);
      else if (isRetryableRpcError(err) && !isBehindError(err)) e.onFailure();
      throw err;
    });
    return answered!.result;
  }

  /**
   * One call on `e`: waits out its budget, counts it in flight and records the answer's latency.
   * A failure goes to `onError` (with when the call started) while the call still counts in
   * flight; it rethrows, or returns to have the call given up for a retry (then undefined).
   */
  private async attempt<T>(
    e: RpcEndpoint,
    send: (e: RpcEndpoint) => Promise<T>,
    onError: (err: unknown, started: number) => void,
  ): Promise<{ result: T } | undefined> {
    const wait = e.reserve(this.now());
    if (wait > 0) await this.sleep(wait);
    const started = this.now();
    e.inflight++;
    try {
      const result = await send(e);
      e.onAnswer(this.now() - started);
      return { result };
    } catch (err) {
      onError(err, started);
      return undefined;
    } finally {
      e.inflight--;
    }
  }

  /**
   * The head to index up to from the heads the URLs just reported: the lowest among the URLs
   * within maxHeadLag blocks of the highest (a URL further behind is stale: it is not waited for,
   * and block reads above its head go elsewhere). Undefined when nothing was reported.
   */
  safeHead(reported: ReadonlyArray<{ endpoint: RpcEndpoint; head: number }>): number | undefined {
    for (const r of reported) r.endpoint.head = r.head;
    if (reported.length === 0) return undefined;
    const best = Math.max(...reported.map((r) => r.head));
    return Math.min(...reported.map((r) => r.head).filter((h) => h >= best - this.maxHeadLag));
  }
}
