import { ChainReader, JsonRpcClient, type RpcLog } from '@tokensvc/chain';
import type { DevnetManifest, NetworkManifest } from '@tokensvc/devnet';
import { ZERO_ADDRESS } from '@tokensvc/domain';
import { dropDatabase, migrate } from '@tokensvc/persistence';
import { createTestDatabaseUrl, testDevnet } from '@tokensvc/testing';
import { readFileSync } from 'node:fs';
import { TOPICS } from '@tokensvc/protocols';
import { balancesOf, totalSupply, v2Reserves, v3State, v3Ticks, v4State, v4Ticks } from '../testing/chain-checks';
import { RecordingDerivation } from '../testing/recording-derivation';
import { startTestIndexer, type TestIndexer } from '../testing/run-indexer';
import { prunePoolHistory } from '../store/pools.repo';
import { poolQuery } from '../store/sql-tx';
import { pruneTickDeltas } from '../store/ticks.repo';

jest.setTimeout(300_000);

/**
 * Backfills the shared devnet's ethereum chain (read-only) into a fresh database and checks the
 * raw read models against the chain itself: eth_call for state, eth_getLogs for events.
 */
describe('ingest backfill of the devnet (ethereum)', () => {
  const { rpcUrls, manifestPath } = testDevnet();
  const rpcUrl = rpcUrls.ethereum!;
  const net: NetworkManifest = (JSON.parse(readFileSync(manifestPath, 'utf8')) as DevnetManifest).networks.find(
    (n) => n.network === 'ethereum',
  )!;
  const client = new JsonRpcClient(rpcUrl);
  const reader = new ChainReader(client);
  const dbUrl = createTestDatabaseUrl('ingest_backfill');
  const derive = new RecordingDerivation();
  let ti: TestIndexer;
  let head: number;
  const q = async <T>(sql: string, params: unknown[] = []): Promise<T[]> => (await ti.pool.query(sql, params)).rows as T[];
  const lower = (a: string): string => a.toLowerCase();

  beforeAll(async () => {
    await migrate(dbUrl);
    head = await reader.blockNumber();
    ti = startTestIndexer({ network: 'ethereum', rpcUrl, databaseUrl: dbUrl, manifestPath, derive, maxLogRange: 150 });
    await ti.waitForCursor(head);
  });

  afterAll(async () => {
    await ti?.stop();
    await dropDatabase(dbUrl);
  });

  it('logs "caught up" at the head and hands the derivation stage contiguous, ordered batches', async () => {
    expect(ti.lines).toContainEqual(expect.objectContaining({ msg: 'caught up', network: 'ethereum', block: head }));
    const batches = derive.batches;
    expect(batches[0]!.fromBlock).toBe(net.history.deployBlock);
    for (let i = 1; i < batches.length; i++) expect(batches[i]!.fromBlock).toBe(batches[i - 1]!.toBlock + 1);
    expect(batches[batches.length - 1]!.toBlock).toBe(head);
    for (const b of batches) {
      const positions = b.transfers.map((t) => t.blockNumber * 1e6 + t.logIndex);
      expect(positions).toEqual([...positions].sort((x, y) => x - y));
      expect(b.blocks.map((h) => h.number)).toContain(b.toBlock);
    }
  });

  it('registers every manifest token, pool, vault and market with its underlying tokens and static fields', async () => {
    const tokens = await q<{
      address: string;
      platform: string;
      family: string;
      name: string;
      symbol: string;
      decimals: number;
      underlying: string[];
      pool_address: string | null;
      is_verified: boolean;
      verified_at: Date | null;
      image: string;
      images: string[];
      created_block: string;
      created_at: Date;
    }>(`SELECT * FROM tokens WHERE network = 'ethereum'`);
    const byAddress = new Map(tokens.map((t) => [t.address, t]));
    expect(byAddress.get(ZERO_ADDRESS)).toMatchObject({
      platform: 'native',
      family: 'native',
      symbol: 'ETH',
      decimals: 18,
      is_verified: true,
    });
    for (const t of net.tokens)
      expect(byAddress.get(lower(t.address))).toMatchObject({
        platform: 'basic',
        family: 'basic',
        symbol: t.symbol,
        name: t.name,
        decimals: t.decimals,
        is_verified: true,
        underlying: [],
      });
    const symbol = (address: string): string => net.tokens.find((t) => lower(t.address) === lower(address))!.symbol;
    let pairs = 0;
    for (const p of net.platforms) {
      for (const pool of p.pools) {
        const row = (
          await q<{ family: string; token0: string; token1: string; fee: number; tick_spacing: number | null }>(
            `SELECT * FROM pools WHERE network = 'ethereum' AND address = $1`,
            [lower(pool.address)],
          )
        )[0];
        expect(row).toMatchObject({
          family: p.family,
          token0: lower(pool.token0),
          token1: lower(pool.token1),
          fee: pool.fee,
          tick_spacing: pool.tickSpacing ?? null,
        });
        if (p.family === 'uniswap-v2') {
          // named after what it holds (every pair's name() is "Uniswap V2"), token0 first, as the pair orders them
          const name = `${p.name} ${symbol(pool.token0)}/${symbol(pool.token1)}`;
          const underlying = [lower(pool.token0), lower(pool.token1)];
          const lp = byAddress.get(lower(pool.address));
          expect(lp).toMatchObject({
            platform: p.slug,
            family: 'uniswap-v2',
            name,
            underlying,
            pool_address: lower(pool.address),
            decimals: 18,
          });
          pairs++;
        } else expect(byAddress.has(lower(pool.address))).toBe(false);
      }
      // a vault's own name says what it holds ("Steakhouse USDC"): kept
      for (const v of p.vaults) {
        const share = byAddress.get(lower(v.address));
        expect(share).toMatchObject({ platform: p.slug, family: 'erc4626', name: v.name, underlying: [lower(v.asset)], symbol: v.symbol });
        expect(share?.decimals).toBe(v.decimals);
      }
      for (const m of p.markets) {
        expect(byAddress.get(lower(m.aToken))).toMatchObject({
          platform: p.slug,
          family: 'aave-v3',
          underlying: [lower(m.asset)],
          pool_address: lower(p.addresses['pool'] as string),
        });
      }
    }
    expect(pairs).toBeGreaterThan(0);
    expect(byAddress.get(lower(net.platforms.find((p) => p.slug === 'sushiswap')!.pools[0]!.address))!.name).toMatch(
      /^SushiSwap [^\s/]+\/[^\s/]+$/,
    );
    for (const t of tokens) {
      expect(t.image).toBe(`/images/tokens/ethereum/${t.address}.svg`);
      expect(t.images).toEqual([t.image]);
      expect(t.symbol.length).toBeGreaterThan(0);
      expect(Number(t.created_block)).toBeGreaterThanOrEqual(net.history.deployBlock);
      expect(t.verified_at === null).toBe(!t.is_verified);
    }
  });

  it('stores exactly the Transfer (and WETH Deposit/Withdrawal) logs of registered tokens, no more, no fewer', async () => {
    const registered = (await q<{ address: string }>(`SELECT address FROM tokens WHERE network = 'ethereum' AND family <> 'native'`)).map(
      (r) => r.address,
    );
    const logs: RpcLog[] = await reader.logs(
      { addresses: registered, topic0: [TOPICS.transfer, TOPICS.wethDeposit, TOPICS.wethWithdrawal] },
      net.history.deployBlock,
      head,
    );
    const relevant = logs.filter((l) => l.topics[0] !== TOPICS.transfer || l.topics.length === 3);
    const stored = await q<{ block_number: string; log_index: number }>(
      `SELECT block_number, log_index FROM transfers WHERE network = 'ethereum' ORDER BY block_number, log_index`,
    );
    expect(stored.length).toBeGreaterThan(10_000);
    expect(stored.map((r) => `${r.block_number}:${r.log_index}`)).toEqual(relevant.map((l) => `${l.blockNumber}:${l.logIndex}`));
  });

  it('keeps balances equal to balanceOf for every holder of every token, summing to totalSupply (less what the zero address holds)', async () => {
    // aTokens are left out: their balanceOf grows with the liquidity index, without Transfer events.
    const tokens = (
      await q<{ address: string }>(`SELECT address FROM tokens WHERE network = 'ethereum' AND family NOT IN ('native', 'aave-v3')`)
    ).map((r) => r.address);
    let holders = 0;
    for (const token of tokens) {
      const rows = await q<{ holder: string; balance: string }>(
        `SELECT holder, balance FROM balances WHERE network = 'ethereum' AND token = $1 ORDER BY holder`,
        [token],
      );
      expect(rows.length).toBeGreaterThan(0);
      holders += rows.length;
      const onChain = await balancesOf(
        client,
        token,
        rows.map((r) => r.holder),
      );
      expect({ token, balances: rows.map((r) => BigInt(r.balance)) }).toEqual({ token, balances: onChain });
      // The zero address is not a holder (V2 pairs lock MINIMUM_LIQUIDITY there).
      const [burnt] = await balancesOf(client, token, [ZERO_ADDRESS]);
      expect({ token, sum: rows.reduce((s, r) => s + BigInt(r.balance), 0n) }).toEqual({
        token,
        sum: (await totalSupply(client, token)) - burnt!,
      });
    }
    expect(tokens.length).toBeGreaterThan(20);
    expect(holders).toBeGreaterThan(100);
  });

  it('keeps pool state equal to getReserves() / slot0() / liquidity() and V3 ticks equal to ticks()', async () => {
    const pools = await q<{
      address: string;
      family: string;
      token0: string;
      token1: string;
      reserve0: string;
      reserve1: string;
      sqrt_price_x96: string | null;
      liquidity: string | null;
      tick: number | null;
    }>(`SELECT * FROM pools WHERE network = 'ethereum'`);
    expect(pools.length).toBe(net.platforms.reduce((n, p) => n + p.pools.length, 0));
    // Uniswap V4 pools are ids inside the PoolManager: their state is its storage, and their
    // reserves (counted from its events) add up, token by token, to what it holds (on the devnet no
    // position collects fees and no protocol fee is set, so nothing has left the pools but swaps).
    const poolManager = lower(net.platforms.find((x) => x.family === 'uniswap-v4')!.addresses['poolManager'] as string);
    const v4Reserves = new Map<string, bigint>();
    for (const p of pools) {
      if (p.family === 'uniswap-v2') {
        expect([BigInt(p.reserve0), BigInt(p.reserve1)]).toEqual(await v2Reserves(client, p.address));
        continue;
      }
      const v4 = p.family === 'uniswap-v4';
      const s = v4 ? await v4State(client, poolManager, p.address) : await v3State(client, p.address);
      expect({ sqrtPriceX96: BigInt(p.sqrt_price_x96!), tick: p.tick, liquidity: BigInt(p.liquidity!) }).toEqual(s);
      if (v4)
        for (const [t, r] of [
          [p.token0, p.reserve0],
          [p.token1, p.reserve1],
        ] as const)
          v4Reserves.set(t, (v4Reserves.get(t) ?? 0n) + BigInt(r));
      else {
        const balances = [(await balancesOf(client, p.token0, [p.address]))[0], (await balancesOf(client, p.token1, [p.address]))[0]];
        expect([BigInt(p.reserve0), BigInt(p.reserve1)]).toEqual(balances);
      }
      const ticks = await q<{ tick: number; liquidity_net: string; liquidity_gross: string }>(
        `SELECT tick, liquidity_net, liquidity_gross FROM pool_ticks WHERE network = 'ethereum' AND pool = $1 ORDER BY tick`,
        [p.address],
      );
      expect(ticks.length).toBeGreaterThanOrEqual(2);
      const onChain = v4
        ? await v4Ticks(
            client,
            poolManager,
            p.address,
            ticks.map((t) => t.tick),
          )
        : await v3Ticks(
            client,
            p.address,
            ticks.map((t) => t.tick),
          );
      expect(ticks.map((t) => ({ gross: BigInt(t.liquidity_gross), net: BigInt(t.liquidity_net) }))).toEqual(onChain);
      // Active liquidity is the sum of liquidityNet over initialised ticks at or below the price: no tick is missing.
      expect(ticks.filter((t) => t.tick <= s.tick).reduce((sum, t) => sum + BigInt(t.liquidity_net), 0n)).toBe(s.liquidity);
    }
    expect(v4Reserves.size).toBeGreaterThan(2);
    for (const [t, reserve] of v4Reserves) {
      const native = async (): Promise<bigint> => BigInt(await client.call<string>('eth_getBalance', [poolManager, 'latest']));
      const held = t === ZERO_ADDRESS ? await native() : (await balancesOf(client, t, [poolManager]))[0];
      expect([t, reserve]).toEqual([t, held]);
    }
  });

  it('decodes every swap, vault flow and lending event of registered contracts', async () => {
    const all = derive.batches;
    const count = async (addresses: string[], topics: string[]): Promise<number> =>
      (await reader.logs({ addresses, topic0: topics }, net.history.deployBlock, head)).length;
    const v2 = net.platforms.filter((p) => p.family === 'uniswap-v2').flatMap((p) => p.pools.map((x) => lower(x.address)));
    const v3 = net.platforms.filter((p) => p.family === 'uniswap-v3').flatMap((p) => p.pools.map((x) => lower(x.address)));
    const v4 = net.platforms.filter((p) => p.family === 'uniswap-v4').map((p) => lower(p.addresses['poolManager'] as string));
    const vaults = net.platforms.flatMap((p) => p.vaults.map((v) => lower(v.address)));
    const aavePool = lower(net.platforms.find((p) => p.family === 'aave-v3')!.addresses['pool'] as string);
    const sum = (f: (b: (typeof all)[number]) => number): number => all.reduce((s, b) => s + f(b), 0);
    // Every V4 pool of the devnet is hookless: each PoolManager event is one of an indexed pool.
    expect(sum((b) => b.swaps.length)).toBe(
      (await count(v2, [TOPICS.v2Swap])) + (await count(v3, [TOPICS.v3Swap])) + (await count(v4, [TOPICS.v4Swap])),
    );
    const v4States = await count(v4, [TOPICS.v4Swap, TOPICS.v4ModifyLiquidity, TOPICS.v4Initialize, TOPICS.v4Donate]);
    const v3States = await count(v3, [TOPICS.v3Swap, TOPICS.v3Mint, TOPICS.v3Burn, TOPICS.v3Initialize]);
    expect(sum((b) => b.poolStates.length)).toBe((await count(v2, [TOPICS.v2Sync])) + v3States + v4States);
    const v4Liquidity = await count(v4, [TOPICS.v4ModifyLiquidity]);
    const v2v3Liquidity = (await count(v2, [TOPICS.v2Mint, TOPICS.v2Burn])) + (await count(v3, [TOPICS.v3Mint, TOPICS.v3Burn]));
    expect(sum((b) => b.liquidity.length)).toBe(v2v3Liquidity + v4Liquidity);
    expect(await count(v4, [TOPICS.v4Swap])).toBeGreaterThan(50);
    expect(sum((b) => b.vaultFlows.length)).toBe(await count(vaults, [TOPICS.vaultDeposit, TOPICS.vaultWithdraw]));
    expect(sum((b) => b.lending.length)).toBe(
      await count([aavePool], [TOPICS.aaveSupply, TOPICS.aaveWithdraw, TOPICS.aaveBorrow, TOPICS.aaveRepay]),
    );
    expect(sum((b) => b.reserveRates.length)).toBe(await count([aavePool], [TOPICS.aaveReserveDataUpdated]));
    expect(sum((b) => b.swaps.length)).toBeGreaterThan(1000);
    expect(sum((b) => b.lending.length)).toBeGreaterThan(50);
  });

  it('prunes the rollback journals without losing what a rollback above the prune point restores', async () => {
    const pruneAt = head - 100;
    // What a rollback to any ancestor at or above the prune point would restore, per pool.
    const restorable = async (ancestor: number): Promise<unknown[]> =>
      q(
        `SELECT DISTINCT ON (pool) pool, block_number, reserve0, reserve1, sqrt_price_x96, liquidity, tick FROM pool_state_history
         WHERE network = 'ethereum' AND block_number <= $1 ORDER BY pool, block_number DESC`,
        [ancestor],
      );
    const before = [await restorable(pruneAt), await restorable(head - 10)];
    const rowsBefore = (await q<{ n: number }>(`SELECT count(*)::int AS n FROM pool_state_history WHERE network = 'ethereum'`))[0]!.n;
    await prunePoolHistory(poolQuery(ti.pool), 'ethereum', pruneAt);
    await pruneTickDeltas(poolQuery(ti.pool), 'ethereum', pruneAt);
    expect([await restorable(pruneAt), await restorable(head - 10)]).toEqual(before);
    expect((await q<{ n: number }>(`SELECT count(*)::int AS n FROM pool_state_history WHERE network = 'ethereum'`))[0]!.n).toBeLessThan(
      rowsBefore,
    );
    // Below the prune point only each pool's latest state is left.
    const below = await q<{ pool: string; n: number }>(
      `SELECT pool, count(*)::int AS n FROM pool_state_history WHERE network = 'ethereum' AND block_number <= $1 GROUP BY pool`,
      [pruneAt],
    );
    expect(below.length).toBeGreaterThan(10);
    expect(below.every((r) => r.n === 1)).toBe(true);
    expect(
      (
        await q<{ n: number }>(`SELECT count(*)::int AS n FROM pool_tick_deltas WHERE network = 'ethereum' AND block_number < $1`, [
          pruneAt,
        ])
      )[0]!.n,
    ).toBe(0);
  });
});
