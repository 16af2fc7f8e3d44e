/**
 * The derivation over the devnet's real history (read-only: eth_getLogs / eth_call only), on a
 * private anvil loaded from the devnet's saved state: other test files mine on the shared devnet,
 * and its node keeps no past states, so an eth_call at the history's last block would fail there
 * once anything else has been mined.
 * Batches are built from eth_getLogs with ethers' decoder (standing in for ingest), applied in
 * consecutive ranges to a fresh database, and every figure is checked against the chain.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Contract, Interface, JsonRpcProvider } from 'ethers';
import { Client, type Pool } from 'pg';
import type { CommonConfig } from '@tokensvc/config';
import { fromUnits, toUnits, ZERO_ADDRESS } from '@tokensvc/domain';
import { createPgPool, dropDatabase, migrate } from '@tokensvc/persistence';
import { createTestDatabaseUrl, freePort, testDevnet } from '@tokensvc/testing';
import type { DecodedBatch } from '../model/decoded-batch';
import { startPrivateAnvil, type PrivateAnvil } from '../testing/private-anvil';
import { RESOLUTION_SECONDS, RESOLUTIONS } from './math/candles';
import { rayRateToApy } from './math/ray';
import { Deriver } from './deriver';
import type { SqlTx } from './repo/sql';
import { refreshTokenMetrics } from './repo/token-state.repo';
import { DecodedBatchBuilder, topic } from './testing/chain-batch';
import { lower, platformsOf, type World } from './testing/devnet-world';
import { rollbackIngestRows, seedRegistry, writeIngestRows } from './testing/ingest-stand-in';
import { rpc, type RawLog } from './testing/rpc';
import { differences, snapshotDerived, type DerivedSnapshot } from './testing/snapshot';

jest.setTimeout(600_000);

const devnet = testDevnet();
const world = (JSON.parse(readFileSync(devnet.manifestPath, 'utf8')) as { networks: World[] }).networks.find(
  (n) => n.network === 'ethereum',
)!;
let anvil: PrivateAnvil;
let rpcUrl: string;
let provider: JsonRpcProvider;
const N = world.network;
const key = (address: string): string => `${N}:${lower(address)}`;
const FIRST = world.history.deployBlock;
const LAST = world.history.lastBlock;
const ANCESTOR = FIRST + Math.floor((LAST - FIRST) * 0.7);
const RANGES: Array<[number, number]> = [
  [FIRST, FIRST + 150],
  [FIRST + 151, FIRST + 400],
  [FIRST + 401, ANCESTOR],
  [ANCESTOR + 1, ANCESTOR + 60],
  [ANCESTOR + 61, LAST],
];

const ABI = new Interface([
  'function totalSupply() view returns (uint256)',
  'function balanceOf(address) view returns (uint256)',
  'function getReserves() view returns (uint112, uint112, uint32)',
  'function convertToAssets(uint256) view returns (uint256)',
  'function totalAssets() view returns (uint256)',
  'function scaledTotalSupply() view returns (uint256)',
  'function getReserveData(address) view returns (tuple(uint256, uint128, uint128 currentLiquidityRate, uint128, uint128 currentVariableBorrowRate, uint128, uint40, uint16, address, address, address, address, uint128, uint128, uint128))',
]);
const at = (address: string): Contract => new Contract(address, ABI, provider);

let url: string;
let client: Client;
let pool: Pool;
let deriver: Deriver;
const tx: SqlTx = { query: async <T>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as T[] };
let builder: DecodedBatchBuilder;
let atAncestor: DerivedSnapshot;
let full: DerivedSnapshot;
let applyMs = 0;

async function inTx(fn: () => Promise<void>): Promise<void> {
  await client.query('BEGIN');
  try {
    await fn();
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK');
    throw e;
  }
}

/** Built once per range: the builder carries V3 state forward, so a range is never decoded twice. */
const batches = new Map<number, DecodedBatch>();

async function apply(from: number, to: number): Promise<void> {
  const batch = batches.get(from) ?? (await builder.build(from, to));
  batches.set(from, batch);
  await inTx(async () => {
    await writeIngestRows(tx, batch);
    const t0 = Date.now();
    await deriver.applyBatch(tx, batch);
    applyMs += Date.now() - t0;
  });
}

function concatBatches(parts: readonly DecodedBatch[]): DecodedBatch {
  const cat = <K extends keyof DecodedBatch>(k: K): DecodedBatch[K] => parts.flatMap((p) => p[k] as unknown[]) as DecodedBatch[K];
  return {
    network: N,
    fromBlock: parts[0]!.fromBlock,
    toBlock: parts[parts.length - 1]!.toBlock,
    blocks: cat('blocks'),
    transfers: cat('transfers'),
    poolStates: cat('poolStates'),
    swaps: cat('swaps'),
    liquidity: cat('liquidity'),
    vaultFlows: cat('vaultFlows'),
    lending: cat('lending'),
    reserveRates: cat('reserveRates'),
    newTokens: [],
  };
}

async function tokenRow(address: string): Promise<
  Record<string, unknown> & {
    price: number;
    liquidity: number;
    total_supply: string;
    circulating_supply: string;
    total_borrow: string;
    reserves: string[];
    price_per_share: string;
    apy: number;
    borrow_apy: number;
  }
> {
  const [row] = await tx.query<never>(
    `SELECT *, reserves::text[] AS reserves, total_supply::text AS total_supply, circulating_supply::text AS circulating_supply, total_borrow::text AS total_borrow FROM tokens WHERE key = $1`,
    [key(address)],
  );
  return row!;
}

beforeAll(async () => {
  anvil = await startPrivateAnvil({
    network: 'ethereum',
    port: await freePort(),
    stateFile: join(dirname(devnet.manifestPath), 'ethereum.state.json'),
  });
  rpcUrl = anvil.rpcUrl;
  provider = new JsonRpcProvider(rpcUrl, 1, { staticNetwork: true });
  url = createTestDatabaseUrl('derive');
  await migrate(url);
  client = new Client({ connectionString: url });
  await client.connect();
  pool = createPgPool({ connectionString: url, max: 2 });
  deriver = new Deriver({ networks: [{ network: N, rpcUrl }] } as unknown as CommonConfig, pool);
  builder = new DecodedBatchBuilder(world, rpcUrl);
  await inTx(() => seedRegistry(tx, world));
  for (const [from, to] of RANGES) {
    await apply(from, to);
    if (to === ANCESTOR) atAncestor = await snapshotDerived(tx, N);
  }
  full = await snapshotDerived(tx, N);
  process.stderr.write(
    `[derive] applyBatch over blocks ${FIRST}-${LAST}: ${applyMs} ms, ${full.points.length} points, ${full.activities.length} activities, ${full.candles.length} candles\n`,
  );
});

afterAll(async () => {
  await client?.end();
  await pool?.end();
  if (url) await dropDatabase(url);
  provider?.destroy();
  await anvil?.stop();
});

describe('derived from the devnet history', () => {
  it('prices WETH and WBTC from the pools near the prices the simulation ends at', async () => {
    for (const symbol of ['WETH', 'WBTC', 'LINK', 'UNI']) {
      const t = world.tokens.find((x) => x.symbol === symbol)!;
      const row = await tokenRow(t.address);
      expect(Math.abs(row.price / t.priceUsd - 1)).toBeLessThan(0.03);
    }
    const native = await tokenRow(ZERO_ADDRESS);
    expect(native.price).toBe((await tokenRow(world.tokens.find((x) => x.symbol === 'WETH')!.address)).price);
    expect((await tokenRow(world.tokens.find((x) => x.symbol === 'USDC')!.address)).price).toBe(1);
  });

  it('values every V2 LP token at its reserves over its supply, as read with eth_call', async () => {
    const pools = platformsOf(world, 'uniswap-v2').flatMap((p) => p.pools);
    expect(pools.length).toBeGreaterThanOrEqual(10);
    for (const pool of pools) {
      const [r0, r1] = (await at(pool.address).getFunction('getReserves')()) as [bigint, bigint];
      const supply = (await at(pool.address).getFunction('totalSupply')()) as bigint;
      const locked = (await at(pool.address).getFunction('balanceOf')(ZERO_ADDRESS)) as bigint;
      const [t0, t1] = [await tokenRow(pool.token0), await tokenRow(pool.token1)];
      const d = (a: string): number => world.tokens.find((x) => lower(x.address) === lower(a))!.decimals;
      const expected = (toUnits(r0, d(pool.token0)) * t0.price + toUnits(r1, d(pool.token1)) * t1.price) / toUnits(supply, 18);
      const row = await tokenRow(pool.address);
      expect(row.reserves).toEqual([r0.toString(), r1.toString()]);
      expect(row.total_supply).toBe(supply.toString());
      expect(row.circulating_supply).toBe((supply - locked).toString());
      expect(Math.abs(row.price / expected - 1)).toBeLessThan(1e-9);
    }
  });

  it('gives each vault the share price convertToAssets(one share) returns, its totalAssets and supply', async () => {
    for (const v of platformsOf(world, 'erc4626').flatMap((p) => p.vaults)) {
      const row = await tokenRow(v.address);
      const assetDecimals = world.tokens.find((x) => lower(x.address) === lower(v.asset))!.decimals;
      const oneShare = (await at(v.address).getFunction('convertToAssets')(10n ** BigInt(v.decimals))) as bigint;
      expect(fromUnits(row.price_per_share, assetDecimals)).toBe(oneShare);
      expect(row.reserves).toEqual([((await at(v.address).getFunction('totalAssets')()) as bigint).toString()]);
      expect(row.total_supply).toBe(((await at(v.address).getFunction('totalSupply')()) as bigint).toString());
      // ~3.5-8 % a year from daily harvests
      expect(row.apy).toBeGreaterThan(1);
      expect(row.apy).toBeLessThan(20);
    }
  });

  it('tracks Aave supply and debt in scaled units and takes APYs from the market rates', async () => {
    const aave = platformsOf(world, 'aave-v3')[0]!;
    for (const m of aave.markets) {
      const row = await tokenRow(m.aToken);
      const data = (await at(aave.addresses['pool'] as string).getFunction('getReserveData')(m.asset)) as {
        currentLiquidityRate: bigint;
        currentVariableBorrowRate: bigint;
      };
      expect(row.apy).toBeCloseTo(rayRateToApy(data.currentLiquidityRate), 10);
      expect(row.borrow_apy).toBeCloseTo(rayRateToApy(data.currentVariableBorrowRate), 10);
      const [point] = await tx.query<{ aux: Record<string, string> }>(
        `SELECT aux FROM price_points WHERE token_key = $1 ORDER BY block_number DESC LIMIT 1`,
        [key(m.aToken)],
      );
      const scaled = (await at(m.aToken).getFunction('scaledTotalSupply')()) as bigint;
      const scaledDebt = (await at(m.variableDebtToken).getFunction('scaledTotalSupply')()) as bigint;
      expect(BigInt(point!.aux['scaledSupply'] ?? '0')).toBe(scaled);
      expect(BigInt(point!.aux['scaledDebt'] ?? '0')).toBe(scaledDebt);
      expect(row.reserves).toEqual([((await at(m.asset).getFunction('balanceOf')(m.aToken)) as bigint).toString()]);
    }
  });

  it('counts one activity per Swap/Mint/Burn of a pair, Deposit/Withdraw of a vault and Supply/Withdraw/Borrow/Repay of Aave', async () => {
    const count = async (address: string[], topics: string[]): Promise<number> =>
      (
        await rpc<RawLog[]>(rpcUrl, 'eth_getLogs', [
          { fromBlock: `0x${FIRST.toString(16)}`, toBlock: `0x${LAST.toString(16)}`, address, topics: [topics] },
        ])
      ).length;
    const pairs = platformsOf(world, 'uniswap-v2').flatMap((p) => p.pools.map((x) => x.address));
    const vaults = platformsOf(world, 'erc4626').flatMap((p) => p.vaults.map((x) => x.address));
    const expected = {
      pairs: await count(pairs, [topic('v2', 'Swap'), topic('v2', 'Mint'), topic('v2', 'Burn')]),
      vaults: await count(vaults, [topic('vault', 'Deposit'), topic('vault', 'Withdraw')]),
      aave: await count(
        [builder.aavePool],
        ['Supply', 'Withdraw', 'Borrow', 'Repay'].map((e) => topic('aave', e)),
      ),
    };
    const byFamily = await tx.query<{ family: string; n: string }>(
      `SELECT t.family, count(*) AS n FROM activities a JOIN tokens t ON t.key = a.token_key GROUP BY t.family`,
    );
    const got = Object.fromEntries(byFamily.map((r) => [r.family, Number(r.n)]));
    expect(got).toEqual({ 'uniswap-v2': expected.pairs, erc4626: expected.vaults, 'aave-v3': expected.aave });
    expect(expected.pairs + expected.vaults + expected.aave).toBe(full.activities.length);
    const swaps = await tx.query<{ direction: number; input_token: string; amounts: unknown[] }>(
      `SELECT direction, input_token, amounts FROM activities WHERE type = 'swap' LIMIT 50`,
    );
    expect(new Set(swaps.map((s) => s.direction))).toEqual(new Set([0, 1]));
    const [borrow] = await tx.query<{ amounts: Array<Record<string, string>> }>(
      `SELECT amounts FROM activities WHERE type = 'borrow' LIMIT 1`,
    );
    expect(Object.keys(borrow!.amounts[0]!).sort()).toEqual(['account', 'amount', 'amountUsd', 'key', 'symbol']);
  });

  it('builds every candle OHLC exactly as recomputed from the price points', async () => {
    for (const resolution of RESOLUTIONS) {
      const size = RESOLUTION_SECONDS[resolution];
      // Over the priced points of the bucket (price 0: the token had no price yet); no candle without any.
      const recomputed = await tx.query<Record<string, unknown>>(
        `SELECT token_key, floor(extract(epoch from time) / $1) * $1 AS bucket,
           (array_agg(price ORDER BY block_number) FILTER (WHERE price > 0))[1] AS open,
           max(price) FILTER (WHERE price > 0) AS high, min(price) FILTER (WHERE price > 0) AS low,
           (array_agg(price ORDER BY block_number DESC) FILTER (WHERE price > 0))[1] AS close
         FROM price_points GROUP BY 1, 2 HAVING bool_or(price > 0) ORDER BY 1, 2`,
        [size],
      );
      const candles = await tx.query<Record<string, unknown>>(
        `SELECT token_key, extract(epoch from bucket) AS bucket, open, high, low, close FROM candles WHERE resolution = $1 ORDER BY 1, 2`,
        [resolution],
      );
      expect(candles.length).toBeGreaterThan(0);
      expect(candles.map((c) => ({ ...c, bucket: Number(c['bucket']) }))).toEqual(
        recomputed.map((c) => ({ ...c, bucket: Number(c['bucket']) })),
      );
    }
  });

  it('opens the first candle of WETH and of every V2 LP token at a price, at every resolution', async () => {
    // WETH is minted (wrapped) before any pool prices it: those first points have price 0.
    const weth = world.tokens.find((x) => x.symbol === 'WETH')!;
    const [unpriced] = await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM price_points WHERE token_key = $1 AND price = 0`, [
      key(weth.address),
    ]);
    expect(unpriced!.n).toBeGreaterThan(0);
    const tokens = [weth.address, ...platformsOf(world, 'uniswap-v2').flatMap((p) => p.pools.map((x) => x.address))];
    for (const resolution of RESOLUTIONS) {
      for (const address of tokens) {
        const [first] = await tx.query<{ open: number; high: number; low: number; close: number }>(
          `SELECT open, high, low, close FROM candles WHERE token_key = $1 AND resolution = $2 ORDER BY bucket LIMIT 1`,
          [key(address), resolution],
        );
        expect({ address, resolution, first }).toEqual({
          address,
          resolution,
          first: expect.objectContaining({ open: expect.any(Number), low: expect.any(Number) }),
        });
        expect({
          address,
          resolution,
          positive: first!.open > 0 && first!.low > 0 && first!.low <= first!.open && first!.open <= first!.high,
        }).toEqual({ address, resolution, positive: true });
      }
    }
  });

  it('counts every swap of every indexed pool (V2 and V3) once for each of its basic tokens, at the value of a V2 swap activity', async () => {
    const pools = [...platformsOf(world, 'uniswap-v2'), ...platformsOf(world, 'uniswap-v3')].flatMap((p) => p.pools);
    const swapLogs = await rpc<RawLog[]>(rpcUrl, 'eth_getLogs', [
      {
        fromBlock: `0x${FIRST.toString(16)}`,
        toBlock: `0x${LAST.toString(16)}`,
        address: pools.map((p) => p.address),
        topics: [[topic('v2', 'Swap'), topic('v3', 'Swap')]],
      },
    ]);
    const tokensOf = new Map(pools.map((p) => [p.address.toLowerCase(), [p.token0, p.token1].map((t) => key(t.toLowerCase()))]));
    const expected = new Map<string, number>();
    for (const l of swapLogs) for (const k of tokensOf.get(l.address.toLowerCase())!) expected.set(k, (expected.get(k) ?? 0) + 1);
    const basicRows = await tx.query<{ key: string }>(`SELECT key FROM tokens WHERE network = $1 AND family IN ('basic', 'native')`, [N]);
    const basic = new Set(basicRows.map((r) => r.key));
    const counted = await tx.query<{ token_key: string; n: string }>(
      `SELECT token_key, sum(swaps) AS n FROM swap_volumes WHERE network = $1 GROUP BY token_key`,
      [N],
    );
    expect(Object.fromEntries(counted.map((r) => [r.token_key, Number(r.n)]))).toEqual(
      Object.fromEntries([...expected].filter(([k]) => basic.has(k))),
    );
    expect(platformsOf(world, 'uniswap-v3').length).toBeGreaterThan(0);
    // a V2 swap's activity volume_usd is its share of both its tokens' swap volume (same block prices, same rule): in the
    // blocks where all of a token's swaps were V2 swaps, its swap volume is the sum of those activities' volumes
    // (cents as Math.round makes them: Postgres' round() of a float8 breaks ties to even)
    const agree = await tx.query<{ block_number: string; token: string; swap_cents: string; activity_cents: string }>(
      `WITH av AS (SELECT a.block_number, u.token, count(*) AS n, sum(floor(a.volume_usd * 100 + 0.5)) AS cents
                     FROM activities a JOIN tokens t ON t.key = a.token_key CROSS JOIN LATERAL unnest(t.underlying) AS u(token)
                    WHERE a.network = $1 AND a.type = 'swap' GROUP BY a.block_number, u.token)
       SELECT av.block_number, av.token, sv.volume_cents AS swap_cents, av.cents AS activity_cents
         FROM av JOIN swap_volumes sv ON sv.block_number = av.block_number AND sv.token_key = $1 || ':' || av.token AND sv.swaps = av.n`,
      [N],
    );
    expect(agree.length).toBeGreaterThan(10);
    expect(agree.filter((r) => Number(r.swap_cents) !== Number(r.activity_cents))).toEqual([]);
  });

  it('gives candles the activity (basic and native tokens: swap) volume of their bucket and of the day up to their end', async () => {
    // Activity volumes are summed in whole cents: allow half a cent per activity (swap volumes are stored in cents).
    const vol = (from: string, to: string): string => `SELECT sum(v) AS v, sum(n) AS n FROM (
        SELECT sum(a.volume_usd) AS v, count(*) AS n FROM activities a WHERE a.token_key = c.token_key AND a.time >= ${from} AND a.time < ${to}
        UNION ALL SELECT sum(w.volume_cents)::float8 / 100, 0 FROM swap_volumes w
         WHERE w.token_key = c.token_key AND w.time >= ${from} AND w.time < ${to}) x`;
    type Row = { token_key: string; volume_usd: number; volume_1d_usd: number; trending_score: number; liquidity: number };
    type Sums = { v: number; n: string; v1: number; n1: string };
    const rows = await tx.query<Row & Sums>(
      `SELECT c.token_key, c.volume_usd, c.volume_1d_usd, c.trending_score, c.liquidity, coalesce(w.v, 0) AS v, w.n, coalesce(d.v, 0) AS v1, d.n AS n1
       FROM candles c JOIN (VALUES ('15m', interval '15 minutes'), ('30m', interval '30 minutes'), ('1h', interval '1 hour'), ('4h', interval '4 hours'), ('1d', interval '1 day')) AS s(res, size) ON s.res = c.resolution
       CROSS JOIN LATERAL (${vol('c.bucket', 'c.bucket + s.size')}) w
       CROSS JOIN LATERAL (${vol("c.bucket + s.size - interval '1 day'", 'c.bucket + s.size')}) d`,
    );
    expect(rows.filter((r) => r.volume_usd > 0).length).toBeGreaterThan(1000);
    expect(
      rows.filter((r) => r.volume_usd > 0 && r.token_key === key(world.tokens.find((x) => x.symbol === 'WETH')!.address)).length,
    ).toBeGreaterThan(10);
    const off = rows.filter(
      (r) =>
        Math.abs(r.volume_usd - r.v) > 0.005 * Number(r.n) + 1e-9 ||
        Math.abs(r.volume_1d_usd - r.v1) > 0.005 * Number(r.n1) + 1e-9 ||
        Math.abs(r.trending_score - (r.liquidity > 0 ? r.volume_1d_usd / r.liquidity : 0)) > 1e-12,
    );
    expect(off).toEqual([]);
  });

  it('fills volumes and the paid metrics as of the latest block', async () => {
    const lp = await tokenRow(platformsOf(world, 'uniswap-v2')[0]!.pools[0]!.address);
    expect(lp['volume_usd_1d'] as number).toBeGreaterThan(0);
    expect(lp['volume_usd_7d'] as number).toBeGreaterThanOrEqual(lp['volume_usd_1d'] as number);
    const metrics = lp['paid_metrics'] as Record<string, string>;
    expect(Object.keys(metrics)).toHaveLength(16);
    for (const v of Object.values(metrics)) expect(v).toMatch(/^-?[0-9]+(\.[0-9]+)?$/);
    const [then] = await tx.query<{ price: number }>(
      `SELECT price FROM price_points WHERE token_key = $1 AND time <= to_timestamp($2) ORDER BY time DESC, block_number DESC LIMIT 1`,
      [key(platformsOf(world, 'uniswap-v2')[0]!.pools[0]!.address), world.history.lastTimestamp - 86_400],
    );
    expect(Math.abs(Number(metrics['price1d']) / then!.price - 1)).toBeLessThan(1e-12);
    // Batches after the first refresh only the tokens whose figures can have changed: the same
    // tables as refreshing every token.
    const now = Math.max(
      ...(await tx.query<{ t: number }>(`SELECT extract(epoch from max(time))::float8 AS t FROM blocks WHERE network = $1`, [N])).map(
        (r) => r.t,
      ),
    );
    await inTx(() => refreshTokenMetrics(tx, N, now));
    expect(differences(await snapshotDerived(tx, N), full)).toEqual([]);
  });

  it('rolls back to an ancestor exactly as if indexing had stopped there, and re-applies to the same result', async () => {
    await inTx(async () => {
      await rollbackIngestRows(tx, N, ANCESTOR);
      await deriver.rollback(tx, N, ANCESTOR);
    });
    expect(differences(await snapshotDerived(tx, N), atAncestor)).toEqual([]);
    for (const [from, to] of RANGES.filter(([f]) => f > ANCESTOR)) await apply(from, to);
    expect(differences(await snapshotDerived(tx, N), full)).toEqual([]);
  });

  it('derives identical tables whatever the batch boundaries', async () => {
    await inTx(async () => {
      await rollbackIngestRows(tx, N, FIRST - 1);
      await deriver.rollback(tx, N, FIRST - 1);
    });
    expect(await tx.query(`SELECT 1 FROM price_points UNION ALL SELECT 1 FROM candles UNION ALL SELECT 1 FROM activities`)).toEqual([]);
    // two batches this time, each the concatenation of the ranges above
    const all = RANGES.map(([from]) => batches.get(from)!);
    for (const part of [all.slice(0, 2), all.slice(2)]) {
      const merged = concatBatches(part);
      await inTx(async () => {
        await writeIngestRows(tx, merged);
        await deriver.applyBatch(tx, merged);
      });
    }
    expect(differences(await snapshotDerived(tx, N), full)).toEqual([]);
  });

  it('corrects supplies and Aave positions to the exact eth_call values at the head', async () => {
    await deriver.refreshHead(N, LAST);
    const weth = world.tokens.find((x) => x.symbol === 'WETH')!;
    expect((await tokenRow(weth.address)).total_supply).toBe(((await at(weth.address).getFunction('totalSupply')()) as bigint).toString());
    const aave = platformsOf(world, 'aave-v3')[0]!;
    for (const m of aave.markets) {
      const row = await tokenRow(m.aToken);
      expect(row.total_supply).toBe(((await at(m.aToken).getFunction('totalSupply')()) as bigint).toString());
      expect(row.total_borrow).toBe(((await at(m.variableDebtToken).getFunction('totalSupply')()) as bigint).toString());
    }
    for (const t of world.tokens)
      expect((await tokenRow(t.address)).total_supply).toBe(((await at(t.address).getFunction('totalSupply')()) as bigint).toString());
    // A second refresh, by a process that loads its state from the database, changes nothing.
    const refreshed = await snapshotDerived(tx, N);
    await new Deriver({ networks: [{ network: N, rpcUrl }], databaseUrl: url } as unknown as CommonConfig).refreshHead(N, LAST);
    expect(differences(await snapshotDerived(tx, N), refreshed)).toEqual([]);
  });
});
