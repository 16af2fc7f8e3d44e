import fc from 'fast-check';
import { backoffDelay, withRetry } from './retry';

describe('retry with backoff', () => {
  const policy = { attempts: 4, baseDelayMs: 1, maxDelayMs: 5 };

  it('draws delays in [0, min(max, base * 2^attempt)] (full jitter)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 }), fc.double({ min: 0, max: 0.999999, noNaN: true }), (attempt, rnd) => {
        const p = { attempts: 10, baseDelayMs: 100, maxDelayMs: 10_000 };
        const d = backoffDelay(attempt, p, () => rnd);
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThanOrEqual(Math.min(p.maxDelayMs, p.baseDelayMs * 2 ** attempt));
      }),
    );
  });

  it('retries retryable failures until success', async () => {
    let calls = 0;
    const out = await withRetry(
      async () => (++calls < 3 ? Promise.reject(new Error('flaky')) : 'ok'),
      () => true,
      policy,
    );
    expect([out, calls]).toEqual(['ok', 3]);
  });

  it('gives up after the attempts, and at once on a non-retryable error', async () => {
    let calls = 0;
    await expect(
      withRetry(
        async () => Promise.reject(new Error(`fail ${++calls}`)),
        () => true,
        policy,
      ),
    ).rejects.toThrow('fail 4');
    calls = 0;
    await expect(
      withRetry(
        async () => Promise.reject(new Error(`fatal ${++calls}`)),
        () => false,
        policy,
      ),
    ).rejects.toThrow('fatal 1');
  });
});
