import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { createTestDatabaseUrl, freePort, INFRA } from '@tokensvc/testing';
import type { GatewayHarness } from './harness';
import {
  adversarialValues,
  declaredStatuses,
  ENDPOINTS,
  fuzzTargets,
  problemOf,
  requestArbitrary,
  send,
  startFuzzGateway,
  withParam,
  type Answer,
  type FuzzRequest,
} from './param-fuzz';

jest.setTimeout(120_000);

/** Fuzzed requests per run: a few seconds on a shared CI machine (the soak run does more). */
const RUNS = 1000;
/**
 * CPU a 16 kB adversarial value may cost, per request (the issue's bound): what it adds over the
 * same request with a one-character value, so the fixed cost of every request (key lookup, limiter,
 * tracing context, access log, the bus attempts of a 503) is not counted against the value.
 */
const CPU_BUDGET_MS = 5;
/** A fuzzed request's CPU bound: generous, as it includes a key lookup and the limiter's Redis round trip. */
const FUZZ_CPU_MS = 25;

/**
 * CPU of one request, the least of up to `tries` sends while it is `enoughMs` or more. The
 * process's CPU time advances in scheduler ticks (4 ms here), and a GC pause or other work of the
 * process (the bus reconnect loop, a Redis reply) may land in the window: that is noise; a
 * super-linear pattern costs the same on every try.
 */
async function leastCpu(fastify: FastifyInstance, r: FuzzRequest, tries = 5, enoughMs = CPU_BUDGET_MS): Promise<Answer> {
  let best = await send(fastify, r);
  for (let i = 1; i < tries && best.cpuMs >= enoughMs; i++) {
    // spaced out, so one burst of other work does not cover every try
    await new Promise((resolve) => setTimeout(resolve, 20 * i));
    const a = await send(fastify, r);
    if (a.cpuMs < best.cpuMs) best = a;
  }
  return best;
}

/** Mean CPU of `n` sends: the fixed cost of a request, without the tick rounding of one send. */
async function meanCpu(fastify: FastifyInstance, r: FuzzRequest, n = 8): Promise<number> {
  let total = 0;
  for (let i = 0; i < n; i++) total += (await send(fastify, r)).cpuMs;
  return total / n;
}

describe('gateway parameter fuzz: every parameter of every declared endpoint (real Fastify app, NATS backends absent)', () => {
  let gw: GatewayHarness;
  let key: string;
  let fastify: FastifyInstance;

  beforeAll(async () => {
    ({ gw, key } = await startFuzzGateway({
      databaseUrl: createTestDatabaseUrl('gw_param_fuzz'),
      redisUrl: INFRA.redis,
      closedNatsUrl: `nats://127.0.0.1:${await freePort()}`,
    }));
    fastify = gw.app.getHttpAdapter().getInstance();
    // Warm up the paths (JIT, key cache) so first-call costs are not counted against a value.
    for (const { def } of ENDPOINTS)
      await send(fastify, { method: def.method, url: def.path, headers: { authorization: `Bearer ${key}` } });
  });

  afterAll(async () => {
    await gw?.close();
  });

  it('derives the parameter list from the declarations', () => {
    const targets = fuzzTargets();
    expect(new Set(targets.map((t) => t.id)).size).toBeGreaterThanOrEqual(12);
    expect(targets.some((t) => t.id === 'estimate' && t.param === 'slippageTolerancePercentage')).toBe(true);
    expect(targets.length).toBeGreaterThanOrEqual(50);
  });

  it(`${RUNS} property-based requests: no 5xx but the absent backends' 503, every 4xx a JSON error with a message, each answered fast`, async () => {
    const statuses = new Map<number, number>();
    const cpu: number[] = [];
    const wall: number[] = [];
    await fc.assert(
      fc.asyncProperty(requestArbitrary(key), async (r) => {
        const a = await send(fastify, r);
        statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
        cpu.push(a.cpuMs);
        wall.push(a.wallMs);
        const problem = problemOf(a);
        if (problem) throw new Error(`${r.method} ${r.url.slice(0, 300)} -> ${problem}`);
        // The OpenAPI document declares every status the operation answers.
        const def = ENDPOINTS.find((e) => e.id === r.id)!.def;
        if (!declaredStatuses(def).has(a.status))
          throw new Error(
            `${r.method} ${def.path} answered ${a.status}, which its OpenAPI operation does not declare: ${a.body.slice(0, 200)}`,
          );
        if (a.cpuMs > FUZZ_CPU_MS) {
          const again = await leastCpu(fastify, r);
          if (again.cpuMs > FUZZ_CPU_MS) throw new Error(`${r.method} ${r.url.slice(0, 200)} took ${again.cpuMs.toFixed(1)} ms of CPU`);
        }
      }),
      { numRuns: RUNS },
    );
    const pct = (xs: number[], p: number): string =>
      [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!.toFixed(2);
    process.stdout.write(
      `param fuzz: ${cpu.length} requests, statuses ${JSON.stringify(Object.fromEntries(statuses))}, CPU p50 ${pct(cpu, 0.5)} p99 ${pct(cpu, 0.99)} ms, latency p50 ${pct(wall, 0.5)} p99 ${pct(wall, 0.99)} ms\n`,
    );
    // The mix reached both sides of validation: refused (400) and forwarded to the absent backends (503).
    expect(statuses.get(400) ?? 0).toBeGreaterThan(RUNS / 4);
    expect(statuses.get(503) ?? 0).toBeGreaterThan(RUNS / 50);
  });

  it(`answers 16 kB adversarial values in every parameter of every endpoint within ${CPU_BUDGET_MS} ms of CPU each`, async () => {
    const slow: string[] = [];
    const cpu: number[] = [];
    const worst: Array<{ what: string; ms: number }> = [];
    let count = 0;
    for (const t of fuzzTargets()) {
      const request = (value: string): FuzzRequest => ({
        method: t.def.method,
        url: `${t.def.path}?${withParam(t.id, t.param, value)}`,
        headers: { authorization: `Bearer ${key}` },
      });
      // the same request's fixed cost, with a one-character value
      const base = await meanCpu(fastify, request('x'));
      for (const value of adversarialValues()) {
        const a = await leastCpu(fastify, request(value), 10, base + CPU_BUDGET_MS);
        count++;
        cpu.push(a.cpuMs - base);
        worst.push({ what: `${t.id}.${t.param} ${JSON.stringify(value.slice(0, 12))}… ${a.status}`, ms: a.cpuMs - base });
        const problem = problemOf(a);
        if (problem) slow.push(`${t.id}.${t.param} = ${JSON.stringify(value.slice(0, 24))}…: ${problem}`);
        if (a.cpuMs - base >= CPU_BUDGET_MS)
          slow.push(
            `${t.id}.${t.param} = ${JSON.stringify(value.slice(0, 24))}… (${value.length} chars): ${(a.cpuMs - base).toFixed(1)} ms of CPU over the one-character value's ${base.toFixed(1)} ms, status ${a.status}`,
          );
      }
    }
    cpu.sort((x, y) => x - y);
    process.stdout.write(
      `adversarial: ${count} requests (${fuzzTargets().length} parameters x ${adversarialValues().length} values), CPU over a one-character value p50 ${cpu[count >> 1]!.toFixed(2)} ms, max ${cpu[count - 1]!.toFixed(2)} ms\n`,
    );
    process.stdout.write(
      `slowest: ${worst
        .sort((x, y) => y.ms - x.ms)
        .slice(0, 3)
        .map((w) => `${w.what} ${w.ms.toFixed(2)} ms`)
        .join('; ')}\n`,
    );
    expect(slow).toEqual([]);
  });
});
