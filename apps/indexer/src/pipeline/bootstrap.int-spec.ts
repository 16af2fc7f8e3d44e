import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ChainReader, loadManifestNetworks, loadPlatformRegistry } from '@tokensvc/chain';
import type { CommonConfig } from '@tokensvc/config';
import { TEST_ACCOUNTS, type DevnetManifest } from '@tokensvc/devnet';
import { NETWORK_INFO, type PlatformDefinition } from '@tokensvc/domain';
import { PROTOCOLS } from '@tokensvc/protocols';
import { createPgPool, dropDatabase, migrate } from '@tokensvc/persistence';
import { createTestDatabaseUrl, freePort, testDevnet } from '@tokensvc/testing';
import type { NetworkIndexingConfig } from '../config/indexer-config';
import { Deriver } from '../derive';
import type { DerivationStage } from '../model/derivation.port';
import { ensureCursor, readCursor } from '../store/cursor.repo';
import { tryAcquireLease } from '../store/lease.repo';
import { poolQuery } from '../store/sql-tx';
import { send, txs } from '../testing/activity';
import { startPrivateAnvil, type PrivateAnvil } from '../testing/private-anvil';
import { normaliseFloats } from '../testing/db-snapshot';
import { RecordingDerivation } from '../testing/recording-derivation';
import { startTestIndexer, type TestIndexer } from '../testing/run-indexer';
import { bootstrapScope, needsBootstrap, nothingStored } from './bootstrap-scope';

jest.setTimeout(240_000);

/** whole WETH: the devnet's pools range from ~1 to ~1000s of WETH */
const FLOOR = '2000';
const POOL_STATE = `SELECT address, platform, family, token0, token1, fee, tick_spacing, reserve0::text, reserve1::text, sqrt_price_x96::text, liquidity::text, tick FROM pools WHERE network = 'ethereum' ORDER BY address`;
const TICKS = `SELECT pool, tick, liquidity_net::text, liquidity_gross::text FROM pool_ticks WHERE network = 'ethereum' ORDER BY pool, tick`;
const SUPPLIES = `SELECT key, family, total_supply::text, circulating_supply::text, total_borrow::text, reserves, price_per_share, price FROM tokens WHERE network = 'ethereum' AND family <> 'native' ORDER BY key`;
const TOKENS = `SELECT address, platform, family, underlying, pool_address, metadata, is_verified FROM tokens WHERE network = 'ethereum' AND family <> 'basic' ORDER BY address`;

/**
 * A private anvil from the devnet's saved state (its history: ~700 blocks) with more activity on
 * top, indexed twice: from genesis the normal way, and from a start block after the saved history
 * with the start-block bootstrap (the scope's state read by Multicall3 at the block before, then
 * logs; anvil keeps the states of the blocks it mines, not of the loaded history). Swaps (V2, V3),
 * a V3 position, an Aave supply, a vault deposit and a new pair follow the start block. At the
 * head the pools, their state and the V3 tick liquidity must be the full run's, and the LP tokens,
 * aTokens and vault shares must exist.
 */
describe('start-block bootstrap (private anvil, ethereum)', () => {
  const { manifestPath } = testDevnet();
  const net = (JSON.parse(readFileSync(manifestPath, 'utf8')) as DevnetManifest).networks.find((n) => n.network === 'ethereum')!;
  const token = (symbol: string): string => net.tokens.find((t) => t.symbol === symbol)!.address.toLowerCase();
  const platform = (slug: string): Record<string, unknown> =>
    net.platforms.find((p) => p.slug === slug)!.addresses as Record<string, unknown>;
  const v2Router = (platform('uniswap-v2')['router'] as string).toLowerCase();
  const v2Factory = (platform('uniswap-v2')['factory'] as string).toLowerCase();
  const v3 = platform('uniswap-v3');
  const aavePool = (platform('aave-v3')['pool'] as string).toLowerCase();
  const vault = net.platforms
    .find((p) => p.family === 'erc4626')!
    .vaults.find((v) => v.assetSymbol === 'USDC')!
    .address.toLowerCase();
  const v3Pool = net.platforms.find((p) => p.slug === 'uniswap-v3')!.pools.find((p) => p.pair === 'WETH/USDC' && p.fee === 500)!;
  const [alice] = TEST_ACCOUNTS.map((a) => a.address.toLowerCase());
  const fullUrl = createTestDatabaseUrl('bootstrap_full');
  const midUrl = createTestDatabaseUrl('bootstrap_mid');
  const crashUrl = createTestDatabaseUrl('bootstrap_crash');
  let anvil: PrivateAnvil;
  let full: TestIndexer | undefined;
  let mid: TestIndexer | undefined;
  let head: number;
  let start: number;
  const rows = async (ti: TestIndexer, sql: string): Promise<unknown[]> => (await ti.pool.query(sql)).rows;
  const blockNumber = async (): Promise<number> => Number(await anvil.client.call<string>('eth_blockNumber'));

  beforeAll(async () => {
    anvil = await startPrivateAnvil({
      network: 'ethereum',
      port: await freePort(),
      stateFile: join(dirname(manifestPath), 'ethereum.state.json'),
    });
    await Promise.all([migrate(fullUrl), migrate(midUrl), migrate(crashUrl)]);
    const [usdc, weth] = [token('USDC'), token('WETH')];
    for (const spender of [v2Router, vault, aavePool, v3['router'] as string]) await send(anvil.client, txs.approve(alice!, usdc, spender));
    await send(anvil.client, txs.approve(alice!, weth, v3['positionManager'] as string));
    await send(anvil.client, txs.swapV2(alice!, v2Router, 3_000_000_000n, [usdc, weth]));
    start = (await blockNumber()) + 1;
    // After the start block: what the bootstrapped index follows by logs.
    await send(anvil.client, txs.swapV2(alice!, v2Router, 700_000_000n, [usdc, weth]));
    await send(anvil.client, txs.swapV3(alice!, v3['router'] as string, usdc, weth, 500, 900_000_000n));
    const slot0 = await anvil.client.call<string>('eth_call', [{ to: v3Pool.address, data: '0x3850c7bd' }, 'latest']);
    const tick = Number(BigInt.asIntN(24, BigInt('0x' + slot0.slice(66, 130))));
    // Above the current price: WETH (token0) only; two ticks gain liquidity.
    const lower = Math.floor(tick / 10) * 10 + 200;
    await send(
      anvil.client,
      txs.mintV3(alice!, v3['positionManager'] as string, {
        token0: weth,
        token1: usdc,
        fee: 500,
        tickLower: lower,
        tickUpper: lower + 300,
        amount0: 10n ** 17n,
        amount1: 0n,
      }),
    );
    await send(anvil.client, txs.aaveSupply(alice!, aavePool, usdc, 250_000_000n));
    await send(anvil.client, txs.vaultDeposit(alice!, vault, 120_000_000n));
    await send(anvil.client, txs.createPair(alice!, v2Factory, token('LINK'), token('UNI')));
    await send(anvil.client, txs.swapV3(alice!, v3['router'] as string, usdc, weth, 500, 400_000_000n));
    head = await blockNumber();
    const t0 = Date.now();
    const deriver = (): Deriver => new Deriver({ networks: [{ network: 'ethereum', rpcUrl: anvil.rpcUrl }] } as unknown as CommonConfig);
    // Both runs leave out the DEX platforms whose family has no start-block read (Uniswap V4 so
    // far): their pools start from the events after the start block by design, so a bootstrapped
    // run has none of the earlier ones, and the prices over them differ.
    const platforms = (p: PlatformDefinition): boolean =>
      PROTOCOLS[p.family].dex === null || PROTOCOLS[p.family].indexer.readScope !== null;
    full = startTestIndexer({
      network: 'ethereum',
      rpcUrl: anvil.rpcUrl,
      databaseUrl: fullUrl,
      manifestPath,
      derive: deriver(),
      maxLogRange: 200,
      platforms,
    });
    mid = startTestIndexer({
      network: 'ethereum',
      rpcUrl: anvil.rpcUrl,
      databaseUrl: midUrl,
      manifestPath,
      derive: deriver(),
      startBlock: start,
      platforms,
    });
    await Promise.all([full.waitForCursor(head), mid.waitForCursor(head)]);
    console.log(`full run (blocks 1..${head}) and bootstrapped run (start ${start}) at the head in ${Date.now() - t0} ms`);
  });

  afterAll(async () => {
    await full?.stop();
    await mid?.stop();
    await anvil?.stop();
    await Promise.all([dropDatabase(fullUrl), dropDatabase(midUrl), dropDatabase(crashUrl)]);
  });

  it('bootstraps at the block before the start block and reads logs only from the start block', async () => {
    const line = mid!.lines.find((l) => (l as { msg?: string }).msg === 'start-block bootstrap written') as {
      block: number;
      pools: number;
      ticks: number;
      tokens: number;
    };
    console.log(`bootstrap: ${JSON.stringify(line)}`);
    expect(line).toMatchObject({ block: start - 1, belowFloor: 0 });
    expect(line.pools).toBeGreaterThan(10);
    expect(line.ticks).toBeGreaterThan(0);
    const [t] = (await mid!.pool.query<{ min: string }>(`SELECT min(block_number)::text AS min FROM transfers WHERE network = 'ethereum'`))
      .rows;
    expect(Number(t!.min)).toBeGreaterThanOrEqual(start);
    const [b] = (await mid!.pool.query<{ min: string }>(`SELECT min(number)::text AS min FROM blocks WHERE network = 'ethereum'`)).rows;
    expect(Number(b!.min)).toBe(start - 1);
    // Prices from the start: the bootstrapped pools went through the derivation stage at start - 1.
    const [p] = (
      await mid!.pool.query<{ n: string }>(`SELECT count(*)::text AS n FROM price_points WHERE token_key = $1 AND block_number = $2`, [
        `ethereum:${token('WETH')}`,
        start - 1,
      ])
    ).rows;
    expect(Number(p!.n)).toBe(1);
  });

  it('has, at the head, the same pools with the same reserves, price, liquidity and tick, and the same V3 tick liquidity', async () => {
    const pools = await rows(full!, POOL_STATE);
    expect(pools.length).toBeGreaterThan(10);
    expect(await rows(mid!, POOL_STATE)).toEqual(pools);
    const ticks = await rows(full!, TICKS);
    expect(ticks.length).toBeGreaterThan(0);
    expect(await rows(mid!, TICKS)).toEqual(ticks);
  });

  it('has the LP tokens (one found after the start block), aTokens and vault shares of the full run', async () => {
    const tokens = (await rows(full!, TOKENS)) as Array<{ family: string }>;
    for (const family of ['uniswap-v2', 'aave-v3', 'erc4626']) expect(tokens.some((t) => t.family === family)).toBe(true);
    expect(await rows(mid!, TOKENS)).toEqual(tokens);
    const [created] = (
      await mid!.pool.query<{ n: string }>(`SELECT count(*)::text AS n FROM pools WHERE network = 'ethereum' AND created_block >= $1`, [
        start,
      ])
    ).rows;
    expect(Number(created!.n)).toBe(1);
  });

  it('has the supplies, vault assets and Aave supply and debt of the full run at the head (ledgers read at the bootstrap block, then events)', async () => {
    const state = (await rows(full!, SUPPLIES)) as Array<{ family: string; total_supply: string; total_borrow: string }>;
    expect(state.length).toBeGreaterThan(20);
    for (const family of ['basic', 'uniswap-v2', 'erc4626', 'aave-v3'])
      expect(state.some((t) => t.family === family && BigInt(t.total_supply) > 0n)).toBe(true);
    expect(state.some((t) => t.family === 'aave-v3' && BigInt(t.total_borrow) > 0n)).toBe(true);
    expect(normaliseFloats(await rows(mid!, SUPPLIES))).toEqual(normaliseFloats(state));
  });

  it('marks the history of every token that existed before the start block as partial (tokens.history_from_block), and of no other', async () => {
    const partial = async (ti: TestIndexer): Promise<Array<{ family: string; created_block: string; history_from_block: string | null }>> =>
      (
        await ti.pool.query(
          `SELECT family, created_block::text, history_from_block::text FROM tokens WHERE network = 'ethereum' ORDER BY address`,
        )
      ).rows;
    expect((await partial(full!)).filter((t) => t.history_from_block !== null)).toEqual([]);
    const tokens = await partial(mid!);
    for (const t of tokens) {
      if (Number(t.created_block) === start - 1 && t.family !== 'native') expect(t.history_from_block).toBe(String(start));
      else expect(t.history_from_block).toBeNull();
    }
    // the LP token of the pair created after the start block is complete
    expect(tokens.filter((t) => Number(t.created_block) >= start)).toEqual([
      expect.objectContaining({ family: 'uniswap-v2', history_from_block: null }),
    ]);
  });

  it('writes nothing when the bootstrap transaction fails (a crash redoes it whole), fences other writers out, and is done once', async () => {
    const pool = createPgPool({ connectionString: crashUrl, max: 2 }, () => undefined);
    try {
      const manifest = loadManifestNetworks(manifestPath).get('ethereum')!;
      const cfg: NetworkIndexingConfig = {
        network: 'ethereum',
        rpcUrl: anvil.rpcUrl,
        startBlock: start,
        bootstrap: true,
        finalityDepth: NETWORK_INFO.ethereum.finalityDepth,
        maxLogRange: 150,
        pollMs: 50,
        listedTokens: manifest.tokens,
        wrappedNative: manifest.wrappedNative,
      };
      const platforms = loadPlatformRegistry(manifestPath, ['ethereum']);
      const q = poolQuery(pool);
      await tryAcquireLease(q, 'ethereum', 'me', 60_000);
      await ensureCursor(q, 'ethereum', start);
      const failing: DerivationStage = {
        applyBatch: () => Promise.reject(new Error('killed mid-transaction')),
        rollback: async () => undefined,
        refreshHead: async () => undefined,
      };
      const ctx = {
        pool,
        reader: new ChainReader(anvil.client),
        cfg,
        platforms,
        holder: 'me',
        head,
        pendingSeeds: [],
        log: () => undefined,
      };
      await expect(bootstrapScope({ ...ctx, derive: failing })).rejects.toThrow('killed mid-transaction');
      const count = async (table: string): Promise<number> =>
        Number((await pool.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${table} WHERE network = 'ethereum'`)).rows[0]!.n);
      for (const table of ['pools', 'pool_ticks', 'tokens', 'blocks', 'pool_state_history']) expect(await count(table)).toBe(0);
      expect(needsBootstrap(cfg, (await readCursor(q, 'ethereum'))!)).toBe(true);
      await expect(bootstrapScope({ ...ctx, holder: 'other', derive: new RecordingDerivation() })).rejects.toThrow(/lease lost/);
      expect(await count('pools')).toBe(0);
      // With a liquidity floor (in WETH): the thinner pools are left out, the others written.
      const done = await bootstrapScope({ ...ctx, cfg: { ...cfg, poolFloorNative: FLOOR }, derive: new RecordingDerivation() });
      console.log(`floor ${FLOOR} WETH: ${JSON.stringify(done)}`);
      expect(done!.belowFloor).toBeGreaterThan(0);
      expect(done!.pools).toBeGreaterThan(0);
      expect(done!.pools).toBe(await count('pools'));
      expect(done!.pools + done!.belowFloor).toBe(
        Number(
          (
            await full!.pool.query<{ n: string }>(
              `SELECT count(*)::text AS n FROM pools WHERE network = 'ethereum' AND created_block < $1`,
              [start],
            )
          ).rows[0]!.n,
        ),
      );
      expect(needsBootstrap(cfg, (await readCursor(q, 'ethereum'))!)).toBe(false);
      // A rollback to the start block (cursor back at start - 1 without a hash) does not bootstrap again.
      await pool.query(`UPDATE index_cursors SET block_hash = '' WHERE network = 'ethereum'`);
      expect(await nothingStored(q, 'ethereum')).toBe(false);
      await expect(bootstrapScope({ ...ctx, derive: new RecordingDerivation() })).rejects.toThrow(/tokens were written/);
      expect(await count('pool_ticks')).toBe(done!.ticks);
    } finally {
      await pool.end();
    }
  });
});
