/**
 * Per-event costs for the cost model of docs/real-networks.md: backfills the devnet's saved ethereum
 * chain (a private anvil on port 29610) into a fresh database with the derivation stage, counting
 * JSON-RPC calls (each call of a batch counts), logs, the process's CPU, and rows and bytes per
 * table (pg_total_relation_size after VACUUM ANALYZE).
 *   node -r ./tools/register.js apps/indexer/src/storage-costs.ts [postgres server URL]
 * (default postgres://postgres@127.0.0.1:5432/postgres: a database of its own is created there and dropped)
 */
import type { CommonConfig } from '@tokensvc/config';
import { dropDatabase, migrate } from '@tokensvc/persistence';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Deriver } from './derive';
import { METRICS } from './metrics';
import { startPrivateAnvil } from './testing/private-anvil';
import { startTestIndexer } from './testing/run-indexer';

async function main(): Promise<void> {
  const manifestPath = join(__dirname, '..', '..', '..', '.devnet', 'deployment.json');
  const anvil = await startPrivateAnvil({
    network: 'ethereum',
    port: 29610,
    stateFile: join(__dirname, '..', '..', '..', '.devnet', 'ethereum.state.json'),
  });
  // JSON-RPC calls: the client POSTs through fetch (logs worker off, so every request passes here)
  let calls = 0;
  let posts = 0;
  const orig = globalThis.fetch;
  globalThis.fetch = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    posts++;
    const body = typeof init?.body === 'string' ? init.body : '';
    calls += body.startsWith('[') ? (JSON.parse(body) as unknown[]).length : 1;
    return orig(input, init);
  }) as typeof fetch;
  const server = new URL(process.argv[2] ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  server.pathname = `/tokensvc_costs_${randomBytes(4).toString('hex')}`;
  const url = server.toString();
  await migrate(url);
  const head = Number(await anvil.client.call<string>('eth_blockNumber'));
  const t0 = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  const ti = startTestIndexer({
    network: 'ethereum',
    rpcUrl: anvil.rpcUrl,
    databaseUrl: url,
    manifestPath,
    derive: new Deriver({ networks: [{ network: 'ethereum', rpcUrl: anvil.rpcUrl }] } as unknown as CommonConfig),
    logsWorker: false,
  });
  await ti.waitForCursor(head);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu = process.cpuUsage(cpu0);
  const logs = (await METRICS.logs.get()).values.reduce((a, v) => a + v.value, 0);
  await ti.pool.query('VACUUM ANALYZE');
  const tables = [
    ...['blocks', 'tokens', 'pools', 'pool_state_history', 'pool_ticks', 'pool_tick_deltas', 'transfers', 'balances'],
    ...['price_points', 'candles', 'activities', 'swap_volumes'],
  ];
  const out: Record<string, { rows: number; bytes: number }> = {};
  for (const t of tables) {
    const [r] = (await ti.pool.query(`SELECT count(*)::int AS n, pg_total_relation_size($1)::bigint AS b FROM ${t}`, [t])).rows as Array<{
      n: number;
      b: string;
    }>;
    out[t] = { rows: r!.n, bytes: Number(r!.b) };
  }
  console.log(
    JSON.stringify(
      { head, logs, ms, cpuUserMs: cpu.user / 1000, cpuSysMs: cpu.system / 1000, rpcCalls: calls, httpPosts: posts, tables: out },
      null,
      1,
    ),
  );
  await ti.stop();
  await dropDatabase(url);
  await anvil.stop();
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
