/** Exponential backoff with full jitter for RPC calls (a flaky node must not stall or stampede). */
export interface RetryPolicy {
  /** total attempts, including the first */
  readonly attempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 6, baseDelayMs: 200, maxDelayMs: 10_000 };

/** Delay before retry number `attempt` (0-based): uniform in [0, min(max, base * 2^attempt)]. */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.floor(random() * cap);
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Runs `fn` until it succeeds, the error is not retryable, or the attempts are used up. */
export async function withRetry<T>(
  fn: (attempt: number) => Promise<T>,
  isRetryable: (e: unknown) => boolean,
  policy: RetryPolicy = DEFAULT_RETRY,
  onRetry?: (e: unknown, attempt: number, delayMs: number) => void,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (e) {
      if (attempt + 1 >= policy.attempts || !isRetryable(e)) throw e;
      const delay = backoffDelay(attempt, policy);
      onRetry?.(e, attempt, delay);
      await sleep(delay);
    }
  }
}
