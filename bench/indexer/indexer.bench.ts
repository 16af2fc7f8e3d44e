/**
 * `npm run bench -- indexer`: backfill throughput of our indexer on a generated chain of >= 1M
 * real protocol events, next to the raw eth_getLogs + decode rate and Ponder on the same chain in
 * the same run, then head lag with the indexer following new blocks. See bench/README.md.
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runPonder } from './baselines/ponder';
import { runNodeFloor, runRawBaseline, type RawOptions, type RawResult } from './baselines/raw';
import { ensureBenchChain, type BenchChain } from './chain/generate';
import { planChain } from './chain/mix';
import { BenchRpc } from './chain/rpc';
import { BENCH_DIR } from './chain/paths';
import { cpuMs } from '../tokens/cpu';
import { measureHeadLag } from './head-lag';
import { writeBenchManifest } from './manifest';
import type { IndexerBenchOptions } from './options';
import { runOurs } from './ours';
import { formatStats, startRemoteProxy, statsDelta, type RemoteProxy } from './remote';
import { median, summarizeHeadLag, type Contender, type IndexerBenchReport } from './stats';

const HEAD_LAG_INTERVAL_MS = 1000;

/** the 1-minute load average (the machine is shared: every figure is printed next to it) */
function loadAverage(): string {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ')[0]!;
  } catch {
    return '?';
  }
}

async function rawRuns(
  chain: BenchChain,
  rpc: BenchRpc,
  raw: RawOptions,
  runs: number,
  log: (s: string) => void,
): Promise<{ contender: Contender; first: RawResult }> {
  const results: RawResult[] = [];
  for (let i = 0; i < Math.max(1, runs); i++) {
    const r = await runRawBaseline(rpc, chain.meta.world, chain.meta.head, raw);
    results.push(r);
    log(
      `  raw run ${i + 1}: ${r.events} events in ${r.seconds.toFixed(2)} s (${r.requests} eth_getLogs, ${r.capRefused} refused for a cap, ${r.throttled} 429s)`,
    );
  }
  const first = results[0]!;
  if (results.some((r) => r.events !== first.events))
    throw new Error(`raw runs disagree on the event count: ${results.map((r) => r.events).join(', ')}`);
  if (first.events < chain.meta.plan.events)
    throw new Error(
      `the bench chain holds ${first.events} events, fewer than the ${chain.meta.plan.events} generated: some pump transactions reverted`,
    );
  const seconds = median(results.map((r) => r.seconds));
  return {
    contender: {
      name: 'raw eth_getLogs + decode (no DB)',
      ok: true,
      events: first.events,
      blocks: first.blocks,
      seconds,
      note: `median of ${results.length}`,
    },
    first,
  };
}

function matchNote(label: string, rows: number | undefined, expected: number | undefined): string {
  if (rows === undefined || expected === undefined) return '';
  return rows === expected ? `${label} rows = chain (${rows})` : `${label} rows ${rows} != chain ${expected}: MISMATCH`;
}

export async function runIndexerBench(log: (s: string) => void, o: IndexerBenchOptions): Promise<IndexerBenchReport> {
  const plan = planChain(o.events, o.eventsPerTx, o.txsPerBlock);
  const chain = await ensureBenchChain(o.port, plan, log);
  const runDir = join(BENCH_DIR, `run-${process.pid}`);
  mkdirSync(runDir, { recursive: true });
  const report: IndexerBenchReport = { rows: [], traffic: [] };
  let proxy: RemoteProxy | undefined;
  try {
    const { meta } = chain;
    // --remote: every contender reads through the hosted-provider emulator (its own process)
    const r = o.remote;
    if (r) {
      proxy = await startRemoteProxy(chain.anvil.rpcUrl, r, r.port || o.port + 1);
      report.remote = `${r.roundTripMs} ms round trip, ${r.requestsPerSecond || 'no'} requests/s (burst ${r.burst}), eth_getLogs <= ${r.maxBlockRange} blocks and <= ${r.maxResults} logs, batches <= ${r.maxBatch}, failure share ${r.failureShare}; raw and floor ${o.rawInFlight} requests in flight`;
      log(`through the hosted-provider emulator at ${proxy.url}: ${report.remote}`);
    }
    const readUrl = proxy?.url ?? chain.anvil.rpcUrl;
    const readRpc = proxy ? new BenchRpc(proxy.url) : chain.rpc;
    const rawOptions: RawOptions = r
      ? { inFlight: o.rawInFlight, targetLogs: r.maxResults, maxWidth: r.maxBlockRange }
      : { inFlight: o.rawInFlight };
    /**
     * The load average around `run`, the CPU seconds anvil, the emulator and the bench process
     * (the raw baseline's decode) used meanwhile, and what the emulator counted (logged, and kept
     * for the report). The contender processes report their own CPU.
     */
    const traffic = async <T>(name: string, run: () => Promise<T>, seconds?: (t: T) => number | undefined): Promise<T> => {
      const loadBefore = loadAverage();
      const before = await proxy?.stats();
      const cpuBefore = { anvil: cpuMs(chain.anvil.pid), emulator: proxy ? cpuMs(proxy.pid) : NaN, bench: process.cpuUsage() };
      const t = await run();
      const benchCpu = process.cpuUsage(cpuBefore.bench);
      const cpu = `CPU s: anvil ${((cpuMs(chain.anvil.pid) - cpuBefore.anvil) / 1000).toFixed(1)}${proxy ? `, emulator ${((cpuMs(proxy.pid) - cpuBefore.emulator) / 1000).toFixed(1)}` : ''}, bench process ${((benchCpu.user + benchCpu.system) / 1e6).toFixed(1)}`;
      const load = `load ${loadBefore}-${loadAverage()}; ${cpu}`;
      const line = proxy && before ? `${formatStats(statsDelta(await proxy.stats(), before), seconds?.(t))}; ${load}` : load;
      log(`  ${proxy ? 'emulator, ' : ''}${name}: ${line}`);
      (report.traffic ??= []).push([name, line]);
      return t;
    };
    const blocks = meta.head - meta.world.deployBlock + 1;
    log(
      `bench chain: blocks ${meta.world.deployBlock}..${meta.head}, ${plan.events} pump events (${plan.mix.transfers} transfers, ${plan.mix.swaps} swaps, ${plan.mix.flows} vault flows per tx; ${plan.txsPerBlock} txs per block)` +
        `; ${chain.generated ? 'generated' : 'reused saved state, generated'} in ${meta.generationSeconds.toFixed(1)} s + ${meta.saveSeconds.toFixed(1)} s to save, loaded in ${chain.loadSeconds.toFixed(1)} s (${(chain.stateBytes / 1e6).toFixed(0)} MB)`,
    );

    log('raw eth_getLogs + decode');
    const raw = await traffic(`raw (${o.rawRuns} runs)`, () => rawRuns(chain, readRpc, rawOptions, o.rawRuns, log));
    report.raw = raw.contender;
    report.rows.push(raw.contender);
    log(`  by kind: ${JSON.stringify(raw.first.byKind)}`);

    log('node floor: the same eth_getLogs requests, replies read and dropped');
    const floors: number[] = [];
    for (let i = 0; i < Math.max(1, o.rawRuns); i++) {
      const f = await traffic(
        `floor run ${i + 1}`,
        () => runNodeFloor(readUrl, meta.world, raw.first.spans, o.rawInFlight),
        (x) => x.seconds,
      );
      floors.push(f.seconds);
      log(`  floor run ${i + 1}: ${(f.bytes / 1e6).toFixed(0)} MB in ${f.seconds.toFixed(2)} s`);
    }
    report.floor = {
      name: 'node floor (eth_getLogs, no parse)',
      ok: true,
      events: raw.first.events,
      blocks,
      seconds: median(floors),
      note: `median of ${floors.length}`,
    };
    report.rows.push(report.floor);

    if (o.ponder) {
      log('ponder');
      const p = await traffic(
        'ponder',
        () => runPonder(readUrl, meta.world, meta.head, runDir, o.ponderTimeoutS * 1000, log, r?.requestsPerSecond || undefined),
        (x) => x.seconds,
      );
      if (p.status === 'ok') log(`  rows: ${JSON.stringify(p.rows)}`);
      report.ponder =
        p.status === 'ok'
          ? {
              name: 'ponder 1.0.0 (postgres)',
              ok: true,
              events: raw.first.events,
              blocks,
              seconds: p.seconds,
              note: `${matchNote('transfer', p.rows['transfer'], raw.first.byKind['transfer'])}; first progress at ${p.firstProgressSeconds.toFixed(1)} s; process CPU ${p.cpuSeconds.toFixed(1)} s`,
            }
          : { name: 'ponder 1.0.0 (postgres)', ok: false, reason: p.reason };
    } else report.ponder = { name: 'ponder 1.0.0 (postgres)', ok: false, reason: 'unavailable: skipped (--no-ponder)' };
    report.rows.push(report.ponder);

    log('our indexer');
    const manifest = writeBenchManifest(meta, join(runDir, 'manifest.json'));
    // Runs 1..n-1 are stopped after their backfill; the last one stays up for the head-lag phase.
    // through the emulator the indexer gets the plan's budget as RPC_MAX_RPS, as a user would set it
    const oursEnv: Record<string, string> = r?.requestsPerSecond ? { RPC_MAX_RPS_ETHEREUM: String(r.requestsPerSecond) } : {};
    const oursRun = (run: number): ReturnType<typeof runOurs> =>
      traffic(
        `ours run ${run}`,
        () => runOurs(readUrl, manifest, meta.head, o.oursTimeoutS * 1000, log, oursEnv),
        (x) => (x.backfill.status === 'ok' ? x.backfill.seconds : undefined),
      );
    const seconds: number[] = [];
    let ours = await oursRun(1);
    const cpus: number[] = [];
    for (let run = 1; run < Math.max(1, o.oursRuns) && ours.backfill.status === 'ok'; run++) {
      seconds.push(ours.backfill.seconds);
      cpus.push(ours.backfill.cpuSeconds);
      log(`  run ${run}: ${ours.backfill.seconds.toFixed(2)} s`);
      await ours.stop();
      ours = await oursRun(run + 1);
    }
    try {
      const b = ours.backfill;
      if (b.status === 'ok') {
        seconds.push(b.seconds);
        cpus.push(b.cpuSeconds);
        log(`  run ${seconds.length}: ${b.seconds.toFixed(2)} s`);
      }
      report.ours =
        b.status === 'ok'
          ? {
              name: 'ours (apps/indexer)',
              ok: true,
              events: raw.first.events,
              blocks,
              seconds: median(seconds),
              note: `median of ${seconds.length}; ${matchNote('transfers', b.rows['transfers'], raw.first.byKind['transfer'])}; first batch at ${b.firstCursorSeconds.toFixed(1)} s; process CPU ${cpus.map((c) => c.toFixed(1)).join(' / ')} s`,
            }
          : { name: 'ours (apps/indexer)', ok: false, reason: b.reason };
      report.rows.push(report.ours);
      if (b.status === 'ok') log(`  rows: ${JSON.stringify(b.rows)}`);
      if (b.status === 'ok' && o.headLagSeconds > 0) {
        log(`head lag: ${o.headLagSeconds} blocks, one every ${HEAD_LAG_INTERVAL_MS} ms`);
        const samples = await measureHeadLag(chain.rpc, meta.world, ours.cursor, {
          blocks: o.headLagSeconds,
          intervalMs: HEAD_LAG_INTERVAL_MS,
          eventsPerBlock: o.headLagEventsPerBlock,
          settleMs: 15_000,
        });
        report.headLag = summarizeHeadLag(samples, HEAD_LAG_INTERVAL_MS, o.headLagEventsPerBlock);
      } else if (b.status !== 'ok') report.headLag = { failed: 'the indexer did not finish the backfill' };
    } finally {
      await ours.stop();
    }
    return report;
  } finally {
    await proxy?.stop();
    await chain.anvil.stop();
    rmSync(runDir, { recursive: true, force: true });
  }
}
