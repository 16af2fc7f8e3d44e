import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CommonConfig } from '@tokensvc/config';
import { TEST_ACCOUNTS, type DevnetManifest } from '@tokensvc/devnet';
import { dropDatabase, migrate } from '@tokensvc/persistence';
import { createTestDatabaseUrl, freePort, testDevnet } from '@tokensvc/testing';
import { Deriver } from '../derive';
import { PRIOR_BLOCKS } from '../store/balance-deltas';
import { METRICS } from '../metrics';
import { reorg, send, txs } from '../testing/activity';
import { differingTables, normaliseFloats, RAW_TABLES, snapshotTables } from '../testing/db-snapshot';
import { startPrivateAnvil, type PrivateAnvil } from '../testing/private-anvil';
import { startTestIndexer, type TestIndexer } from '../testing/run-indexer';

jest.setTimeout(600_000);

/** Derived tables (the derivation stage's) of the ethereum network, without write timestamps. */
const DERIVED_TABLES: Record<string, string> = {
  price_points: `SELECT * FROM price_points WHERE token_key LIKE $1 || ':%' ORDER BY token_key, block_number`,
  activities: `SELECT * FROM activities WHERE network = $1 ORDER BY block_number, log_index, token_key`,
  swap_volumes: `SELECT * FROM swap_volumes WHERE network = $1 ORDER BY token_key, block_number`,
  candles: `SELECT * FROM candles WHERE token_key LIKE $1 || ':%' ORDER BY token_key, resolution, bucket`,
  token_state: `SELECT key, price, liquidity, total_supply, total_borrow, circulating_supply, reserves, price_per_share, apy, base_apy, reward_apy, borrow_apy,
                  base_borrow_apy, volume_usd_1d, volume_usd_7d, paid_metrics, state_block FROM tokens WHERE network = $1 ORDER BY key`,
};

/**
 * Reorgs at depth 1, 3 and deeper than the finality depth on a private anvil (loaded from the
 * devnet state; it keeps recent states so anvil_reorg works): after each repair the raw and
 * derived tables must equal those of a fresh index of the new chain into another database.
 */
describe('reorg repair (private anvil)', () => {
  const { manifestPath } = testDevnet();
  const net = (JSON.parse(readFileSync(manifestPath, 'utf8')) as DevnetManifest).networks.find((n) => n.network === 'ethereum')!;
  const token = (symbol: string): string => net.tokens.find((t) => t.symbol === symbol)!.address.toLowerCase();
  const v2 = net.platforms.find((p) => p.slug === 'uniswap-v2')!;
  const router = (v2.addresses['router'] as string).toLowerCase();
  const factory = (v2.addresses['factory'] as string).toLowerCase();
  const vault = net.platforms
    .find((p) => p.family === 'erc4626')!
    .vaults.find((v) => v.assetSymbol === 'USDC')!
    .address.toLowerCase();
  const [alice, bob] = TEST_ACCOUNTS.map((a) => a.address.toLowerCase());
  const FINALITY = 4;
  const dbUrl = createTestDatabaseUrl('ingest_reorg');
  const deriver = (rpcUrl: string): Deriver => new Deriver({ networks: [{ network: 'ethereum', rpcUrl }] } as unknown as CommonConfig);
  let anvil: PrivateAnvil;
  let ti: TestIndexer;
  let round = 0;

  const activity = async (): Promise<void> => {
    round++;
    await send(anvil.client, txs.transfer(alice!, token('USDC'), bob!, 1_000_000n * BigInt(round)));
    await send(anvil.client, txs.swapV2(alice!, router, 500_000_000n + BigInt(round), [token('USDC'), token('WETH')]));
    await send(anvil.client, txs.vaultDeposit(alice!, vault, 2_000_000n * BigInt(round)));
  };

  /** until the indexed tip is the node's tip (same number and hash) */
  const waitForTip = async (indexer: TestIndexer, timeoutMs = 120_000): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const tip = await anvil.client.call<{ number: string; hash: string }>('eth_getBlockByNumber', ['latest', false]);
      const [cursor] = (await indexer.pool.query(`SELECT block_number, block_hash FROM index_cursors WHERE network = 'ethereum'`))
        .rows as Array<{ block_number: string; block_hash: string }>;
      if (cursor && Number(cursor.block_number) === parseInt(tip.number, 16) && cursor.block_hash === tip.hash) return;
      if (Date.now() > deadline)
        throw new Error(
          `indexer not at the tip ${parseInt(tip.number, 16)}: ${JSON.stringify(cursor)}; ${JSON.stringify(indexer.lines.slice(-3))}`,
        );
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  const expectEqualToFreshIndex = async (): Promise<void> => {
    const freshUrl = createTestDatabaseUrl('ingest_reorg_fresh');
    await migrate(freshUrl);
    const fresh = startTestIndexer({
      network: 'ethereum',
      rpcUrl: anvil.rpcUrl,
      databaseUrl: freshUrl,
      manifestPath,
      derive: deriver(anvil.rpcUrl),
      finalityDepth: FINALITY,
    });
    try {
      await waitForTip(fresh);
      const tables = { ...RAW_TABLES, ...DERIVED_TABLES };
      const [repaired, reference] = [
        await snapshotTables(ti.pool, 'ethereum', tables),
        await snapshotTables(fresh.pool, 'ethereum', tables),
      ];
      const differing = differingTables(repaired, reference);
      for (const name of differing)
        expect({ table: name, rows: normaliseFloats(repaired[name]!) }).toEqual({ table: name, rows: normaliseFloats(reference[name]!) });
      expect(differing).toEqual([]);
      // No block of the orphaned branch is left behind.
      const stored = (
        await ti.pool.query(`SELECT number, hash FROM blocks WHERE network = 'ethereum' AND number > $1 ORDER BY number`, [
          net.history.lastBlock,
        ])
      ).rows as Array<{ number: string; hash: string }>;
      const canonical = await Promise.all(
        stored.map((b) => anvil.client.call<{ hash: string }>('eth_getBlockByNumber', [`0x${Number(b.number).toString(16)}`, false])),
      );
      expect(stored.map((b) => b.hash)).toEqual(canonical.map((b) => b.hash));
    } finally {
      await fresh.stop();
      await dropDatabase(freshUrl);
    }
  };

  const reorgLines = (): Array<Record<string, unknown>> =>
    ti.lines.filter((l): l is Record<string, unknown> => typeof l === 'object' && l !== null && 'depth' in l);

  beforeAll(async () => {
    anvil = await startPrivateAnvil({
      network: 'ethereum',
      port: await freePort(),
      stateFile: join(dirname(manifestPath), 'ethereum.state.json'),
    });
    await migrate(dbUrl);
    for (const [t, spender] of [
      [token('USDC'), router],
      [token('USDC'), vault],
    ] as const)
      await send(anvil.client, txs.approve(alice!, t, spender));
    ti = startTestIndexer({
      network: 'ethereum',
      rpcUrl: anvil.rpcUrl,
      databaseUrl: dbUrl,
      manifestPath,
      derive: deriver(anvil.rpcUrl),
      finalityDepth: FINALITY,
    });
    await waitForTip(ti);
  });

  afterAll(async () => {
    await ti?.stop();
    await anvil?.stop();
    await dropDatabase(dbUrl);
  });

  it('repairs a depth-1 reorg of the tip', async () => {
    await activity();
    await waitForTip(ti);
    await reorg(anvil.client, 1, [[txs.transfer(bob!, token('USDC'), alice!, 777n), 0]]);
    await waitForTip(ti);
    expect(reorgLines().at(-1)).toMatchObject({ msg: 'reorg detected; rolling back to the common ancestor', depth: 1 });
    await expectEqualToFreshIndex();
  });

  it('repairs a depth-3 reorg that orphans a new pool, its LP token and swaps', async () => {
    await activity();
    await send(anvil.client, txs.createPair(alice!, factory, token('LINK'), token('UNI')));
    await waitForTip(ti);
    const pair = (
      await ti.pool.query(`SELECT count(*)::int AS n FROM pools WHERE network = 'ethereum' AND token0 IN ($1, $2) AND token1 IN ($1, $2)`, [
        token('LINK'),
        token('UNI'),
      ])
    ).rows[0] as { n: number };
    expect(pair.n).toBe(1);
    await reorg(anvil.client, 3, [
      [txs.swapV2(alice!, router, 123_456_789n, [token('USDC'), token('WETH')]), 0],
      [txs.transfer(bob!, token('USDC'), alice!, 999n), 2],
    ]);
    await waitForTip(ti);
    expect(reorgLines().at(-1)).toMatchObject({ depth: 3 });
    const after = (
      await ti.pool.query(`SELECT count(*)::int AS n FROM pools WHERE network = 'ethereum' AND token0 IN ($1, $2) AND token1 IN ($1, $2)`, [
        token('LINK'),
        token('UNI'),
      ])
    ).rows[0] as { n: number };
    expect(after.n).toBe(0);
    await expectEqualToFreshIndex();
  });

  it('repairs a reorg deeper than the finality depth and raises an alert', async () => {
    const deepBefore = (await METRICS.deepReorgs.get()).values.find((v) => v.labels['network'] === 'ethereum')?.value ?? 0;
    for (let i = 0; i < 2; i++) await activity();
    await waitForTip(ti);
    await reorg(anvil.client, FINALITY + 2, [[txs.transfer(bob!, token('USDC'), alice!, 4242n), 1]]);
    await waitForTip(ti);
    expect(reorgLines().at(-1)).toMatchObject({ alert: 'deep_reorg', depth: FINALITY + 2, finalityDepth: FINALITY });
    const deepAfter = (await METRICS.deepReorgs.get()).values.find((v) => v.labels['network'] === 'ethereum')?.value ?? 0;
    expect(deepAfter).toBe(deepBefore + 1);
    await expectEqualToFreshIndex();
  });

  it('repairs a reorg deeper than the change blocks a balance row keeps (reads them back from transfers)', async () => {
    // 5 rounds of 3 blocks: alice's balances change in more than PRIOR_BLOCKS + 1 blocks above the ancestor.
    for (let i = 0; i < 5; i++) await activity();
    await waitForTip(ti);
    const depth = 3 * 5;
    expect(depth).toBeGreaterThan(PRIOR_BLOCKS + 1);
    await reorg(anvil.client, depth, [[txs.transfer(bob!, token('USDC'), alice!, 4343n), 2]]);
    await waitForTip(ti);
    expect(reorgLines().at(-1)).toMatchObject({ alert: 'deep_reorg', depth });
    await expectEqualToFreshIndex();
  });
});
