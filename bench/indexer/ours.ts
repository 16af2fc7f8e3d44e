/**
 * Our indexer as a black box: `apps/indexer/src/main.ts` as a process on a fresh migrated database,
 * timed from process start until `index_cursors.block_number` reaches the chain head. It is left
 * running for the head-lag phase; `stop()` ends it and drops its database and JetStream stream.
 */
import { randomBytes } from 'node:crypto';
import { connect } from 'nats';
import { Client } from 'pg';
import { dropDatabase, migrate } from '@tokensvc/persistence';
import { INFRA, createTestDatabaseUrl, freePort, stopProcess } from '@tokensvc/testing';
import { cpuMs } from '../tokens/cpu';
import { settlePostgres, startProcess, waitFor, type BenchProcess } from './proc';

export type OursBackfill =
  | { status: 'ok'; seconds: number; firstCursorSeconds: number; rows: Record<string, number>; cpuSeconds: number }
  | { status: 'failed'; reason: string; seconds: number };

export interface OursRun {
  backfill: OursBackfill;
  /** the indexed block, read from Postgres */
  cursor(): Promise<number>;
  stop(): Promise<void>;
}

const COUNTED = ['blocks', 'tokens', 'pools', 'transfers', 'balances', 'activities', 'price_points', 'candles'];

async function rowCounts(db: Client): Promise<Record<string, number>> {
  const rows: Record<string, number> = {};
  for (const t of COUNTED) rows[t] = Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${t}`)).rows[0]!.n);
  return rows;
}

/** The environment of the indexer process on the bench chain (`tag`: its own JetStream stream and subjects). */
export async function benchIndexerEnv(rpcUrl: string, manifestPath: string, dbUrl: string, tag: string): Promise<Record<string, string>> {
  return {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    NETWORKS: 'ethereum',
    RPC_URL_ETHEREUM: rpcUrl,
    DEVNET_MANIFEST: manifestPath,
    DATABASE_URL: dbUrl,
    NATS_URL: INFRA.nats,
    REDIS_URL: INFRA.redis,
    HEALTH_PORT: String(await freePort()),
    INDEXER_EVENTS_STREAM: `BENCH_INDEXER_${tag}`,
    INDEXER_EVENTS_PREFIX: `bench_${tag}`,
  };
}

/** Stops the indexer process (if any) and drops what benchIndexerEnv gave it: its database (after closing `db`) and its stream. */
export async function endBenchIndexer(proc: BenchProcess | undefined, db: Client, dbUrl: string, tag: string): Promise<void> {
  if (proc) await stopProcess(proc, 15_000);
  await db.end().catch(() => undefined);
  await dropDatabase(dbUrl);
  const nc = await connect({ servers: INFRA.nats });
  await (await nc.jetstreamManager()).streams.delete(`BENCH_INDEXER_${tag}`).catch(() => false);
  await nc.close();
}

/** `extraEnv`: on top of benchIndexerEnv (e.g. RPC_MAX_RPS_ETHEREUM through the emulator). */
export async function runOurs(
  rpcUrl: string,
  manifestPath: string,
  head: number,
  timeoutMs: number,
  log: (s: string) => void,
  extraEnv: Record<string, string> = {},
): Promise<OursRun> {
  const dbUrl = createTestDatabaseUrl('bench_indexer');
  await migrate(dbUrl);
  const db = new Client({ connectionString: dbUrl });
  await db.connect();
  const tag = randomBytes(4).toString('hex');
  let proc: BenchProcess | undefined;
  const cursor = async (): Promise<number> =>
    Number((await db.query<{ b: string }>(`SELECT block_number AS b FROM index_cursors WHERE network = 'ethereum'`)).rows[0]?.b ?? -1);
  const stop = (): Promise<void> => endBenchIndexer(proc, db, dbUrl, tag);
  try {
    await settlePostgres();
    const started = performance.now();
    // e.g. BENCH_INDEXER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the indexer (written when it stops)
    const nodeArgs = (process.env['BENCH_INDEXER_NODE_ARGS'] ?? '').split(' ').filter((a) => a !== '');
    proc = startProcess('indexer', [...nodeArgs, '-r', './tools/register.js', 'apps/indexer/src/main.ts'], {
      ...(await benchIndexerEnv(rpcUrl, manifestPath, dbUrl, tag)),
      ...extraEnv,
    });
    let firstCursorSeconds = 0;
    let last = -1;
    const outcome = await waitFor(proc, timeoutMs, 50, async () => {
      const at = await cursor();
      if (at >= 0 && firstCursorSeconds === 0) firstCursorSeconds = (performance.now() - started) / 1000;
      if (at - last >= 100) log(`  indexer at block ${(last = at)}/${head} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
      return at >= head ? at : undefined;
    });
    const seconds = (performance.now() - started) / 1000;
    // user + system time of the indexer process (both its threads) until the backfill was done
    const cpuSeconds = cpuMs(proc.child.pid ?? -1) / 1000;
    let backfill: OursBackfill;
    if (outcome.value !== undefined) backfill = { status: 'ok', seconds, firstCursorSeconds, rows: await rowCounts(db), cpuSeconds };
    else {
      const why = outcome.timedOut
        ? `cursor did not reach block ${head} within ${timeoutMs / 1000} s (last ${last})`
        : `exited with code ${outcome.exited}`;
      backfill = {
        status: 'failed',
        seconds,
        reason: `${why}; last output: ${proc.tail().split('\n').slice(-5).join(' | ').slice(0, 800)}`,
      };
    }
    return { backfill, cursor, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
