/**
 * A recorded real day of the Uniswap V3 USDC/WETH 0.05 % pool (0x88e6…5640, 2024-01-05, blocks
 * 18,937,382-18,944,480: 6,234 logs, 6,046 swaps) replayed into the platform in its production
 * configuration, and every figure the service derives from it compared with independent references
 * (docs/real-data.md).
 *
 * - The chain: the mainnet-shaped devnet's ethereum (the real factory, USDC and WETH at their real
 *   addresses, so its USDC/WETH 0.05 % pool is the real 0x88e6…), with the pool's storage (slot0:
 *   sqrtPriceX96 and tick; liquidity) set to the recorded state before the first replayed event,
 *   behind a replay JSON-RPC server (`startReplayRpc` of @tokensvc/testing) that serves the recorded
 *   blocks and logs and forwards the rest (eth_call, eth_getCode, ...) to the anvil at 'latest'.
 * - The apps: indexer, token-data and gateway with REGISTRY = the shipped registry cut to USDC, WETH
 *   and Uniswap V3 (written into a temp dir), START_BLOCK_ETHEREUM = the first replayed block, a
 *   permissioned private NATS and a passworded Redis.
 * - The data: `$REAL_DATA_DIR`, else `<repo>/../shared/real-data`, else `/work/shared/real-data`;
 *   absent, the test fails (it is never skipped).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { AbiCoder, Contract, JsonRpcProvider, keccak256 } from 'ethers';
import { Pool } from 'pg';
import { loadRegistry } from '@tokensvc/chain';
import { startMainnetShaped, type MainnetShapedHandle } from '@tokensvc/devnet';
import { ApiKeysRepository, dropDatabase, migrate } from '@tokensvc/persistence';
import {
  createTestDatabaseUrl, freePort, freePortRange, hasBinary, PrivateNatsServer, PrivateRedisServer, readDemeterRawCsv, startApp, startReplayRpc, stopProcess, waitForHttp,
  type AppProcess, type PlatformEnv, type ReplayRpc,
} from '@tokensvc/testing';
import { realSettings } from './start-real';

jest.setTimeout(240_000);

const ROOT = join(__dirname, '..', '..');
const POOL = '0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640';
const FIRST_BLOCK = 18_937_382;
const LAST_BLOCK = 18_944_480;
const Q96 = 2n ** 96n;

function dataDir(): string {
  const candidates = [process.env['REAL_DATA_DIR'], join(ROOT, '..', 'shared', 'real-data'), '/work/shared/real-data'].filter((d): d is string => !!d);
  const found = candidates.find((d) => existsSync(join(d, 'README.md')));
  if (!found) throw new Error(`the real data is not there (looked in ${candidates.join(', ')}): set REAL_DATA_DIR to the real-data folder (see docs/real-data.md)`);
  return found;
}

interface TickRow {
  block: number;
  time: number;
  type: string;
  logIndex: number;
  amount0: bigint;
  amount1: bigint;
  liquidity: bigint;
  sqrtPriceX96: bigint;
  tick: number;
  /** MINT/BURN: the position's range and liquidity */
  tickLower: number;
  tickUpper: number;
  positionLiquidity: bigint;
}

function readTickCsv(path: string): TickRow[] {
  const lines = readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '');
  const head = lines.shift()!.split(',');
  const col = (name: string): number => {
    const i = head.indexOf(name);
    if (i < 0) throw new Error(`${path}: no column ${name}`);
    return i;
  };
  const c = { block: col('block_number'), time: col('block_timestamp'), type: col('tx_type'), log: col('pool_log_index'), a0: col('amount0'), a1: col('amount1'), liq: col('total_liquidity'), sp: col('sqrtPriceX96'), tick: col('current_tick'), tl: col('tick_lower'), tu: col('tick_upper'), pl: col('liquidity') };
  const rows = lines.map((l) => {
    const f = l.split(',');
    return {
      block: Number(f[c.block]), time: Date.parse(`${f[c.time]!.replace(' ', 'T')}Z`) / 1000, type: f[c.type]!, logIndex: Number(f[c.log]),
      amount0: BigInt(f[c.a0]!), amount1: BigInt(f[c.a1]!), liquidity: BigInt(f[c.liq]!), sqrtPriceX96: BigInt(f[c.sp]!), tick: Number(f[c.tick]),
      tickLower: Number(f[c.tl] || NaN), tickUpper: Number(f[c.tu] || NaN), positionLiquidity: BigInt(f[c.pl] || 0),
    };
  });
  return rows.sort((a, b) => a.block - b.block || a.logIndex - b.logIndex);
}

/** WETH in USDC (both human units) at a sqrtPriceX96 of the USDC(token0)/WETH(token1) pool: 10^12 / (sqrtP / 2^96)^2. */
const wethPrice = (sqrtPriceX96: bigint): number => {
  // exact to ~1e-15: scale the ratio before turning it into a float
  const num = Q96 * Q96 * 10n ** 12n * 10n ** 18n;
  return Number(num / (sqrtPriceX96 * sqrtPriceX96)) / 1e18;
};
const rel = (a: number, b: number): number => Math.abs(a - b) / Math.abs(b);
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const pct = (x: number): string => `${(x * 100).toFixed(4)} %`;

/** UniswapV3Pool's slot 0: sqrtPriceX96 (160 bits), tick (int24), then the oracle and lock fields, kept as they are. */
function slot0Word(current: bigint, sqrtPriceX96: bigint, tick: number): string {
  const tick24 = BigInt.asUintN(24, BigInt(tick));
  const rest = current >> 184n;
  return `0x${((rest << 184n) | (tick24 << 160n) | sqrtPriceX96).toString(16).padStart(64, '0')}`;
}

describe('a real day of the USDC/WETH 0.05 % pool replayed into the production configuration', () => {
  const dir = dataDir();
  const raw = readDemeterRawCsv(join(dir, 'demeter-fetch', `ethereum-${POOL}-2024-01-05.raw.csv`), POOL);
  const events = readTickCsv(join(dir, 'reference', 'demeter-fetch', `ethereum-${POOL}-2024-01-05.tick.csv`));
  const swaps = events.filter((e) => e.type === 'SWAP');
  const dbUrl = createTestDatabaseUrl('real_replay');
  const registry = loadRegistry('shipped');
  const eth = registry.networks.ethereum!;
  const USDC = eth.tokens.find((t) => t.symbol === 'USDC')!.address.toLowerCase();
  const WETH = eth.wrappedNative!.address.toLowerCase();
  const wethKey = `ethereum:${WETH}`;
  let devnet: MainnetShapedHandle;
  let replay: ReplayRpc;
  let provider: JsonRpcProvider;
  let nats: PrivateNatsServer | undefined;
  let redis: PrivateRedisServer | undefined;
  let db: Pool;
  let tmp = '';
  let base = '';
  let apiKey = '';
  let indexedIn = 0;
  const procs: AppProcess[] = [];
  const logs: string[] = [];
  const tail = (): string => logs.slice(-40).join('\n');
  const get = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${apiKey}` }, signal: AbortSignal.timeout(30_000) });
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as T;
  };
  /** The recorded state after the last event at or before `block`. */
  const recordedAfter = (block: number): TickRow => {
    let last: TickRow | undefined;
    for (const e of events) if (e.block <= block) last = e;
    return last!;
  };
  const poolRow = async (): Promise<{ sqrt_price_x96: string; tick: number; liquidity: string; block_number: string }> =>
    (await db.query(`SELECT sqrt_price_x96::text, tick, liquidity::text, block_number::text FROM pools WHERE network = 'ethereum' AND address = $1`, [POOL])).rows[0];
  const cursor = async (): Promise<number> => Number((await db.query(`SELECT block_number FROM index_cursors WHERE network = 'ethereum'`)).rows[0]?.block_number ?? 0);
  const untilIndexed = async (block: number, timeoutMs: number): Promise<void> => {
    const until = Date.now() + timeoutMs;
    while ((await cursor()) < block) {
      if (Date.now() > until) throw new Error(`the indexer did not reach block ${block} within ${timeoutMs / 1000} s (cursor ${await cursor()})\n${tail()}`);
      if (procs.some((p) => p.child.exitCode !== null)) throw new Error(`an app exited\n${tail()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  /** the heads the test moves the replay to, each checked against the recorded state (the last one: the day's end) */
  const steps = [FIRST_BLOCK + 200, FIRST_BLOCK + 223, 18_938_040, 18_939_500, 18_941_000, 18_942_700, 18_944_000, LAST_BLOCK];
  const stepChecks: Array<{ head: number; served: string; recorded: string }> = [];

  beforeAll(async () => {
    const t0 = Date.now();
    expect(raw.logs).toHaveLength(6234);
    expect(swaps).toHaveLength(6046);
    devnet = await startMainnetShaped({ registry: registry.networks, networks: ['ethereum'], basePort: await freePort(), stateDir: join(ROOT, '.devnet', 'mainnet-shaped-ethereum') });
    const rpcUrl = devnet.rpcUrls.ethereum!;
    provider = new JsonRpcProvider(rpcUrl, 1, { staticNetwork: true });

    // The real pool address is the devnet's: CREATE2 of the real factory over the real USDC, WETH and fee 500.
    const factoryAddress = (eth.platforms.find((p) => p.slug === 'uniswap-v3')!.addresses['factory'] as { address: string }).address;
    const factory = new Contract(factoryAddress, ['function getPool(address, address, uint24) view returns (address)'], provider);
    expect((await factory.getFunction('getPool')(USDC, WETH, 500)).toLowerCase()).toBe(POOL);
    // Only the recorded pool is in the scope: the devnet's other USDC/WETH fee tiers (seeded at ETH
    // 3,000) are taken out of the factory's getPool mapping, so the bootstrap does not find them.
    const coder = AbiCoder.defaultAbiCoder();
    const mapSlot = (s: number, fee: number): string =>
      keccak256(coder.encode(['uint24', 'bytes32'], [fee, keccak256(coder.encode(['address', 'bytes32'], [WETH, keccak256(coder.encode(['address', 'uint256'], [USDC, s]))]))]));
    let getPoolSlot = -1;
    for (let s = 0; s < 12 && getPoolSlot < 0; s++) if (BigInt(await provider.getStorage(factoryAddress, mapSlot(s, 500))) === BigInt(POOL)) getPoolSlot = s;
    expect(getPoolSlot).toBeGreaterThanOrEqual(0);
    for (const fee of [100, 3000, 10_000]) await provider.send('anvil_setStorageAt', [factoryAddress, mapSlot(getPoolSlot, fee), `0x${'0'.repeat(64)}`]);
    for (const fee of [100, 3000, 10_000]) expect(await factory.getFunction('getPool')(USDC, WETH, fee)).toBe('0x0000000000000000000000000000000000000000');

    // The state before the first event. It is a swap of exactly 0.01 WETH in (an exact input): the
    // price moved by amountIn x (1 - 0.05 %) x 2^96 / L, rounded down (SqrtPriceMath.getNextSqrtPriceFromAmount1RoundingDown).
    const first = events[0]!;
    expect([first.block, first.type, first.amount1]).toEqual([FIRST_BLOCK, 'SWAP', 10n ** 16n]);
    const lessFee = (first.amount1 * 999_500n) / 1_000_000n;
    const sqrtBefore = first.sqrtPriceX96 - (lessFee * Q96) / first.liquidity;
    // check: the USDC out is then SqrtPriceMath.getAmount0Delta(before, after, L, roundUp = false)
    const amount0Out = ((first.liquidity << 96n) * (first.sqrtPriceX96 - sqrtBefore)) / first.sqrtPriceX96 / sqrtBefore;
    expect(-amount0Out).toBe(first.amount0);
    const tickBefore = Math.floor(Math.log(Number(sqrtBefore) / 2 ** 96) * 2 / Math.log(1.0001));
    expect(tickBefore).toBe(first.tick);
    const current = BigInt(await provider.getStorage(POOL, 0));
    await provider.send('anvil_setStorageAt', [POOL, '0x0', slot0Word(current, sqrtBefore, tickBefore)]);
    await provider.send('anvil_setStorageAt', [POOL, '0x4', `0x${first.liquidity.toString(16).padStart(64, '0')}`]);
    const pool = new Contract(POOL, ['function slot0() view returns (uint160, int24, uint16, uint16, uint16, uint8, bool)', 'function liquidity() view returns (uint128)'], provider);
    const slot0 = (await pool.getFunction('slot0')()) as [bigint, bigint, bigint, bigint, bigint, bigint, boolean];
    expect([slot0[0], Number(slot0[1]), slot0[6]]).toEqual([sqrtBefore, tickBefore, true]);
    expect(await pool.getFunction('liquidity')()).toBe(first.liquidity);
    process.stdout.write(`real replay: state before the first event sqrtPriceX96 ${sqrtBefore} tick ${tickBefore} liquidity ${first.liquidity} (USDC out of the first swap recomputed: ${amount0Out})\n`);

    replay = await startReplayRpc({ upstream: rpcUrl, logs: raw.logs, blockTimes: raw.blockTimes, firstBlock: FIRST_BLOCK, lastBlock: LAST_BLOCK, head: steps[0]! });

    // The shipped registry cut to USDC, WETH and Uniswap V3 on ethereum.
    tmp = mkdtempSync(join(tmpdir(), 'real-replay-'));
    const cut = { ...registry, networks: { ethereum: { ...eth, tokens: eth.tokens.filter((t) => ['USDC', 'WETH'].includes(t.symbol)), platforms: eth.platforms.filter((p) => p.slug === 'uniswap-v3') } } };
    const registryFile = join(tmp, 'registry.json');
    writeFileSync(registryFile, JSON.stringify(cut));
    const user: Record<string, string> = {
      NETWORKS: 'ethereum', RPC_URL_ETHEREUM: replay.url, ROUTER_ADDRESS_ETHEREUM: devnet.manifest.networks[0]!.contracts.router, START_BLOCK_ETHEREUM: String(FIRST_BLOCK), REGISTRY: registryFile,
    };
    const settings = realSettings(user);
    expect(settings.problems).toEqual([]);
    await migrate(dbUrl);
    db = new Pool({ connectionString: dbUrl, max: 2 });
    apiKey = (await new ApiKeysRepository(db).issue({ tier: 'paid', label: 'real replay e2e' })).key;
    for (const bin of ['nats-server', 'redis-server']) if (!hasBinary(bin)) throw new Error(`${bin} is required for this test (apt-get install ${bin})`);
    nats = new PrivateNatsServer(await freePort(), { auth: true });
    await nats.start();
    redis = new PrivateRedisServer(await freePort());
    await redis.start();
    const queuePrefix = `rre2e${randomBytes(3).toString('hex')}`;
    const env: PlatformEnv = {
      databaseUrl: dbUrl, natsUrl: nats.url, natsPasswords: nats.passwords, redisUrl: redis.authUrl, rpcUrls: { ethereum: replay.url },
      gatewayPort: await freePort(), healthPortBase: await freePortRange(5), logLevel: 'warn',
      extraEnv: { ...settings.extraEnv, REGISTRY: registryFile, INDEXER_POLL_MS: '100',
        // the day's 7,099 blocks within the finality depth: the pool state journal (pool_state_history) then keeps every block's state
        FINALITY_DEPTH_ETHEREUM: '8000', TRACKER_QUEUE_PREFIX: queuePrefix, RELAY_QUEUE_PREFIX: queuePrefix },
    };
    expect(env.extraEnv!['START_BLOCK_ETHEREUM']).toBe(String(FIRST_BLOCK));
    base = `http://127.0.0.1:${env.gatewayPort}`;
    const t1 = Date.now();
    for (const app of ['indexer', 'token-data', 'gateway'] as const) procs.push(startApp(app, env, (name, line) => logs.push(`[${name}] ${line}`)));
    // the replay's head moves step by step; after each, the pool state the service holds is the recorded one
    for (const head of steps) {
      replay.setHead(head);
      await untilIndexed(head, 120_000);
      const row = await poolRow();
      const rec = recordedAfter(head);
      stepChecks.push({ head, served: `${row.sqrt_price_x96} ${row.tick} ${row.liquidity}`, recorded: `${rec.sqrtPriceX96} ${rec.tick} ${rec.liquidity}` });
    }
    indexedIn = (Date.now() - t1) / 1000;
    await waitForHttp(`${base}/health`, 60_000);
    process.stdout.write(`real replay: devnet ready, ${steps.length} heads indexed in ${indexedIn.toFixed(1)} s (${((Date.now() - t0) / 1000).toFixed(1)} s in all); replay served ${replay.stats.logsServed} logs, ${replay.stats.calls} calls (${replay.stats.forwarded} forwarded)\n`);
  }, 300_000);

  afterAll(async () => {
    await Promise.all(procs.map((p) => stopProcess(p)));
    await nats?.dispose();
    await redis?.stop();
    await db?.end();
    await replay?.close();
    provider?.destroy();
    await devnet?.stop();
    await dropDatabase(dbUrl);
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('holds the recorded pool state (sqrtPriceX96, tick, active liquidity) after each replayed head, the day\'s end included', () => {
    process.stdout.write(`real replay: pool state at ${stepChecks.length} heads:\n${stepChecks.map((s) => `  ${s.head}: served ${s.served} | recorded ${s.recorded}`).join('\n')}\n`);
    for (const s of stepChecks) expect(`${s.head} ${s.served}`).toBe(`${s.head} ${s.recorded}`);
    expect(stepChecks.at(-1)!.head).toBe(LAST_BLOCK);
  });

  it('journals the recorded pool state after every replayed block with events (pool_state_history)', async () => {
    // The reference's total_liquidity is right on SWAP rows (each Swap log carries it) but not on
    // MINT/BURN rows (a JIT mint shows the liquidity before it, the burn after the swap shows it still
    // added), so the liquidity after a mint or burn is computed here: the last swap's (or the start
    // state's), plus or minus the position's liquidity when the current tick is in its range.
    const after = new Map<number, string>();
    let liquidity = events[0]!.liquidity;
    let price = `${events[0]!.sqrtPriceX96} ${events[0]!.tick}`;
    let tick = events[0]!.tick;
    for (const e of events) {
      if (e.type === 'SWAP') {
        liquidity = e.liquidity;
        price = `${e.sqrtPriceX96} ${e.tick}`;
        tick = e.tick;
      } else if (e.type === 'MINT' || e.type === 'BURN') {
        if (e.tickLower <= tick && tick < e.tickUpper) liquidity += e.type === 'MINT' ? e.positionLiquidity : -e.positionLiquidity;
      } else continue;
      after.set(e.block, `${price} ${liquidity}`);
    }
    const journal = new Map<number, string>(
      (await db.query(`SELECT block_number::int AS b, sqrt_price_x96::text AS sp, tick, liquidity::text AS liq FROM pool_state_history WHERE network = 'ethereum' AND pool = $1 AND block_number BETWEEN $2 AND $3`, [POOL, FIRST_BLOCK, LAST_BLOCK])).rows.map(
        (r: { b: number; sp: string; tick: number; liq: string }) => [r.b, `${r.sp} ${r.tick} ${r.liq}`],
      ),
    );
    let equal = 0;
    const differing: string[] = [];
    for (const [block, want] of after) {
      if (journal.get(block) === want) equal++;
      else differing.push(`${block}: served ${journal.get(block) ?? 'none'} recorded ${want}`);
    }
    const mintBurnBlocks = new Set(events.filter((e) => e.type === 'MINT' || e.type === 'BURN').map((e) => e.block)).size;
    process.stdout.write(`real replay: pool state after each block: ${after.size} blocks with swaps, mints or burns (${mintBurnBlocks} with mints or burns), ${equal} equal (sqrtPriceX96, tick, liquidity exact)\n`);
    expect(differing.slice(0, 10)).toEqual([]);
    expect(equal).toBe(after.size);
  });

  /** per block with swaps: the price after the block's last event */
  const blockCloses = (): Array<{ block: number; time: number; price: number }> => {
    const out: Array<{ block: number; time: number; price: number }> = [];
    for (const s of swaps) {
      const p = { block: s.block, time: s.time, price: wethPrice(s.sqrtPriceX96) };
      if (out.at(-1)?.block === s.block) out[out.length - 1] = p;
      else out.push(p);
    }
    return out;
  };

  it('prices WETH at every block with swaps at the recorded pool price after the block (price_points)', async () => {
    const closes = blockCloses();
    const points = new Map<number, number>(
      (await db.query(`SELECT block_number::int AS b, price FROM price_points WHERE token_key = $1 AND block_number BETWEEN $2 AND $3`, [wethKey, FIRST_BLOCK, LAST_BLOCK])).rows.map((r: { b: number; price: number }) => [r.b, r.price]),
    );
    const devs = closes.map((c) => (points.has(c.block) ? rel(points.get(c.block)!, c.price) : Infinity));
    const missing = closes.filter((c) => !points.has(c.block)).map((c) => c.block);
    const equal = devs.filter((d) => d <= 1e-9).length;
    process.stdout.write(`real replay: WETH per-block price: ${closes.length} blocks with swaps, ${equal} equal within 1e-9 relative, median ${median(devs).toExponential(2)}, max ${Math.max(...devs).toExponential(2)}, missing ${missing.length}\n`);
    expect(missing).toEqual([]);
    expect(Math.max(...devs)).toBeLessThan(1e-9);
    // the price served now is the day's last recorded price
    const [weth] = (await get<{ tokens: Array<{ price: number }> }>(`/v2/tokens?ids=${wethKey}&finality=latest`)).tokens;
    expect(rel(weth!.price, wethPrice(swaps.at(-1)!.sqrtPriceX96))).toBeLessThan(1e-9);
  });

  it.each(['15m', '1h'] as const)('serves every %s candle of WETH as computed from the recorded per-event prices', async (resolution) => {
    const size = resolution === '15m' ? 900 : 3600;
    const buckets = new Map<number, { open: number; high: number; low: number; close: number }>();
    for (const c of blockCloses()) {
      const b = Math.floor(c.time / size) * size;
      const k = buckets.get(b);
      if (!k) buckets.set(b, { open: c.price, high: c.price, low: c.price, close: c.price });
      else Object.assign(k, { high: Math.max(k.high, c.price), low: Math.min(k.low, c.price), close: c.price });
    }
    const history = (await get<{ history: Array<{ time: string; highPrice: string; lowPrice: string; closePrice: string }> }>(`/v2/tokens/history?id=${wethKey}&resolution=${resolution}&finality=latest`)).history;
    const served = new Map(history.map((h) => [Date.parse(h.time) / 1000, { close: Number(h.closePrice), high: Number(h.highPrice), low: Number(h.lowPrice) }]));
    const dayStart = Date.parse('2024-01-05T00:00:00Z') / 1000;
    const devs: number[] = [];
    const hl: number[] = [];
    for (const [b, want] of buckets) {
      const got = served.get(b);
      if (!got) throw new Error(`no ${resolution} candle at ${new Date(b * 1000).toISOString()}; served ${history.map((h) => h.time).join(',')}`);
      devs.push(rel(got.close, want.close));
      // high and low also hold the bootstrap's point (the state before the first event) in the first bucket
      if (b !== dayStart) hl.push(rel(got.high, want.high), rel(got.low, want.low));
    }
    const equal = devs.filter((d) => d <= 1e-9).length;
    process.stdout.write(`real replay: WETH ${resolution} candles: ${buckets.size} buckets, ${equal} closes equal within 1e-9 relative (median ${median(devs).toExponential(2)}, max ${Math.max(...devs).toExponential(2)}); high/low max ${Math.max(...hl).toExponential(2)}\n`);
    expect(buckets.size).toBe(resolution === '15m' ? 96 : 24);
    expect(Math.max(...devs)).toBeLessThan(1e-9);
    expect(Math.max(...hl)).toBeLessThan(1e-9);
  });

  it('prices WETH within 0.1 % (median) and 0.6 % (max) of Chainlink ETH/USD at each round of the day (the close of the round\'s minute)', async () => {
    const lines = readFileSync(join(dir, 'reference', 'chainlink', 'chainlink-eth-usd-mainnet-rounds.csv'), 'utf8').split('\n').slice(1).filter(Boolean);
    const from = replay.blockTime(FIRST_BLOCK);
    const to = replay.blockTime(LAST_BLOCK);
    const rounds = lines.map((l) => l.split(',')).filter((f) => Number(f[4]) >= from && Number(f[4]) <= to).map((f) => ({ at: Number(f[4]), answer: Number(f[2]) / 1e8 }));
    expect(rounds.length).toBe(49);
    /** the service's WETH price at a time: its last price point at or before it */
    const priceAt = async (t: number): Promise<number> => {
      const row = (await db.query(`SELECT price FROM price_points WHERE token_key = $1 AND time <= to_timestamp($2) ORDER BY time DESC, block_number DESC LIMIT 1`, [wethKey, t])).rows[0] as { price: number } | undefined;
      if (!row) throw new Error(`no WETH price at ${t}`);
      return row.price;
    };
    const atRound: number[] = [];
    const atMinute: number[] = [];
    let worst = '';
    for (const r of rounds) {
      const exact = rel(await priceAt(r.at), r.answer);
      if (exact > Math.max(0, ...atRound)) worst = `${new Date(r.at * 1000).toISOString()} answer ${r.answer}`;
      atRound.push(exact);
      // the close of the minute holding the round (the reference's own pool-against-oracle figures are per minute)
      atMinute.push(rel(await priceAt(r.at - (r.at % 60) + 59), r.answer));
    }
    process.stdout.write(
      `real replay: WETH against Chainlink ETH/USD at ${rounds.length} rounds: at the round's minute close median ${pct(median(atMinute))}, max ${pct(Math.max(...atMinute))}; ` +
        `at the round's second median ${pct(median(atRound))}, max ${pct(Math.max(...atRound))} (worst ${worst})\n`,
    );
    expect(median(atMinute)).toBeLessThanOrEqual(0.001);
    expect(Math.max(...atMinute)).toBeLessThanOrEqual(0.006);
    // at the second of the round the median holds too; the maximum is a round that lagged a fast move (see docs/real-data.md)
    expect(median(atRound)).toBeLessThanOrEqual(0.001);
    expect(Math.max(...atRound)).toBeLessThanOrEqual(0.01);
  });

  it('reports the recorded volumes (V3 swaps are not activities: the service serves no V3 volume)', async () => {
    let usdcIn = 0n;
    let wethIn = 0n;
    for (const s of swaps) {
      if (s.amount0 > 0n) usdcIn += s.amount0;
      if (s.amount1 > 0n) wethIn += s.amount1;
    }
    // USD volume of the input side (as the service defines volume_usd for swaps): USDC in at $1, WETH in at the pool price after the swap
    let usd = 0;
    for (const s of swaps) usd += s.amount0 > 0n ? Number(s.amount0) / 1e6 : (Number(s.amount1) / 1e18) * wethPrice(s.sqrtPriceX96);
    process.stdout.write(`real replay: recorded volume in: ${Number(usdcIn) / 1e6} USDC, ${Number(wethIn) / 1e18} WETH; ${usd.toFixed(0)} USD (input side)\n`);
    const activities = Number((await db.query(`SELECT count(*) FROM activities WHERE network = 'ethereum'`)).rows[0].count);
    const volume = (await db.query(`SELECT coalesce(sum(volume_usd), 0)::float8 AS v FROM candles WHERE token_key = $1 AND resolution = '1h'`, [wethKey])).rows[0].v as number;
    process.stdout.write(`real replay: the service holds ${activities} activities and ${volume} USD of WETH candle volume for the day\n`);
    expect(activities).toBe(0);
    expect(volume).toBe(0);
    expect(procs.every((p) => p.child.exitCode === null)).toBe(true);
  });
});
