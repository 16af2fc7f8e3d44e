import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Client as PgClient, Pool as PgPool } from 'pg';
import { connect } from 'nats';
import type { CommonConfig } from '@tokensvc/config';
import { TEST_ACCOUNTS, type DevnetManifest } from '@tokensvc/devnet';
import { dropDatabase, migrate } from '@tokensvc/persistence';
import { createTestDatabaseUrl, freePort, INFRA, testDevnet } from '@tokensvc/testing';
import { Deriver } from '../derive';
import { TOPICS } from '@tokensvc/protocols';
import { send, txs } from '../testing/activity';
import { DERIVED_TABLES, differingTables, normaliseFloats, RAW_TABLES, snapshotTables } from '../testing/db-snapshot';
import { killHard, spawnIndexer, stopGracefully, type IndexerProcess } from '../testing/indexer-process';
import { startPrivateAnvil, type PrivateAnvil } from '../testing/private-anvil';
import { startTestIndexer, type TestIndexer } from '../testing/run-indexer';
import { writerTag } from '../store/lease.repo';
import { ChainReader } from '@tokensvc/chain';

jest.setTimeout(300_000);

const TTL_MS = 4_000;
/** takeover after the leader is gone: the lease's expiry, plus this (a poll, a transaction, a loaded machine) */
const MARGIN_MS = 1_500;

/**
 * Two (then three) indexer processes for one network on one database, while a private anvil
 * produces blocks with transfers and swaps: the leader is SIGKILLed and the warm standby takes
 * over within the lease time; then the new leader is paused (SIGSTOP) past the lease, a third
 * replica takes over, and the paused one, resumed (SIGCONT), writes nothing more. Triggers log
 * every change of the lease's holder and every cursor move with the writer's tag, in one
 * sequence: each batch is written under its writer's own lease and on top of the batch before,
 * and the tables equal one uninterrupted indexer's (whose backfill of the devnet's history the
 * replicas' database starts from).
 */
describe('hot standby: two indexer processes, one lease', () => {
  const { manifestPath } = testDevnet();
  const net = (JSON.parse(readFileSync(manifestPath, 'utf8')) as DevnetManifest).networks.find((n) => n.network === 'ethereum')!;
  const token = (symbol: string): string => net.tokens.find((t) => t.symbol === symbol)!.address.toLowerCase();
  const router = (net.platforms.find((p) => p.slug === 'uniswap-v2')!.addresses['router'] as string).toLowerCase();
  const [alice, bob] = TEST_ACCOUNTS.map((a) => a.address.toLowerCase());
  const dbUrl = createTestDatabaseUrl('ingest_standby');
  const cleanUrl = createTestDatabaseUrl('ingest_standby_clean');
  const suffix = randomBytes(4).toString('hex');
  const procs: IndexerProcess[] = [];
  let anvil: PrivateAnvil;
  let db: PgPool;
  let traffic: { stop: () => Promise<void> } | undefined;
  let clean: TestIndexer | undefined;

  const start = async (id: string): Promise<IndexerProcess> => {
    const p = spawnIndexer({
      NETWORKS: 'ethereum',
      RPC_URL_ETHEREUM: anvil.rpcUrl,
      DEVNET_MANIFEST: manifestPath,
      DATABASE_URL: dbUrl,
      NATS_URL: INFRA.nats,
      HEALTH_PORT: String(await freePort()),
      INDEXER_INSTANCE_ID: id,
      INDEXER_LEASE_TTL_MS: String(TTL_MS),
      INDEXER_EVENTS_STREAM: `STANDBY_${suffix}`,
      INDEXER_EVENTS_PREFIX: `standby${suffix}`,
      INDEXER_REFRESH_HEAD_MS: '0',
      LOG_LEVEL: 'info',
    });
    procs.push(p);
    return p;
  };
  const waitUntil = async (cond: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000): Promise<number> => {
    const t0 = Date.now();
    while (!(await cond())) {
      if (Date.now() - t0 > timeoutMs)
        throw new Error(`timed out waiting for ${what}; last lines: ${procs.map((p) => p.lines.slice(-3).join('\n')).join('\n---\n')}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    return Date.now() - t0;
  };
  const holder = async (): Promise<string | undefined> =>
    ((await db.query(`SELECT holder FROM indexer_leases WHERE network = 'ethereum'`)).rows[0] as { holder: string } | undefined)?.holder;
  const cursor = async (): Promise<number> =>
    Number(
      (
        (await db.query(`SELECT block_number FROM index_cursors WHERE network = 'ethereum'`)).rows[0] as
          { block_number: string } | undefined
      )?.block_number ?? -1,
    );
  const tip = async (): Promise<number> => parseInt(await anvil.client.call<string>('eth_blockNumber'), 16);
  const said = (p: IndexerProcess, text: string): boolean => p.lines.some((l) => l.includes(text));
  /**
   * Lease holder changes (`who` = the new holder, '' when released) and cursor moves (`who` = the
   * writer's tag), in the order they were made: a writer's transaction locks the lease row until
   * it commits and taking the lease waits for that, so a batch written under its own lease comes
   * after that lease's row and before the next one.
   */
  const history = async (): Promise<Array<{ kind: 'lease' | 'write'; who: string; from: number; to: number }>> =>
    (await db.query(`SELECT kind, who, from_block, to_block FROM test_log ORDER BY id`)).rows.map(
      (r: { kind: 'lease' | 'write'; who: string; from_block: string | null; to_block: string | null }) => ({
        kind: r.kind,
        who: r.who,
        from: Number(r.from_block),
        to: Number(r.to_block),
      }),
    );
  const tag = (id: string): string => writerTag('ethereum', id);

  /** a transfer and a swap every ~100 ms (each mines a block) until stopped */
  const startTraffic = (): { stop: () => Promise<void> } => {
    let stopped = false;
    let round = 0;
    const loop = (async () => {
      while (!stopped) {
        round++;
        await send(anvil.client, txs.transfer(alice!, token('USDC'), bob!, 1_000n * BigInt(round)));
        await send(anvil.client, txs.swapV2(alice!, router, 1_000_000n + BigInt(round), [token('USDC'), token('WETH')]));
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    return {
      stop: async () => {
        stopped = true;
        await loop;
      },
    };
  };

  beforeAll(async () => {
    anvil = await startPrivateAnvil({
      network: 'ethereum',
      port: await freePort(),
      stateFile: join(dirname(manifestPath), 'ethereum.state.json'),
    });
    await send(anvil.client, txs.approve(alice!, token('USDC'), router));
    // The reference: one uninterrupted indexer of the chain into its own database. It backfills
    // the devnet's history once; the replicas' database starts as a copy of that (so only one
    // backfill runs), then the reference follows the same new blocks live as the replicas.
    await migrate(cleanUrl);
    const reference = (): TestIndexer =>
      startTestIndexer({
        network: 'ethereum',
        rpcUrl: anvil.rpcUrl,
        databaseUrl: cleanUrl,
        manifestPath,
        derive: new Deriver({ networks: [{ network: 'ethereum', rpcUrl: anvil.rpcUrl }] } as unknown as CommonConfig),
      });
    clean = reference();
    await clean.waitForCursor(await tip(), 240_000);
    await clean.stop();
    clean = undefined;
    await copyDatabase(cleanUrl, dbUrl);
    clean = reference();
    db = new PgPool({ connectionString: dbUrl, max: 2 });
    // Test instrumentation: who held the lease, and who moved the cursor from where to where.
    await db.query(
      `CREATE TABLE test_log (id bigserial PRIMARY KEY, kind text NOT NULL, who text NOT NULL, from_block bigint, to_block bigint)`,
    );
    await db.query(`CREATE FUNCTION test_log_write() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
      INSERT INTO test_log (kind, who, from_block, to_block) VALUES ('write', current_setting('application_name'), OLD.block_number, NEW.block_number); RETURN NEW; END $$`);
    await db.query(`CREATE TRIGGER test_log_write AFTER UPDATE OF block_number ON index_cursors FOR EACH ROW
      WHEN (OLD.block_number IS DISTINCT FROM NEW.block_number) EXECUTE FUNCTION test_log_write()`);
    await db.query(`CREATE FUNCTION test_log_lease() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
      IF TG_OP = 'DELETE' THEN INSERT INTO test_log (kind, who) VALUES ('lease', ''); RETURN OLD; END IF;
      IF TG_OP = 'INSERT' OR OLD.holder IS DISTINCT FROM NEW.holder THEN INSERT INTO test_log (kind, who) VALUES ('lease', NEW.holder); END IF;
      RETURN NEW; END $$`);
    await db.query(
      `CREATE TRIGGER test_log_lease AFTER INSERT OR UPDATE OR DELETE ON indexer_leases FOR EACH ROW EXECUTE FUNCTION test_log_lease()`,
    );
  });

  afterAll(async () => {
    await traffic?.stop().catch(() => undefined);
    await clean?.stop();
    if (process.env['STANDBY_TEST_LOG_DIR'])
      for (const [i, p] of procs.entries())
        writeFileSync(join(process.env['STANDBY_TEST_LOG_DIR'], `indexer-${i}.log`), p.lines.join('\n'));
    for (const p of procs) {
      if (p.child.pid && p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGCONT');
      await killHard(p);
    }
    const nc = await connect({ servers: INFRA.nats });
    await (await nc.jetstreamManager()).streams.delete(`STANDBY_${suffix}`).catch(() => false);
    await nc.close();
    await db?.end();
    await anvil?.stop();
    await dropDatabase(dbUrl);
    await dropDatabase(cleanUrl);
  });

  it('takes over within the lease time after a SIGKILL, fences out a paused leader, and loses or duplicates nothing', async () => {
    const a = await start('standby-a');
    await waitUntil(async () => (await holder()) === 'standby-a', 'a holds the lease');
    await waitUntil(async () => (await cursor()) >= (await tip()), 'a caught up');
    const b = await start('standby-b');
    await waitUntil(() => said(b, 'standby warm'), 'b warm');
    traffic = startTraffic();
    const before = await cursor();
    await waitUntil(async () => (await cursor()) > before + 5, 'a indexing the new blocks');
    expect(await holder()).toBe('standby-a');

    // 1. The leader is SIGKILLed at a random moment: the warm standby takes over.
    await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 300)));
    await killHard(a);
    const takeoverMs = await waitUntil(async () => (await holder()) === 'standby-b', 'b takes over', 10_000);
    const atKill = await tip();
    const caughtUpMs = takeoverMs + (await waitUntil(async () => (await cursor()) >= atKill, 'b indexes past the kill', 10_000));
    process.stdout.write(
      `standby took the lease ${takeoverMs} ms after the SIGKILL (TTL ${TTL_MS} ms), indexed the chain's tip at the kill ${caughtUpMs} ms after it\n`,
    );
    expect(takeoverMs).toBeLessThanOrEqual(TTL_MS + MARGIN_MS);
    expect(caughtUpMs).toBeLessThanOrEqual(TTL_MS + 2 * MARGIN_MS);

    // 2. A third replica stands by; the leader is paused past the lease: the third takes over.
    const c = await start('standby-c');
    await waitUntil(() => said(c, 'standby warm'), 'c warm');
    process.kill(b.child.pid!, 'SIGSTOP');
    // Up to a third of the TTL more when it was paused inside a write transaction (ended by the standby).
    const pausedTakeoverMs = await waitUntil(async () => (await holder()) === 'standby-c', 'c takes over from the paused b', 10_000);
    process.stdout.write(`standby took the lease ${pausedTakeoverMs} ms after the leader was paused\n`);
    expect(pausedTakeoverMs).toBeLessThanOrEqual(TTL_MS + Math.min(1_000, TTL_MS / 3) + MARGIN_MS);
    const atPause = await tip();
    await waitUntil(async () => (await cursor()) >= atPause, 'c indexes past the pause', 10_000);
    const seen = b.lines.length;
    process.kill(b.child.pid!, 'SIGCONT');
    await waitUntil(
      () => b.lines.slice(seen).some((l) => l.includes('lease lost to another replica') || l.includes('another replica holds the lease')),
      'b notices it lost the lease',
      10_000,
    );
    // The resumed replica stays a standby while blocks keep coming.
    const resumedAt = await cursor();
    await waitUntil(async () => (await cursor()) > resumedAt + 5, 'c indexing after b resumed');
    await traffic.stop();
    traffic = undefined;
    const head = await tip();
    await waitUntil(async () => (await cursor()) >= head, 'c at the final tip');
    await stopGracefully(c);
    await stopGracefully(b);

    // Each batch written under its writer's own lease, on top of the batch before: no gap, no
    // overlap. (A starved leader may also lose its lease now and then: allowed, if fenced.)
    const log = await history();
    let leaseOf = '';
    const unfenced: unknown[] = [];
    for (const e of log) {
      if (e.kind === 'lease') leaseOf = e.who;
      else if (e.who !== tag(leaseOf)) unfenced.push({ ...e, lease: leaseOf });
    }
    expect(unfenced).toEqual([]);
    const moves = log.filter((e) => e.kind === 'write');
    expect(moves.filter((w, i) => i > 0 && w.from !== moves[i - 1]!.to)).toEqual([]);
    expect(moves.at(-1)!.to).toBe(head);
    // The takeovers happened as staged: a, then b (after the kill), then c (while b was paused), and
    // the resumed b wrote nothing after it.
    const holders = log.filter((e) => e.kind === 'lease' && e.who !== '').map((e) => e.who);
    const lastA = holders.lastIndexOf('standby-a');
    expect(holders.slice(lastA, lastA + 3)).toEqual(['standby-a', 'standby-b', 'standby-c']);
    expect(moves.filter((w) => w.who === tag('standby-c')).length).toBeGreaterThan(0);

    // Every Transfer of every registered token, exactly once.
    const reader = new ChainReader(anvil.client);
    const tokens = (await db.query(`SELECT address FROM tokens WHERE network = 'ethereum' AND family <> 'native'`)).rows.map(
      (r: { address: string }) => r.address,
    );
    const chain = (
      await reader.logs({ addresses: tokens, topic0: [TOPICS.transfer, TOPICS.wethDeposit, TOPICS.wethWithdrawal] }, 0, head)
    ).filter((l) => l.topics[0] !== TOPICS.transfer || l.topics.length === 3);
    const stored = (await db.query(`SELECT block_number, log_index FROM transfers WHERE network = 'ethereum'`)).rows.map(
      (r: { block_number: string; log_index: number }) => `${r.block_number}:${r.log_index}`,
    );
    const want = new Set(chain.map((l) => `${l.blockNumber}:${l.logIndex}`));
    const have = new Set(stored);
    expect({
      missing: [...want].filter((k) => !have.has(k)).length,
      extra: stored.filter((k) => !want.has(k)).length,
      duplicates: stored.length - have.size,
    }).toEqual({ missing: 0, extra: 0, duplicates: 0 });

    // Row for row the same as one uninterrupted indexer (raw and derived tables).
    await clean!.waitForCursor(head);
    const tables = { ...RAW_TABLES, ...DERIVED_TABLES };
    const [replicated, reference] = [await snapshotTables(db, 'ethereum', tables), await snapshotTables(clean!.pool, 'ethereum', tables)];
    const differing = differingTables(replicated, reference);
    for (const t of differing)
      expect({ table: t, rows: normaliseFloats(replicated[t]!) }).toEqual({ table: t, rows: normaliseFloats(reference[t]!) });
    expect(differing).toEqual([]);
  });
});

/** CREATE DATABASE `to` as a copy of `from` (which must have no session left: waits for them to close). */
async function copyDatabase(from: string, to: string): Promise<void> {
  const name = (url: string): string => decodeURIComponent(new URL(url).pathname.slice(1));
  const admin = new URL(from);
  admin.pathname = '/postgres';
  const client = new PgClient({ connectionString: admin.toString() });
  await client.connect();
  try {
    for (let waited = 0; waited < 5_000; waited += 50) {
      const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [
        name(from),
      ]);
      if (rows[0]!.n === 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await client.query(`CREATE DATABASE "${name(to)}" TEMPLATE "${name(from)}"`);
  } finally {
    await client.end();
  }
}
