import { sleep } from './abort';
import { readRateLimit } from './errors';

export interface RetryOptions {
  /** how many times a 429 is retried (default 0: a 429 is thrown as a TokensvcError at once) */
  maxRetries?: number;
  /** the longest wait the client accepts; a longer retry-after is not waited for (default 60 s) */
  maxWaitMs?: number;
  /** the wait when a 429 carries no retry-after (doubled per attempt; default 1 s) */
  fallbackWaitMs?: number;
}

type Fetch = (input: Request, init?: RequestInit) => Promise<Response>;

/**
 * A fetch that retries a 429 after the retry-after it names (or ratelimit-reset; else a doubling
 * fallback), at most `maxRetries` times, and never longer than `maxWaitMs` per wait. The request's
 * signal ends a wait. Any other answer is returned as it is.
 */
export function retryingFetch(base: Fetch, opts: RetryOptions = {}): Fetch {
  const maxRetries = opts.maxRetries ?? 0;
  const maxWaitMs = opts.maxWaitMs ?? 60_000;
  const fallback = opts.fallbackWaitMs ?? 1000;
  return async (request, init) => {
    for (let attempt = 0; ; attempt++) {
      const res = await base(attempt < maxRetries ? request.clone() : request, init);
      if (res.status !== 429 || attempt >= maxRetries) return res;
      const rl = readRateLimit(res.headers);
      const waitMs =
        rl.retryAfter !== undefined ? rl.retryAfter * 1000 : rl.reset !== undefined ? rl.reset * 1000 : fallback * 2 ** attempt;
      if (waitMs > maxWaitMs) return res;
      await res.body?.cancel().catch(() => undefined);
      await sleep(waitMs, request.signal);
    }
  };
}
