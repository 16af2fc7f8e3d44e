import { retryOnce } from './retry-once';

class Gone extends Error {}
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Attempts that each behave as scripted; records when each started and the time it was given. */
function scripted(...plans: Array<(timeoutMs: number) => Promise<string>>): {
  attempt: (ms: number) => Promise<string>;
  calls: Array<{ at: number; timeoutMs: number }>;
} {
  const t0 = Date.now();
  const calls: Array<{ at: number; timeoutMs: number }> = [];
  return {
    calls,
    attempt: (timeoutMs) => {
      calls.push({ at: Date.now() - t0, timeoutMs });
      const plan = plans[calls.length - 1];
      if (!plan) throw new Error(`attempt ${calls.length} was not expected`);
      return plan(timeoutMs);
    },
  };
}
const answerAfter = (ms: number, value: string) => async (): Promise<string> => (await sleep(ms), value);
const failAfter = (ms: number, e: Error) => async (): Promise<string> => {
  await sleep(ms);
  throw e;
};
const opts = { deadlineMs: 1000, hedgeAfterMs: 300, pauseMs: 50, retryable: (e: unknown) => e instanceof Gone };

describe('retryOnce: one call, at most two attempts, one deadline', () => {
  it('answers with the first attempt when it answers in time, and sends nothing more', async () => {
    const s = scripted(answerAfter(20, 'first'));
    await expect(retryOnce(s.attempt, opts)).resolves.toBe('first');
    await sleep(350);
    expect(s.calls).toHaveLength(1);
  });

  it('sends a second attempt when the first has no answer at hedgeAfterMs (a lost reply), within what is left of the deadline', async () => {
    const s = scripted((ms) => failAfter(ms, new Error('timeout'))(), answerAfter(20, 'second'));
    const t = Date.now();
    await expect(retryOnce(s.attempt, opts)).resolves.toBe('second');
    expect(Date.now() - t).toBeLessThan(600);
    expect(s.calls).toHaveLength(2);
    expect(s.calls[1]!.at).toBeGreaterThanOrEqual(290);
    // `at` counts from the script's creation, a millisecond or so before retryOnce starts its
    // deadline (a full run saw 1001): both attempts end within the deadline, give or take that.
    expect(s.calls[0]!.timeoutMs + s.calls[0]!.at).toBeLessThanOrEqual(1005);
    expect(s.calls[1]!.timeoutMs + s.calls[1]!.at).toBeLessThanOrEqual(1005);
  });

  it('takes a slow first answer that comes before the second', async () => {
    const s = scripted(answerAfter(400, 'slow first'), answerAfter(500, 'second'));
    await expect(retryOnce(s.attempt, opts)).resolves.toBe('slow first');
    expect(s.calls).toHaveLength(2);
  });

  it('tries again after pauseMs when no replica listens, and only once', async () => {
    const s = scripted(failAfter(5, new Gone('no responders')), failAfter(5, new Gone('still none')));
    const t = Date.now();
    await expect(retryOnce(s.attempt, opts)).rejects.toThrow('still none');
    expect(Date.now() - t).toBeLessThan(300);
    expect(s.calls).toHaveLength(2);
    expect(s.calls[1]!.at).toBeGreaterThanOrEqual(45);
  });

  it('does not repeat an answer that is a failure of the service (not retryable)', async () => {
    const s = scripted(failAfter(5, new Error('bad request')));
    await expect(retryOnce(s.attempt, opts)).rejects.toThrow('bad request');
    await sleep(350);
    expect(s.calls).toHaveLength(1);
  });

  it('fails at the deadline when neither attempt answers, with the failure of the last to fail', async () => {
    const s = scripted(
      (ms) => failAfter(ms, new Error('first timed out'))(),
      (ms) => failAfter(ms, new Error('second timed out'))(),
    );
    const t = Date.now();
    await expect(retryOnce(s.attempt, opts)).rejects.toThrow(/^(first|second) timed out$/);
    const took = Date.now() - t;
    expect(took).toBeGreaterThanOrEqual(990);
    expect(took).toBeLessThan(1200);
  });
});
