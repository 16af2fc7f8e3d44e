/**
 * Baseline 2: Ponder (npm `ponder`, pinned) indexing the same contracts and events into its own
 * fresh Postgres database (bench/ponder: a row per event, balances from Transfers, pool state from
 * Syncs). Timed from process start until Ponder's /status reports the chain head and /ready is 200.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { dropDatabase, ensureDatabase } from '@tokensvc/persistence';
import { createTestDatabaseUrl, freePort, stopProcess } from '@tokensvc/testing';
import { cpuMs } from '../../tokens/cpu';
import { REPO_ROOT } from '../chain/paths';
import type { BenchWorld } from '../chain/world';
import { settlePostgres, startProcess, waitFor } from '../proc';

export type PonderResult =
  | { status: 'ok'; seconds: number; blocks: number; rows: Record<string, number>; firstProgressSeconds: number; cpuSeconds: number }
  | { status: 'failed'; reason: string; seconds: number };

const PONDER_BIN = join(REPO_ROOT, 'node_modules', 'ponder', 'dist', 'esm', 'bin', 'ponder.js');
const PONDER_ROOT = join(REPO_ROOT, 'bench', 'ponder');
const SCHEMA = 'bench';
const TABLES = ['transfer', 'balance', 'swap', 'pool', 'liquidity', 'vault_flow'];

type Status = Record<string, { ready: boolean; block: { number: number } | null }>;

async function tableCounts(url: string): Promise<Record<string, number>> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const rows: Record<string, number> = {};
    for (const t of TABLES)
      rows[t] = Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM "${SCHEMA}"."${t}"`)).rows[0]!.n);
    return rows;
  } finally {
    await client.end();
  }
}

/** `maxRequestsPerSecond`: Ponder's budget for the RPC (default 1000). */
export async function runPonder(
  rpcUrl: string,
  world: BenchWorld,
  head: number,
  runDir: string,
  timeoutMs: number,
  log: (s: string) => void,
  maxRequestsPerSecond?: number,
): Promise<PonderResult> {
  const dbUrl = createTestDatabaseUrl('bench_ponder');
  await ensureDatabase(dbUrl);
  const specFile = join(runDir, 'ponder-spec.json');
  writeFileSync(
    specFile,
    JSON.stringify({
      rpcUrl,
      maxRequestsPerSecond,
      chainId: world.chainId,
      startBlock: world.deployBlock,
      tokens: world.tokens.map((t) => t.address),
      pairs: world.pairs.map((p) => p.address),
      vaults: world.vaults.map((v) => v.address),
    }),
  );
  const port = await freePort();
  await settlePostgres();
  const started = performance.now();
  const proc = startProcess(
    'ponder',
    [PONDER_BIN, 'start', '--root', PONDER_ROOT, '--port', String(port), '--schema', SCHEMA, '--log-format', 'json', '--log-level', 'warn'],
    {
      DATABASE_URL: dbUrl,
      PONDER_BENCH_SPEC: specFile,
      PONDER_TELEMETRY_DISABLED: 'true',
      NODE_ENV: 'production',
    },
  );
  try {
    let last = 0;
    let firstProgressSeconds = 0;
    const outcome = await waitFor(proc, timeoutMs, 100, async () => {
      const status = (await (await fetch(`http://127.0.0.1:${port}/status`, { signal: AbortSignal.timeout(2000) })).json()) as Status;
      const block = status['bench']?.block?.number ?? 0;
      if (block > 0 && firstProgressSeconds === 0) firstProgressSeconds = (performance.now() - started) / 1000;
      if (block - last >= 100) log(`  ponder at block ${(last = block)}/${head} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
      if (block < head || !status['bench']?.ready) return undefined;
      return (await fetch(`http://127.0.0.1:${port}/ready`, { signal: AbortSignal.timeout(2000) })).status === 200 ? true : undefined;
    });
    const seconds = (performance.now() - started) / 1000;
    // user + system time of the Ponder process (its threads included) until it was done
    const cpuSeconds = cpuMs(proc.child.pid ?? -1) / 1000;
    if (outcome.value)
      return {
        status: 'ok',
        seconds,
        blocks: head - world.deployBlock + 1,
        rows: await tableCounts(dbUrl),
        firstProgressSeconds,
        cpuSeconds,
      };
    const why = outcome.timedOut
      ? `did not reach block ${head} within ${timeoutMs / 1000} s (last status block ${last})`
      : `exited with code ${outcome.exited}`;
    return { status: 'failed', seconds, reason: `${why}; last output: ${proc.tail().split('\n').slice(-5).join(' | ').slice(0, 800)}` };
  } finally {
    await stopProcess(proc, 10_000);
    await dropDatabase(dbUrl);
  }
}
