/**
 * The long run of the gateway parameter fuzz (`npm run bench -- fuzz`; the short one is
 * test/param-fuzz.int-spec.ts in `npm test`): fuzzed requests over real HTTP on loopback against a
 * gateway with its NATS backends absent, bounded by a request count and a time limit, whichever
 * comes first. Prints the figures and exits 1 on any unexpected answer (a 5xx other than the absent
 * backends' 503, a 4xx without a JSON message).
 *   fuzz-soak.ts [--requests N] [--seconds S] [--concurrency C] [--seed N]
 * bench/run.ts picks the infrastructure and passes it as FUZZ_DATABASE_URL, FUZZ_REDIS_URL and
 * FUZZ_CLOSED_NATS_URL (this gateway-project file may not import the testing harness).
 * Needs the local Postgres and Redis (as the tests do). Lives in the gateway project: it builds the
 * gateway with test options and reuses the test's generators.
 */
import 'reflect-metadata';
import fc from 'fast-check';
import {
  adversarialValues,
  fuzzTargets,
  problemOf,
  requestArbitrary,
  startFuzzGateway,
  withParam,
  type Answer,
  type FuzzInfra,
  type FuzzRequest,
} from '../test/param-fuzz';

function option(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  const v = i >= 0 ? Number(args[i + 1]) : fallback;
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} must be a positive number`);
  return v;
}

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]! : NaN;
}

function fuzzInfra(): FuzzInfra {
  const env = (name: string): string => {
    const v = process.env[name];
    if (!v) throw new Error(`${name} is not set: run the soak through \`npm run bench -- fuzz\``);
    return v;
  };
  return { databaseUrl: env('FUZZ_DATABASE_URL'), redisUrl: env('FUZZ_REDIS_URL'), closedNatsUrl: env('FUZZ_CLOSED_NATS_URL') };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const maxRequests = option(args, 'requests', 20_000);
  const seconds = option(args, 'seconds', 60);
  const concurrency = option(args, 'concurrency', 8);
  const seed = option(args, 'seed', Date.now() % 2 ** 31);
  // Loopback clients share one address: the failed-auth throttle would answer most unknown-key requests 429 without checking them.
  const { gw, key } = await startFuzzGateway(fuzzInfra(), { listen: true, options: { failedAuthLimit: 1e9 } });
  const send = async (r: FuzzRequest): Promise<Answer> => {
    const t0 = performance.now();
    const res = await fetch(`${gw.baseUrl}${r.url}`, { method: r.method, headers: r.headers });
    const body = await res.text();
    return {
      status: res.status,
      body,
      contentType: res.headers.get('content-type') ?? undefined,
      cpuMs: NaN,
      wallMs: performance.now() - t0,
    };
  };

  // Fuzzed requests, then every parameter with each adversarial value (over HTTP a 16 kB query meets Node's header limit too).
  const fuzzed = fc.sample(requestArbitrary(key), { numRuns: maxRequests, seed });
  const adversarial = fuzzTargets().flatMap((t) =>
    adversarialValues().map((v) => ({
      method: t.def.method,
      url: `${t.def.path}?${withParam(t.id, t.param, v)}`,
      headers: { authorization: `Bearer ${key}` },
    })),
  );
  const requests = [...fuzzed, ...adversarial];
  const statuses = new Map<number, number>();
  const latencies: number[] = [];
  const problems: string[] = [];
  const deadline = Date.now() + seconds * 1000;
  let next = 0;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    while (next < requests.length && Date.now() < deadline) {
      const r = requests[next++]!;
      let a: Answer;
      try {
        a = await send(r);
      } catch (e) {
        problems.push(`${r.method} ${r.url.slice(0, 160)}: ${(e as Error).message}`);
        continue;
      }
      statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
      latencies.push(a.wallMs);
      const problem = problemOf(a);
      if (problem) problems.push(`${r.method} ${r.url.slice(0, 160)} -> ${problem}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (performance.now() - started) / 1000;
  await gw.close();

  latencies.sort((a, b) => a - b);
  const fiveXX = [...statuses].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
  const out = (s: string): boolean => process.stdout.write(`${s}\n`);
  out(`gateway parameter fuzz soak (seed ${seed}, ${concurrency} connections, loopback HTTP, NATS backends absent)`);
  out(
    `requests ${latencies.length} of ${requests.length} planned (${fuzzed.length} fuzzed + ${adversarial.length} adversarial 16 kB) in ${elapsed.toFixed(1)} s (${(latencies.length / elapsed).toFixed(0)} req/s)`,
  );
  out(`statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`);
  out(`5xx ${fiveXX} (503 from the absent backends ${statuses.get(503) ?? 0}), unexpected answers ${problems.length}`);
  out(
    `latency p50 ${percentile(latencies, 0.5).toFixed(2)} ms, p99 ${percentile(latencies, 0.99).toFixed(2)} ms, max ${percentile(latencies, 1).toFixed(2)} ms`,
  );
  for (const p of problems.slice(0, 20)) out(`  ${p}`);
  process.exit(problems.length ? 1 : 0);
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).stack}\n`);
  process.exit(1);
});
