import Redis from 'ioredis';
import { INFRA } from '@tokensvc/testing';
import { RateLimiter, type Verdict } from './rate-limiter';

jest.setTimeout(60_000); // real services; Jest ignores the project-level testTimeout (default 5 s)

/**
 * Accuracy of the sliding-log limiter on real Redis, with three limiter instances (three gateway
 * replicas) sharing the budgets. Decision times come from the Redis clock the script reads, so the
 * analysis is exact: in every rolling window no subject has more than `LIMIT` admissions, and a
 * request is refused only when the window before it already holds `LIMIT` admissions.
 */
const WINDOW_MS = 2000;
const WINDOW_US = WINDOW_MS * 1000;
const LIMIT = 20;
const RUN_MS = 6500;

interface Outcome {
  readonly at: number;
  readonly verdict: Verdict;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Admissions in (t - W, t] around each decision, over the sorted admission times. */
function analyse(outcomes: readonly Outcome[]): { maxInWindow: number; underLimit: number; wronglyRefused: number; admitted: number } {
  const admitted = outcomes
    .filter((o) => o.verdict === 'admitted')
    .map((o) => o.at)
    .sort((a, b) => a - b);
  // index of the first admission later than x (binary search)
  const after = (x: number): number => {
    let a = 0;
    let b = admitted.length;
    while (a < b) {
      const m = (a + b) >> 1;
      if (admitted[m]! <= x) a = m + 1;
      else b = m;
    }
    return a;
  };
  const countIn = (t: number): number => after(t) - after(t - WINDOW_US);
  let maxInWindow = 0;
  for (const t of admitted) maxInWindow = Math.max(maxInWindow, countIn(t));
  let wronglyRefused = 0;
  let underLimit = admitted.length;
  for (const o of outcomes) {
    if (o.verdict === 'admitted') continue;
    if (countIn(o.at) < LIMIT) {
      wronglyRefused += 1;
      underLimit += 1;
    }
  }
  return { maxInWindow, underLimit, wronglyRefused, admitted: admitted.length };
}

describe('RateLimiter accuracy (real Redis, three replicas)', () => {
  const clients = [0, 1, 2].map(() => new Redis(INFRA.redis, { enableAutoPipelining: true }));
  const prefix = `tsvc-acc:${process.pid}:${Date.now()}`;
  const limiters = clients.map((c) => new RateLimiter(c, prefix, WINDOW_MS));
  let n = 0;
  const replica = (): RateLimiter => limiters[n++ % limiters.length]!;

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.quit()));
  });

  it('never admits more than the limit in any rolling window and refuses nothing below it', async () => {
    const outcomes = new Map<string, Outcome[]>();
    const hit = async (subject: string): Promise<void> => {
      const d = await replica().consume(subject, 'data', LIMIT);
      const list = outcomes.get(subject) ?? [];
      list.push({ at: d.atMicros, verdict: d.verdict });
      outcomes.set(subject, list);
    };
    const until = Date.now() + RUN_MS;
    const loops: Promise<void>[] = [];
    const every = (ms: number, fire: () => Promise<void>): void => {
      loops.push(
        (async () => {
          const pending: Promise<void>[] = [];
          while (Date.now() < until) {
            pending.push(fire());
            await sleep(ms);
          }
          await Promise.all(pending);
        })(),
      );
    };
    // Bursts of 1.5x the limit every half window: they straddle window boundaries.
    every(WINDOW_MS / 2, () => Promise.all(Array.from({ length: 30 }, () => hit('burst'))).then(() => undefined));
    // A steady stream at twice the limit.
    every(WINDOW_MS / (2 * LIMIT), () => hit('steady-over'));
    // A steady stream just under the limit: must never be refused.
    every(WINDOW_MS / (LIMIT - 3), () => hit('steady-under'));
    // Steady plus random bursts, jittered.
    every(60, () =>
      Math.random() < 0.1
        ? Promise.all(Array.from({ length: 8 + Math.floor(Math.random() * 20) }, () => hit('mixed'))).then(() => undefined)
        : hit('mixed'),
    );
    await Promise.all(loops);

    const report = Object.fromEntries([...outcomes].map(([subject, list]) => [subject, { requests: list.length, ...analyse(list) }]));
    process.stdout.write(`rate-limiter accuracy (limit ${LIMIT} per ${WINDOW_MS} ms): ${JSON.stringify(report)}\n`);
    for (const [subject, r] of Object.entries(report)) {
      expect([subject, r.maxInWindow <= LIMIT]).toEqual([subject, true]);
      expect(r.wronglyRefused / Math.max(1, r.underLimit)).toBeLessThan(0.01);
    }
    // The loaded subjects used their budget: at least LIMIT admissions per elapsed window.
    for (const s of ['burst', 'steady-over', 'mixed'])
      expect(report[s]!.admitted).toBeGreaterThanOrEqual(LIMIT * Math.floor(RUN_MS / WINDOW_MS));
    expect(report['burst']!.requests - report['burst']!.admitted).toBeGreaterThan(0);
    expect(report['steady-under']!.requests).toBe(report['steady-under']!.admitted);
  });

  it('reports remaining and reset consistently with the log', async () => {
    const subject = `reset-${Date.now()}`;
    const first = await limiters[0]!.consume(subject, 'trading', 3);
    expect(first).toMatchObject({ verdict: 'admitted', limit: 3, remaining: 2, resetSeconds: 2 });
    await limiters[1]!.consume(subject, 'trading', 3);
    await limiters[2]!.consume(subject, 'trading', 3);
    const refused = await limiters[0]!.consume(subject, 'trading', 3);
    expect(refused).toMatchObject({ verdict: 'rate', remaining: 0 });
    // Nothing was added by the refusal: the oldest admission frees a slot within the window.
    expect(refused.resetSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.resetSeconds).toBeLessThanOrEqual(2);
    const peek = await limiters[1]!.peek(subject, 'trading', 3);
    expect(peek).toMatchObject({ remaining: 0 });
    // The data surface of the same subject is a separate budget.
    expect((await limiters[2]!.consume(subject, 'data', 3)).remaining).toBe(2);
  });
});
