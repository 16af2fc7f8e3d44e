/**
 * Aave V3 Polygon's WETH reserve on 2024-01-06 (the Pool's 445 ReserveDataUpdated logs, blocks
 * 51,986,202-52,024,741) replayed as arbitrum into the platform in its production configuration, and
 * the supply and borrow APYs the service serves compared with the recorded per-minute rates
 * (docs/real-data.md, issue 32).
 *
 * - The chain: the mainnet-shaped devnet's arbitrum. Aave V3's Pool (0x794a…14aD) has the same
 *   address on Polygon and Arbitrum, and the profile deploys it (and the WETH reserve's aToken) at
 *   the real addresses (libs/devnet/src/mainnet-shaped/aave.ts).
 * - The replay: the Pool's ReserveDataUpdated logs, the reserve topic rewritten from Polygon's WETH
 *   (0x7ceb…f619) to Arbitrum's (the profile's WETH, 0x82aF…Bab1); blocks without logs at 2-second
 *   steps (Polygon's block time; recorded times never fall behind them). The Supply, Withdraw, Borrow
 *   and Repay logs are left out: the data has no starting scaled supply or debt to set the devnet's
 *   reserve to (its supply is far smaller than the real one, so a real withdraw would take it below
 *   zero), and the APYs depend on the rates of ReserveDataUpdated alone.
 * - The reference: the recorded `liquidity_rate` / `variable_borrow_rate` of each minute (the state
 *   at the minute's end: the last update in the minute), converted as the service documents it
 *   (apps/indexer/src/derive/README.md: the ray APR compounded per second, (1 + r/n)^n - 1 with
 *   n = 31,536,000, in percent), computed here in exact integer arithmetic.
 * - What is compared: the 15-minute candles' `apy` / `borrowApy` (GET /v2/tokens/history; a candle
 *   carries its bucket's last state, i.e. the rates at the end of its last minute), and minute by
 *   minute the aToken's state points (price_points, what the candles are made of). The current token
 *   row is not compared: head refreshes overwrite it from the anvil's own rates.
 */
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { Contract, zeroPadValue } from 'ethers';
import { loadRegistry } from '@tokensvc/chain';
import { readDemeterRawCsv, startReplayRpc } from '@tokensvc/testing';
import {
  gatewayUp,
  median,
  realDataDir,
  rel,
  startProfile,
  startRealPlatform,
  stopRun,
  tempDir,
  untilIndexed,
  writeRegistryCut,
  type RealRun,
} from './real-data';

jest.setTimeout(240_000);

const POOL = '0x794a61358d6845594f94dc1db02a252b5b4814ad';
const POLYGON_WETH = '0x7ceb23fd6bc0add59e62ac25578270cff1b9f619';
const RESERVE_DATA_UPDATED = '0x804c9b842b2748a22bb64b345453a3de7ca54a6ca45ce00d415894979e22897a';
const FIRST_BLOCK = 51_986_202;
const LAST_BLOCK = 52_024_741;
const FILE = `polygon-aave_v3-${POLYGON_WETH}-2024-01-06`;
/** relative deviation counted as equal (the service's float conversion against the exact one) */
const TOLERANCE = 1e-12;

/** A ray (27 decimals) written as a decimal string, as an integer. */
const rayOf = (decimal: string): bigint => {
  const [int, frac = ''] = decimal.split('.');
  return BigInt(int!) * 10n ** 27n + BigInt((frac + '0'.repeat(27)).slice(0, 27));
};
/** WadRayMath.rayMul (half up). */
const rayMul = (a: bigint, b: bigint): bigint => (a * b + 10n ** 27n / 2n) / 10n ** 27n;

/** (1 + r/n)^n - 1 in percent, r a ray APR as a decimal string, in integer arithmetic at 10^-60 (exact to far below a double's precision). */
function apyFromRay(rate: string): number {
  const ray = rayOf(rate);
  const S = 10n ** 60n;
  const n = 31_536_000n;
  let base = S + (ray * 10n ** 33n) / n;
  let acc = S;
  for (let e = n; e > 0n; e >>= 1n) {
    if (e & 1n) acc = (acc * base) / S;
    base = (base * base) / S;
  }
  return Number(((acc - S) * 10n ** 18n) / S) / 1e16;
}

interface MinuteRow {
  minute: number;
  liquidityRate: string;
  variableBorrowRate: string;
  liquidityIndex: string;
  variableBorrowIndex: string;
}

function readMinutes(path: string): MinuteRow[] {
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  const head = lines.shift()!.split(',');
  const col = (n: string): number => head.indexOf(n);
  const names = ['block_timestamp', 'liquidity_rate', 'variable_borrow_rate', 'liquidity_index', 'variable_borrow_index'];
  expect(names.filter((n) => col(n) < 0)).toEqual([]);
  return lines.map((l) => {
    const f = l.split(',');
    return {
      minute: Date.parse(`${f[col('block_timestamp')]!.replace(' ', 'T')}Z`) / 1000,
      liquidityRate: f[col('liquidity_rate')]!,
      variableBorrowRate: f[col('variable_borrow_rate')]!,
      liquidityIndex: f[col('liquidity_index')]!,
      variableBorrowIndex: f[col('variable_borrow_index')]!,
    };
  });
}

/** Deviations of served against wanted values: the count within TOLERANCE, median and max relative deviation, the worst row. */
function compare(rows: ReadonlyArray<{ at: number; served: number; want: number }>): {
  equal: number;
  median: number;
  max: number;
  worst: string;
} {
  const devs = rows.map((r) => rel(r.served, r.want));
  const i = devs.indexOf(Math.max(...devs));
  return {
    equal: devs.filter((d) => d <= TOLERANCE).length,
    median: median(devs),
    max: devs[i]!,
    worst: `${new Date(rows[i]!.at * 1000).toISOString()} served ${rows[i]!.served} want ${rows[i]!.want}`,
  };
}

describe("Aave V3's WETH reserve of 2024-01-06 (Polygon) replayed as arbitrum: APYs against the recorded rates", () => {
  const dir = realDataDir();
  const raw = readDemeterRawCsv(join(dir, 'demeter-fetch', `${FILE}.raw.csv`), POOL);
  const minutes = readMinutes(join(dir, 'reference', 'demeter-fetch', `${FILE}.minute.csv`));
  const registry = loadRegistry('shipped');
  const arb = registry.networks.arbitrum!;
  const WETH = arb.wrappedNative!.address.toLowerCase();
  const updates = raw.logs.filter((l) => l.topics[0] === RESERVE_DATA_UPDATED);
  const run: RealRun = {};
  let aTokenKey = '';
  /** the devnet reserve's scaled supply and variable debt (constant: the replay has no supply, withdraw, borrow or repay) */
  let scaled = { supply: 0n, debt: 0n };
  /** the time of the first replayed update (before it the reserve stands at the devnet's bootstrap state) */
  const firstUpdate = raw.blockTimes.get(updates[0]!.blockNumber)!;

  beforeAll(async () => {
    const t0 = Date.now();
    expect(raw.logs).toHaveLength(858);
    expect(updates).toHaveLength(445);
    expect(minutes).toHaveLength(1440);
    expect(updates.every((l) => l.topics[1] === zeroPadValue(POLYGON_WETH, 32))).toBe(true);
    const { devnet, provider, rpcUrl } = await startProfile('arbitrum', registry);
    Object.assign(run, { devnet, provider });
    const tDevnet = Date.now();
    const aave = arb.platforms.find((p) => p.slug === 'aave-v3')!;
    expect((aave.addresses['pool'] as { address: string }).address.toLowerCase()).toBe(POOL);
    // the reserve stands at the real Pool, its aToken at the address the Polygon market's has too
    const reserve = (await new Contract(
      POOL,
      [
        'function getReserveData(address) view returns (uint256, uint128, uint128, uint128, uint128, uint128, uint40, uint16, address, address, address, address, uint128, uint128, uint128)',
      ],
      provider,
    ).getFunction('getReserveData')(WETH)) as unknown[];
    const aToken = String(reserve[8]).toLowerCase();
    aTokenKey = `arbitrum:${aToken}`;
    const scaledOf = (token: unknown): Promise<bigint> =>
      new Contract(String(token), ['function scaledTotalSupply() view returns (uint256)'], provider).getFunction(
        'scaledTotalSupply',
      )() as Promise<bigint>;
    scaled = { supply: await scaledOf(reserve[8]), debt: await scaledOf(reserve[10]) };
    const logs = updates.map((l) => ({ ...l, topics: [l.topics[0]!, zeroPadValue(WETH, 32).toLowerCase()] }));
    const replay = (run.replay = await startReplayRpc({
      upstream: rpcUrl,
      logs,
      blockTimes: raw.blockTimes,
      firstBlock: FIRST_BLOCK,
      lastBlock: LAST_BLOCK,
      chainId: 42161,
      blockSeconds: 2,
    }));
    const tmp = (run.tmp = tempDir('real-aave-'));
    const registryFile = writeRegistryCut(tmp.dir, registry, 'arbitrum', {
      tokens: ['USDC', 'WETH'],
      platforms: ['uniswap-v3', 'aave-v3'],
    });
    const tApps = Date.now();
    const platform = (run.platform = await startRealPlatform({
      name: 'real_aave',
      network: 'arbitrum',
      rpcUrl: replay.url,
      router: devnet.manifest.networks[0]!.contracts.router,
      startBlock: FIRST_BLOCK,
      registry: registryFile,
      apps: ['indexer', 'token-data', 'gateway'],
    }));
    await untilIndexed(platform, 'arbitrum', LAST_BLOCK, 150_000);
    const tIndexed = Date.now();
    await gatewayUp(platform);
    const s = (a: number, b: number): string => ((b - a) / 1000).toFixed(1);
    process.stdout.write(
      `real aave: aToken ${aToken}; devnet up in ${s(t0, tDevnet)} s, the day (${LAST_BLOCK - FIRST_BLOCK + 1} blocks) indexed ${s(tApps, tIndexed)} s after the apps' start, ready in ${s(t0, Date.now())} s; replay served ${replay.stats.logsServed} logs, ${replay.stats.calls} calls\n`,
    );
  }, 300_000);

  afterAll(() => stopRun(run));

  it('checks its own APY conversion', () => {
    // 100 % APR compounded per second is e - 1 to ~1e-7 (e^(1 - 1/(2n)) - 1)
    expect(Math.abs(apyFromRay('1') / 100 - Math.expm1(1 - 1 / 63_072_000))).toBeLessThan(1e-12);
    expect(apyFromRay('0')).toBe(0);
  });

  it("serves every 15-minute candle's supply and borrow APY equal to the recorded rates at the end of its bucket, its supply and borrow at the recorded indexes", async () => {
    const history = (
      await run.platform!.get<{
        history: Array<{ time: string; apy: string; borrowApy: string; totalSupply: string; totalBorrow: string }>;
      }>(`/v2/tokens/history?id=${aTokenKey}&resolution=15m&finality=latest`)
    ).history;
    const day = history.filter((h) => Date.parse(h.time) / 1000 >= minutes[0]!.minute);
    const byMinute = new Map(minutes.map((m) => [m.minute, m]));
    const supply: Array<{ at: number; served: number; want: number }> = [];
    const borrow: typeof supply = [];
    let indexesEqual = 0;
    for (const h of day) {
      const bucket = Date.parse(h.time) / 1000;
      const last = byMinute.get(bucket + 14 * 60);
      if (!last) throw new Error(`no recorded minute at the end of the bucket ${h.time}`);
      supply.push({ at: bucket, served: Number(h.apy), want: apyFromRay(last.liquidityRate) });
      borrow.push({ at: bucket, served: Number(h.borrowApy), want: apyFromRay(last.variableBorrowRate) });
      // aToken supply = scaled supply x liquidity index, borrow = scaled debt x variable borrow index (exact, base units)
      if (
        BigInt(h.totalSupply) === rayMul(scaled.supply, rayOf(last.liquidityIndex)) &&
        BigInt(h.totalBorrow) === rayMul(scaled.debt, rayOf(last.variableBorrowIndex))
      )
        indexesEqual++;
    }
    // a bucket has a candle when the reserve was updated in it (WETH's price, from the devnet's pools, does not move)
    const updated = [...new Set(updates.map((l) => Math.floor(raw.blockTimes.get(l.blockNumber)! / 900) * 900))];
    expect(day.map((h) => Date.parse(h.time) / 1000)).toEqual(updated);
    const s = compare(supply);
    const b = compare(borrow);
    process.stdout.write(
      `real aave: ${day.length} 15-minute candles of the day served (buckets with an update); supply APY equal within ${TOLERANCE} in ${s.equal} (median ${s.median.toExponential(2)}, max ${s.max.toExponential(2)} at ${s.worst}); ` +
        `borrow APY in ${b.equal} (median ${b.median.toExponential(2)}, max ${b.max.toExponential(2)} at ${b.worst}); ` +
        `totalSupply and totalBorrow at the recorded indexes (scaled supply ${scaled.supply}, scaled debt ${scaled.debt}) exactly in ${indexesEqual}\n`,
    );
    expect(day.length).toBeGreaterThan(80);
    expect(s.equal).toBe(day.length);
    expect(b.equal).toBe(day.length);
    expect(indexesEqual).toBe(day.length);
  });

  it("holds, minute by minute from the first update on, the supply and borrow APY of the recorded rates (the aToken's state points)", async () => {
    const points = (
      await run.platform!.db.query(
        `SELECT extract(epoch FROM time)::float8 AS t, apy, borrow_apy FROM price_points WHERE token_key = $1 ORDER BY time, block_number`,
        [aTokenKey],
      )
    ).rows as Array<{ t: number; apy: number; borrow_apy: number }>;
    const supply: Array<{ at: number; served: number; want: number }> = [];
    const borrow: typeof supply = [];
    let i = -1;
    for (const m of minutes.filter((x) => x.minute + 59 >= firstUpdate)) {
      while (i + 1 < points.length && points[i + 1]!.t <= m.minute + 59) i++;
      const p = points[i]!;
      supply.push({ at: m.minute, served: p.apy, want: apyFromRay(m.liquidityRate) });
      borrow.push({ at: m.minute, served: p.borrow_apy, want: apyFromRay(m.variableBorrowRate) });
    }
    const s = compare(supply);
    const b = compare(borrow);
    process.stdout.write(
      `real aave: ${supply.length} minutes compared (${points.length} state points); supply APY equal within ${TOLERANCE} in ${s.equal} (median ${s.median.toExponential(2)}, max ${s.max.toExponential(2)} at ${s.worst}); ` +
        `borrow APY in ${b.equal} (median ${b.median.toExponential(2)}, max ${b.max.toExponential(2)} at ${b.worst})\n`,
    );
    expect(supply.length).toBe(1440 - 6);
    expect(s.equal).toBe(supply.length);
    expect(b.equal).toBe(borrow.length);
  });
});
