import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { Pool } from 'pg';
import { ChainReader, JsonRpcClient } from '@tokensvc/chain';
import type { CommonConfig } from '@tokensvc/config';
import { dropDatabase, migrate } from '@tokensvc/persistence';
import { createTestDatabaseUrl, freePort, INFRA, testDevnet } from '@tokensvc/testing';
import { Pool as PgPool } from 'pg';
import { connect } from 'nats';
import { Deriver } from '../derive';
import { TOPICS } from '@tokensvc/protocols';
import { differingTables, normaliseFloats, RAW_TABLES, snapshotTables } from '../testing/db-snapshot';
import { killHard, spawnIndexer, stopGracefully, type IndexerProcess } from '../testing/indexer-process';
import { startPrivateAnvil, type PrivateAnvil } from '../testing/private-anvil';
import { startTestIndexer } from '../testing/run-indexer';

jest.setTimeout(600_000);

const DERIVED: Record<string, string> = {
  activities: `SELECT * FROM activities WHERE network = $1 ORDER BY block_number, log_index, token_key`,
  swap_volumes: `SELECT * FROM swap_volumes WHERE network = $1 ORDER BY token_key, block_number`,
  price_points: `SELECT * FROM price_points WHERE token_key LIKE $1 || ':%' ORDER BY token_key, block_number`,
};

/**
 * The indexer app as a process, SIGKILLed repeatedly in the middle of its backfill of the devnet
 * chain and restarted: afterwards the database must hold every Transfer of the chain exactly once
 * and equal an uninterrupted index, row for row. On a private anvil loaded from the devnet's saved
 * state: other test files mine on the shared devnet, and a block landing while the uninterrupted
 * index runs would take it past the crashed one's cursor.
 */
describe('crash safety: SIGKILL during backfill', () => {
  const { manifestPath } = testDevnet();
  let anvil: PrivateAnvil;
  let rpcUrl: string;
  let reader: ChainReader;
  const crashUrl = createTestDatabaseUrl('ingest_crash');
  const cleanUrl = createTestDatabaseUrl('ingest_crash_clean');
  const suffix = randomBytes(4).toString('hex');
  let db: Pool;
  let proc: IndexerProcess | undefined;

  /** null when the balances hold every stored transfer; else the block up to which they do */
  const balancesBlock = async (): Promise<number | null> => {
    const [row] = (await db.query(`SELECT balances_block FROM index_cursors WHERE network = 'ethereum'`)).rows as Array<{
      balances_block: string | null;
    }>;
    return row?.balances_block == null ? null : Number(row.balances_block);
  };
  const cursor = async (): Promise<number> => {
    const [row] = (await db.query(`SELECT block_number FROM index_cursors WHERE network = 'ethereum'`)).rows as Array<{
      block_number: string;
    }>;
    return row ? Number(row.block_number) : -1;
  };
  const waitUntil = async (cond: () => Promise<boolean>, what: string, timeoutMs = 120_000): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    while (!(await cond())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last lines: ${proc?.lines.slice(-5).join('\n')}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  const start = async (): Promise<IndexerProcess> =>
    spawnIndexer({
      NETWORKS: 'ethereum',
      RPC_URL_ETHEREUM: rpcUrl,
      DEVNET_MANIFEST: manifestPath,
      DATABASE_URL: crashUrl,
      NATS_URL: INFRA.nats,
      HEALTH_PORT: String(await freePort()),
      // Many small batches, so a kill lands mid-backfill; a short lease so a restart takes over fast.
      MAX_LOG_RANGE_ETHEREUM: '15',
      INDEXER_LEASE_TTL_MS: '1500',
      INDEXER_EVENTS_STREAM: `CRASH_${suffix}`,
      INDEXER_EVENTS_PREFIX: `crash${suffix}`,
      INDEXER_REFRESH_HEAD_MS: '0',
      LOG_LEVEL: 'warn',
    });

  beforeAll(async () => {
    anvil = await startPrivateAnvil({
      network: 'ethereum',
      port: await freePort(),
      stateFile: join(dirname(manifestPath), 'ethereum.state.json'),
    });
    rpcUrl = anvil.rpcUrl;
    reader = new ChainReader(new JsonRpcClient(rpcUrl));
    await migrate(crashUrl);
    await migrate(cleanUrl);
    db = new PgPool({ connectionString: crashUrl, max: 2 });
  });

  afterAll(async () => {
    if (proc) await killHard(proc);
    const nc = await connect({ servers: INFRA.nats });
    await (await nc.jetstreamManager()).streams.delete(`CRASH_${suffix}`).catch(() => false);
    await nc.close();
    await db?.end();
    await dropDatabase(crashUrl);
    await dropDatabase(cleanUrl);
    await anvil?.stop();
  });

  it('loses and duplicates nothing across repeated SIGKILLs, and equals an uninterrupted index', async () => {
    const head = await reader.blockNumber();
    const kills: number[] = [];
    // Balance changes the backfill held in memory when it was killed (caught up from the transfers table on restart).
    const heldAtKill: Array<number | null> = [];
    for (let i = 0; i < 4; i++) {
      proc = await start();
      const before = await cursor();
      // Let it commit at least one batch, then kill it at a random moment of the next ones.
      await waitUntil(async () => (await cursor()) > before, `progress after restart ${i}`);
      await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 400)));
      await killHard(proc);
      kills.push(await cursor());
      heldAtKill.push(await balancesBlock());
    }
    // Four kills at four different points of the backfill, the last one still short of the head.
    expect(new Set(kills).size).toBe(4);
    expect(kills.at(-1)!).toBeLessThan(head);
    expect(heldAtKill.some((b) => b !== null)).toBe(true);
    proc = await start();
    await waitUntil(async () => (await cursor()) >= head, 'the head after the last restart');
    await stopGracefully(proc);
    expect(await balancesBlock()).toBeNull();
    // What it indexed ends at its cursor: at least the head read above, more if a block came since.
    const end = await cursor();

    // Every Transfer of every registered token, exactly once.
    const tokens = (await db.query(`SELECT address FROM tokens WHERE network = 'ethereum' AND family <> 'native'`)).rows.map(
      (r: { address: string }) => r.address,
    );
    const chain = (
      await reader.logs({ addresses: tokens, topic0: [TOPICS.transfer, TOPICS.wethDeposit, TOPICS.wethWithdrawal] }, 0, end)
    ).filter((l) => l.topics[0] !== TOPICS.transfer || l.topics.length === 3);
    const stored = (await db.query(`SELECT block_number, log_index FROM transfers WHERE network = 'ethereum'`)).rows.map(
      (r: { block_number: string; log_index: number }) => `${r.block_number}:${r.log_index}`,
    );
    const want = new Set(chain.map((l) => `${l.blockNumber}:${l.logIndex}`));
    const have = new Set(stored);
    expect(want.size).toBeGreaterThan(10_000);
    expect({
      missing: [...want].filter((k) => !have.has(k)).length,
      extra: stored.filter((k) => !want.has(k)).length,
      duplicates: stored.length - have.size,
    }).toEqual({ missing: 0, extra: 0, duplicates: 0 });

    // Row for row the same as an index that was never interrupted (raw and derived tables), and
    // that wrote its balance changes with every batch (at most one (token, holder) pair held).
    const clean = startTestIndexer({
      network: 'ethereum',
      rpcUrl,
      databaseUrl: cleanUrl,
      manifestPath,
      heldBalancePairs: 1,
      derive: new Deriver({ networks: [{ network: 'ethereum', rpcUrl }] } as unknown as CommonConfig),
    });
    try {
      await clean.waitForCursor(end);
      const tables = { ...RAW_TABLES, ...DERIVED };
      const [crashed, reference] = [await snapshotTables(db, 'ethereum', tables), await snapshotTables(clean.pool, 'ethereum', tables)];
      const differing = differingTables(crashed, reference);
      for (const t of differing)
        expect({ table: t, rows: normaliseFloats(crashed[t]!) }).toEqual({ table: t, rows: normaliseFloats(reference[t]!) });
      expect(differing).toEqual([]);
    } finally {
      await clean.stop();
    }
  });
});
