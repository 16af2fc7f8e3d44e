import { dirname, join } from 'node:path';
import { ChainReader, JsonRpcClient } from '@tokensvc/chain';
import type { CommonConfig } from '@tokensvc/config';
import { dropDatabase, migrate } from '@tokensvc/persistence';
import {
  createTestDatabaseUrl,
  freePort,
  startRpcEmulator,
  testDevnet,
  type RpcEmulator,
  type RpcEmulatorOptions,
  type RpcEmulatorStats,
} from '@tokensvc/testing';
import { Deriver } from '../derive';
import { DERIVED_TABLES, differingTables, normaliseFloats, RAW_TABLES, snapshotTables } from '../testing/db-snapshot';
import { startPrivateAnvil, type PrivateAnvil } from '../testing/private-anvil';
import { startTestIndexer } from '../testing/run-indexer';

jest.setTimeout(600_000);

const TABLES = { ...RAW_TABLES, ...DERIVED_TABLES };
/** the devnet's base port + 150: clear of the devnet's own ports and of other worktrees' ranges */
const EMULATOR_BASE_PORT = Number(process.env['TEST_DEVNET_BASE_PORT'] ?? 18545) + 150;

/**
 * The devnet's ethereum chain indexed through three emulated hosted-provider URLs (batches capped
 * at 20, eth_getLogs at 100 blocks and 1000 logs, 4 % of requests failing with 502s or dropped
 * connections, 15 requests per second per URL with bursts of 2 (429 beyond), one URL load-balanced onto a node 3 blocks behind a quarter of
 * the time, one URL 40 blocks behind): every table must equal a direct run's, for several seeds.
 * On a private anvil loaded from the devnet's saved state: other test files mine on the shared
 * devnet, and a block mined between the direct run and a seed's run made the seed index further
 * (blocks 730-734 in one full run).
 */
describe('indexing through hosted-provider emulators', () => {
  const { manifestPath } = testDevnet();
  let anvil: PrivateAnvil;
  let upstream: string;
  const deriver = (urls: string[]): Deriver =>
    new Deriver({ networks: [{ network: 'ethereum', rpcUrl: urls[0], rpcUrls: urls }] } as unknown as CommonConfig);
  let head: number;
  let reference: Record<string, unknown[]>;

  beforeAll(async () => {
    anvil = await startPrivateAnvil({
      network: 'ethereum',
      port: await freePort(),
      stateFile: join(dirname(manifestPath), 'ethereum.state.json'),
    });
    upstream = anvil.rpcUrl;
    head = await new ChainReader(new JsonRpcClient(upstream)).blockNumber();
    const dbUrl = createTestDatabaseUrl('hosted_direct');
    await migrate(dbUrl);
    const started = Date.now();
    const direct = startTestIndexer({
      network: 'ethereum',
      rpcUrl: upstream,
      databaseUrl: dbUrl,
      manifestPath,
      derive: deriver([upstream]),
    });
    try {
      await direct.waitForCursor(head);
      process.stdout.write(`direct run: at the head in ${Date.now() - started} ms\n`);
      reference = await snapshotTables(direct.pool, 'ethereum', TABLES);
    } finally {
      await direct.stop();
      await dropDatabase(dbUrl);
    }
    process.stdout.write(`direct run: ${Date.now() - started} ms with snapshot and stop\n`);
  });

  afterAll(async () => {
    await anvil?.stop();
  });

  it.each([1, 2, 3])('seed %i: every table equals the direct run', async (seed) => {
    const caps: Omit<RpcEmulatorOptions, 'upstream'> = {
      roundTripMs: 1,
      maxBatch: 20,
      maxBlockRange: 100,
      maxResults: 1000,
      failureShare: 0.04,
      requestsPerSecond: 15,
      burst: 2,
    };
    // Fixed loopback ports from EMULATOR_BASE_PORT (this worktree's range), three per seed.
    const port = (i: number): number => EMULATOR_BASE_PORT + seed * 3 + i;
    const emulators: RpcEmulator[] = [
      await startRpcEmulator({ upstream, ...caps, seed, port: port(0) }),
      await startRpcEmulator({
        upstream,
        ...caps,
        batchOverflow: 'short',
        lag: { blocks: 3, share: 0.25 },
        seed: seed + 100,
        port: port(1),
      }),
      await startRpcEmulator({ upstream, ...caps, lag: { blocks: 40 }, seed: seed + 200, port: port(2) }),
    ];
    const urls = emulators.map((e) => e.url);
    const dbUrl = createTestDatabaseUrl(`hosted_${seed}`);
    await migrate(dbUrl);
    const started = Date.now();
    const logged: unknown[] = [];
    let indexedMs = 0;
    const ti = startTestIndexer({
      network: 'ethereum',
      rpcUrl: urls[0]!,
      rpcUrls: urls,
      databaseUrl: dbUrl,
      manifestPath,
      derive: deriver(urls),
      initialLogRange: 500,
      logger: {
        log: (m) => logged.push([Date.now() - started, 'log', m]),
        warn: (m) => logged.push([Date.now() - started, 'warn', m]),
        error: (m) => logged.push([Date.now() - started, 'error', m]),
      },
    });
    try {
      await ti.waitForCursor(head, 240_000);
      indexedMs = Date.now() - started;
      const got = await snapshotTables(ti.pool, 'ethereum', TABLES);
      const differing = differingTables(got, reference);
      for (const t of differing)
        expect({ table: t, rows: normaliseFloats(got[t]!) }).toEqual({ table: t, rows: normaliseFloats(reference[t]!) });
      expect(differing).toEqual([]);
      expect(Object.values(got).every((rows) => rows.length > 0)).toBe(true);
    } finally {
      await ti.stop();
      for (const e of emulators) await e.close();
      await dropDatabase(dbUrl);
    }
    const [a, b, c] = emulators.map((e) => e.stats) as [RpcEmulatorStats, RpcEmulatorStats, RpcEmulatorStats];
    process.stdout.write(
      `seed ${seed}: at the head in ${indexedMs} ms, ${Date.now() - started} ms with checks and stop; ${JSON.stringify({ a, b, c })}\n`,
    );
    // The caps and failures did happen (else this would prove nothing).
    const sum = (k: keyof RpcEmulatorStats): number => a[k] + b[k] + c[k];
    expect(sum('batchRefused')).toBeGreaterThan(0);
    expect(sum('rangeRefused')).toBeGreaterThan(0);
    expect(sum('resultsRefused')).toBeGreaterThan(0);
    expect(sum('failed')).toBeGreaterThan(0);
    expect(sum('throttled')).toBeGreaterThan(0);
    expect(b.lagged + c.lagged).toBeGreaterThan(0);
    // Nodes behind are waited for or skipped, never taken for a shorter chain.
    expect(JSON.stringify(logged)).not.toMatch(/rolling back|reorg/i);
  });
});
