import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Pool } from 'pg';
import type { CommonConfig } from '@tokensvc/config';
import { TEST_ACCOUNTS, type DevnetManifest } from '@tokensvc/devnet';
import { dropDatabase, migrate } from '@tokensvc/persistence';
import { createTestDatabaseUrl, freePort, testDevnet } from '@tokensvc/testing';
import { send, txs, type TxRequest } from '../testing/activity';
import { DERIVED_TABLES, differingTables, normaliseFloats, RAW_TABLES, snapshotTables } from '../testing/db-snapshot';
import { startPrivateAnvil, type PrivateAnvil } from '../testing/private-anvil';
import { startTestIndexer, type TestIndexer } from '../testing/run-indexer';
import { Deriver } from './deriver';

jest.setTimeout(180_000);

/**
 * Candles (and every other table) must be a function of the chain alone: a private anvil (loaded
 * from the devnet state) indexed while it grows, one block per batch as trades arrive and with the
 * head refresh running whenever the indexer is caught up (as in production), must give the same
 * tables as the same chain indexed from scratch in one backfill.
 */
describe('live indexing equals a backfill of the same chain', () => {
  const { manifestPath } = testDevnet();
  const net = (JSON.parse(readFileSync(manifestPath, 'utf8')) as DevnetManifest).networks.find((n) => n.network === 'ethereum')!;
  const token = (symbol: string): string => net.tokens.find((t) => t.symbol === symbol)!.address.toLowerCase();
  const router = (net.platforms.find((p) => p.slug === 'uniswap-v2')!.addresses['router'] as string).toLowerCase();
  const vault = net.platforms
    .find((p) => p.family === 'erc4626')!
    .vaults.find((v) => v.assetSymbol === 'USDC')!
    .address.toLowerCase();
  const [alice, bob] = TEST_ACCOUNTS.map((a) => a.address.toLowerCase());
  const liveUrl = createTestDatabaseUrl('derive_live');
  const freshUrl = createTestDatabaseUrl('derive_live_fresh');
  /** a deriver that records the blocks its head refreshes ran at */
  const deriver = (rpcUrl: string, databaseUrl: string): Deriver & { refreshed: number[] } => {
    const d = Object.assign(new Deriver({ networks: [{ network: 'ethereum', rpcUrl }], databaseUrl } as unknown as CommonConfig), {
      refreshed: [] as number[],
    });
    const refresh = d.refreshHead.bind(d);
    d.refreshHead = async (network, block) => {
      await refresh(network, block);
      d.refreshed.push(block);
    };
    return d;
  };
  const refreshedAt = async (d: { refreshed: number[] }, block: number): Promise<void> => {
    const deadline = Date.now() + 30_000;
    while (!d.refreshed.includes(block)) {
      if (Date.now() > deadline) throw new Error(`no head refresh at ${block}: ${JSON.stringify(d.refreshed)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  let anvil: PrivateAnvil;
  let live: TestIndexer | undefined;
  let fresh: TestIndexer | undefined;

  /** until the indexed tip is the node's tip */
  const waitForTip = async (ti: TestIndexer): Promise<number> => {
    const tip = parseInt(await anvil.client.call<string>('eth_blockNumber'), 16);
    await ti.waitForCursor(tip, 60_000);
    return tip;
  };

  beforeAll(async () => {
    anvil = await startPrivateAnvil({
      network: 'ethereum',
      port: await freePort(),
      stateFile: join(dirname(manifestPath), 'ethereum.state.json'),
    });
    await Promise.all([migrate(liveUrl), migrate(freshUrl)]);
  });

  afterAll(async () => {
    await live?.stop();
    await fresh?.stop();
    await anvil?.stop();
    await dropDatabase(liveUrl);
    await dropDatabase(freshUrl);
  });

  it('gives the same candles, points, activities and token rows live block by block as from scratch', async () => {
    const approvals = [
      txs.approve(alice!, token('USDC'), router),
      txs.approve(alice!, token('USDC'), vault),
      txs.approve(alice!, token('WETH'), router),
    ];
    for (const a of approvals) await send(anvil.client, a);
    // The head refresh runs whenever the indexer is caught up, as in production (every 15 s there).
    const liveDeriver = deriver(anvil.rpcUrl, liveUrl);
    live = startTestIndexer({
      network: 'ethereum',
      rpcUrl: anvil.rpcUrl,
      databaseUrl: liveUrl,
      manifestPath,
      derive: liveDeriver,
      refreshHeadMs: 1,
    });
    const t0 = Date.now();
    await waitForTip(live);
    const t1 = Date.now();
    // Trades that move prices (so a bucket's open, high, low and close all differ), transfers and
    // vault flows, each in its own block, the indexer following block by block.
    const rounds: TxRequest[] = [];
    for (let i = 1; i <= 4; i++) {
      rounds.push(txs.swapV2(alice!, router, 5_000_000_000n * BigInt(i), [token('USDC'), token('WETH')]));
      rounds.push(txs.transfer(alice!, token('USDC'), bob!, 1_000_000n * BigInt(i)));
      rounds.push(txs.swapV2(alice!, router, 5n * 10n ** 17n * BigInt(i), [token('WETH'), token('USDC')]));
      rounds.push(txs.vaultDeposit(alice!, vault, 2_000_000n * BigInt(i)));
    }
    const tips: number[] = [];
    for (const [i, r] of rounds.entries()) {
      await send(anvil.client, r).catch((e: Error) => Promise.reject(new Error(`round ${i}: ${e.message}`)));
      tips.push(await waitForTip(live));
      await refreshedAt(liveDeriver, tips.at(-1)!);
    }
    // One batch per block: each trade was written before the next block existed.
    expect(new Set(tips).size).toBe(rounds.length);
    const head = tips.at(-1)!;
    const t2 = Date.now();
    await live.stop();
    live = undefined;

    const freshDeriver = deriver(anvil.rpcUrl, freshUrl);
    fresh = startTestIndexer({
      network: 'ethereum',
      rpcUrl: anvil.rpcUrl,
      databaseUrl: freshUrl,
      manifestPath,
      derive: freshDeriver,
      refreshHeadMs: 1,
    });
    await fresh.waitForCursor(head, 60_000);
    await refreshedAt(freshDeriver, head);
    await fresh.stop();
    fresh = undefined;
    process.stderr.write(
      `[live-index] backfill ${t1 - t0} ms, ${rounds.length} blocks live ${t2 - t1} ms, fresh index ${Date.now() - t2} ms\n`,
    );

    const tables = { ...RAW_TABLES, ...DERIVED_TABLES };
    const withPool = async <T>(url: string, fn: (pool: Pool) => Promise<T>): Promise<T> => {
      const pool = new Pool({ connectionString: url, max: 1 });
      try {
        return await fn(pool);
      } finally {
        await pool.end();
      }
    };
    /** a digest of each table's rows (their Postgres text form), computed in the database */
    const digests = (url: string): Promise<Record<string, string>> =>
      withPool(url, async (pool) => {
        const out: Record<string, string> = {};
        for (const [name, sql] of Object.entries(tables))
          out[name] = (
            (await pool.query(`SELECT md5(string_agg(r::text, '|')) AS d FROM (${sql}) r`, ['ethereum'])).rows[0] as { d: string }
          ).d;
        return out;
      });
    // The live blocks are in the tables compared.
    const liveActivities = await withPool(
      liveUrl,
      async (pool) =>
        (
          await pool.query(`SELECT count(*)::int AS n FROM activities WHERE network = 'ethereum' AND block_number > $1`, [
            net.history.lastBlock,
          ])
        ).rows[0] as { n: number },
    );
    expect(liveActivities.n).toBeGreaterThanOrEqual(8);
    // Identical tables have the same digest; any other is compared row by row, floats rounded as
    // in the reorg and crash tests (USD sums may differ in their last bits).
    const [a, b] = [await digests(liveUrl), await digests(freshUrl)];
    const suspect = Object.fromEntries(Object.entries(tables).filter(([t]) => a[t] !== b[t]));
    const [followed, backfilled] = [
      await withPool(liveUrl, (pool) => snapshotTables(pool, 'ethereum', suspect)),
      await withPool(freshUrl, (pool) => snapshotTables(pool, 'ethereum', suspect)),
    ];
    const differing = differingTables(followed, backfilled);
    for (const name of differing)
      expect({ table: name, rows: normaliseFloats(followed[name]!) }).toEqual({ table: name, rows: normaliseFloats(backfilled[name]!) });
    expect(differing).toEqual([]);
    process.stderr.write(
      `[live-index] tables bit-identical: ${Object.keys(tables)
        .filter((t) => a[t] === b[t])
        .join(', ')}; compared row by row: ${Object.keys(suspect).join(', ') || 'none'}\n`,
    );
  });

  it("counts the Uniswap V4 pools in the token rows: a token's liquidity is its side of every pool it is in, V4's included", async () => {
    const db = new Pool({ connectionString: freshUrl, max: 1 });
    try {
      type TokenFigures = { address: string; decimals: number; price: number; liquidity: number };
      type PoolReserves = { family: string; token0: string; token1: string; reserve0: string; reserve1: string };
      const tokenRows = (await db.query(`SELECT address, decimals, price, liquidity FROM tokens WHERE network = 'ethereum'`))
        .rows as TokenFigures[];
      const tokens = new Map(tokenRows.map((t) => [t.address, t]));
      const poolSql = `SELECT family, token0, token1, reserve0::text, reserve1::text FROM pools WHERE network = 'ethereum'`;
      const pools = (await db.query(poolSql)).rows as PoolReserves[];
      /** the value of a token's side of the pools (their reserves: what the derivation values a pool's depth at) */
      const side = (address: string, family?: string): number => {
        const t = tokens.get(address)!;
        const units = (p: PoolReserves): number =>
          p.token0 === address ? Number(p.reserve0) : p.token1 === address ? Number(p.reserve1) : 0;
        return (
          (pools.filter((p) => family === undefined || p.family === family).reduce((sum, p) => sum + units(p), 0) / 10 ** t.decimals) *
          t.price
        );
      };
      // The native coin is in V4's pools only (as currency0); USDC in pools of the three DEX families.
      expect(side('0x0000000000000000000000000000000000000000', 'uniswap-v4')).toBeGreaterThan(1_000_000);
      expect(side(token('USDC'), 'uniswap-v4')).toBeGreaterThan(1_000_000);
      for (const address of ['0x0000000000000000000000000000000000000000', token('USDC'), token('WBTC'), token('UNI')]) {
        expect(tokens.get(address)!.liquidity / side(address)).toBeCloseTo(1, 9);
      }
    } finally {
      await db.end();
    }
  });
});
