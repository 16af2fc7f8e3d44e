/**
 * What the real-data tests (issue 32: `real-*.e2e-spec.ts`, docs/real-data.md) share: where the
 * recorded data is, the platform in its production configuration (`npm run start:real`'s settings,
 * a private permissioned NATS, a passworded Redis, its own database and key) against a replay or a
 * mainnet-shaped chain, a registry of the shipped file's shape cut to what a test replays, and the
 * figures the comparisons print.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { AbiCoder, Contract, JsonRpcProvider, keccak256 } from 'ethers';
import { Pool } from 'pg';
import type { loadRegistry } from '@tokensvc/chain';
import { startMainnetShaped, type MainnetShapedHandle } from '@tokensvc/devnet';
import { NETWORK_INFO, type Network } from '@tokensvc/domain';
import { ApiKeysRepository, dropDatabase, migrate } from '@tokensvc/persistence';
import {
  createTestDatabaseUrl,
  freePort,
  freePortRange,
  hasBinary,
  PrivateNatsServer,
  PrivateRedisServer,
  startApp,
  stopProcess,
  waitForHttp,
  type AppName,
  type AppProcess,
  type PlatformEnv,
  type ReplayRpc,
} from '@tokensvc/testing';
import { realSettings } from './start-real';

const ROOT = join(__dirname, '..', '..');

/** The real data: `$REAL_DATA_DIR`, else `<repo>/../shared/real-data`, else `/work/shared/real-data`; absent, an error naming them. */
export function realDataDir(): string {
  const candidates = [process.env['REAL_DATA_DIR'], join(ROOT, '..', 'shared', 'real-data'), '/work/shared/real-data'].filter(
    (d): d is string => !!d,
  );
  const found = candidates.find((d) => existsSync(join(d, 'README.md')));
  if (!found)
    throw new Error(
      `the real data is not there (looked in ${candidates.join(', ')}): set REAL_DATA_DIR to the real-data folder (see docs/real-data.md)`,
    );
  return found;
}

export const rel = (a: number, b: number): number => Math.abs(a - b) / Math.abs(b);
export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
export const pct = (x: number): string => `${(x * 100).toFixed(4)} %`;

type Registry = ReturnType<typeof loadRegistry>;
type RegistryNetwork = NonNullable<Registry['networks'][Network]>;
export type RegistryToken = RegistryNetwork['tokens'][number];

/** The shipped registry cut to one network, the tokens and platforms a test keeps (plus tokens it adds), as a file of the same shape. */
export function writeRegistryCut(
  dir: string,
  registry: Registry,
  network: Network,
  keep: { tokens: readonly string[]; platforms: readonly string[]; add?: readonly RegistryToken[] },
): string {
  const net = registry.networks[network]!;
  const cut = {
    ...registry,
    networks: {
      [network]: {
        ...net,
        tokens: [...net.tokens.filter((t) => keep.tokens.includes(t.symbol)), ...(keep.add ?? [])],
        platforms: net.platforms.filter((p) => keep.platforms.includes(p.slug)),
      },
    },
  };
  const file = join(dir, 'registry.json');
  writeFileSync(file, JSON.stringify(cut));
  return file;
}

export interface RealPlatformOptions {
  /** database name stem (createTestDatabaseUrl) */
  name: string;
  network: Network;
  /** the chain the apps read (a replay server, or the anvil itself) */
  rpcUrl: string;
  /** the devnet's router (ROUTER_ADDRESS_<NETWORK>) */
  router: string;
  startBlock: number;
  /** the registry: a file path (writeRegistryCut) */
  registry: string;
  /** settings beside `npm run start:real`'s */
  extraEnv?: Record<string, string>;
  apps: readonly AppName[];
}

export interface RealPlatform {
  base: string;
  db: Pool;
  /** GET through the gateway with the test's key; anything but 200 is an error with the body */
  get<T>(path: string): Promise<T>;
  procs: AppProcess[];
  /** the apps' last log lines */
  tail(): string;
  /** starts an app later (e.g. quote once the indexer caught up) */
  start(app: AppName): void;
  stop(): Promise<void>;
}

/** The apps in the production configuration (`realSettings` of the given settings), with their own bus, Redis, database and key. */
export async function startRealPlatform(o: RealPlatformOptions): Promise<RealPlatform> {
  const n = o.network.toUpperCase();
  const settings = realSettings({
    NETWORKS: o.network,
    [`RPC_URL_${n}`]: o.rpcUrl,
    [`ROUTER_ADDRESS_${n}`]: o.router,
    [`START_BLOCK_${n}`]: String(o.startBlock),
    REGISTRY: o.registry,
  });
  if (settings.problems.length) throw new Error(`start:real settings: ${settings.problems.join('; ')}`);
  if (settings.extraEnv[`START_BLOCK_${n}`] !== String(o.startBlock)) throw new Error('START_BLOCK not passed through');
  const dbUrl = createTestDatabaseUrl(o.name);
  await migrate(dbUrl);
  const db = new Pool({ connectionString: dbUrl, max: 2 });
  const apiKey = (await new ApiKeysRepository(db).issue({ tier: 'paid', label: `${o.name} e2e` })).key;
  for (const bin of ['nats-server', 'redis-server'])
    if (!hasBinary(bin)) throw new Error(`${bin} is required for this test (apt-get install ${bin})`);
  const nats = new PrivateNatsServer(await freePort(), { auth: true });
  await nats.start();
  const redis = new PrivateRedisServer(await freePort());
  await redis.start();
  const queuePrefix = `${o.name.replace(/[^a-z]/g, '').slice(0, 8)}${randomBytes(3).toString('hex')}`;
  const env: PlatformEnv = {
    databaseUrl: dbUrl,
    natsUrl: nats.url,
    natsPasswords: nats.passwords,
    redisUrl: redis.authUrl,
    rpcUrls: { [o.network]: o.rpcUrl },
    gatewayPort: await freePort(),
    healthPortBase: await freePortRange(5),
    logLevel: 'warn',
    extraEnv: {
      ...settings.extraEnv,
      REGISTRY: o.registry,
      INDEXER_POLL_MS: '100',
      TRACKER_QUEUE_PREFIX: queuePrefix,
      RELAY_QUEUE_PREFIX: queuePrefix,
      ...o.extraEnv,
    },
  };
  const base = `http://127.0.0.1:${env.gatewayPort}`;
  const procs: AppProcess[] = [];
  const logs: string[] = [];
  const start = (app: AppName): void => void procs.push(startApp(app, env, (name, line) => logs.push(`[${name}] ${line}`)));
  for (const app of o.apps) start(app);
  return {
    base,
    db,
    procs,
    start,
    tail: () => logs.slice(-40).join('\n'),
    get: async <T>(path: string): Promise<T> => {
      const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${apiKey}` }, signal: AbortSignal.timeout(30_000) });
      if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as T;
    },
    stop: async () => {
      await Promise.all(procs.map((p) => stopProcess(p)));
      await nats.dispose();
      await redis.stop();
      await db.end();
      await dropDatabase(dbUrl);
    },
  };
}

/** Until the indexer's cursor of `network` reaches `block` (an app that exits is an error with the log tail). */
export async function untilIndexed(p: RealPlatform, network: Network, block: number, timeoutMs: number): Promise<void> {
  const cursor = async (): Promise<number> =>
    Number((await p.db.query(`SELECT block_number FROM index_cursors WHERE network = $1`, [network])).rows[0]?.block_number ?? 0);
  const until = Date.now() + timeoutMs;
  while ((await cursor()) < block) {
    if (Date.now() > until)
      throw new Error(`the indexer did not reach block ${block} within ${timeoutMs / 1000} s (cursor ${await cursor()})\n${p.tail()}`);
    if (p.procs.some((x) => x.child.exitCode !== null)) throw new Error(`an app exited\n${p.tail()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Until the gateway's /health answers 200. */
export const gatewayUp = (p: RealPlatform, timeoutMs = 60_000): Promise<void> => waitForHttp(`${p.base}/health`, timeoutMs);

/** A temp dir removed by the returned function. */
export function tempDir(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A row of a demeter-fetch `tick.csv`: one event and the pool's state after it. */
export interface TickRow {
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

/** A demeter-fetch `tick.csv` (the pool's log index is `pool_log_index`, or `log_index` in the pool-only files), in chain order. */
export function readTickCsv(path: string): TickRow[] {
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  const head = lines.shift()!.split(',');
  const col = (...names: string[]): number => {
    const i = head.findIndex((h) => names.includes(h));
    if (i < 0) throw new Error(`${path}: no column ${names.join(' or ')}`);
    return i;
  };
  const c = {
    block: col('block_number'),
    time: col('block_timestamp'),
    type: col('tx_type'),
    log: col('pool_log_index', 'log_index'),
    a0: col('amount0'),
    a1: col('amount1'),
    liq: col('total_liquidity'),
    sp: col('sqrtPriceX96'),
    tick: col('current_tick'),
    tl: col('tick_lower'),
    tu: col('tick_upper'),
    pl: col('liquidity'),
  };
  const rows = lines.map((l) => {
    const f = l.split(',');
    return {
      block: Number(f[c.block]),
      time: Date.parse(`${f[c.time]!.replace(' ', 'T')}Z`) / 1000,
      type: f[c.type]!,
      logIndex: Number(f[c.log]),
      amount0: BigInt(f[c.a0]!),
      amount1: BigInt(f[c.a1]!),
      liquidity: BigInt(f[c.liq]!),
      sqrtPriceX96: BigInt(f[c.sp]!),
      tick: Number(f[c.tick]),
      tickLower: Number(f[c.tl] || NaN),
      tickUpper: Number(f[c.tu] || NaN),
      positionLiquidity: BigInt(f[c.pl] || 0),
    };
  });
  return rows.sort((a, b) => a.block - b.block || a.logIndex - b.logIndex);
}

/** A demeter-fetch `minute.csv` of a V3 pool: per minute (unix seconds of its start), the amounts of token0 and token1 swapped in. */
export function readMinuteInAmounts(path: string): Array<{ time: number; in0: bigint; in1: bigint }> {
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  const head = lines.shift()!.split(',');
  const [t, a0, a1] = ['timestamp', 'inAmount0', 'inAmount1'].map((h) => {
    const i = head.indexOf(h);
    if (i < 0) throw new Error(`${path}: no column ${h}`);
    return i;
  }) as [number, number, number];
  return lines.map((l) => {
    const f = l.split(',');
    return { time: Date.parse(`${f[t]!.replace(' ', 'T')}Z`) / 1000, in0: BigInt(f[a0]!), in1: BigInt(f[a1]!) };
  });
}

/** A demeter-fetch `rel-price.csv`: the ETH price in USDC per minute (unix seconds of its start). */
export function readMinuteEthPrices(path: string): Map<number, number> {
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  const head = lines.shift()!.split(',');
  const [t, eth] = [head.indexOf('block_timestamp'), head.indexOf('eth')];
  if (t < 0 || eth < 0) throw new Error(`${path}: no block_timestamp or eth column`);
  return new Map(lines.map((l) => l.split(',')).map((f) => [Date.parse(`${f[t]!.replace(' ', 'T')}Z`) / 1000, Number(f[eth])]));
}

const Q96 = 2n ** 96n;
const ZERO_WORD = `0x${'0'.repeat(64)}`;

/** WETH in USDC (both human units) at a sqrtPriceX96 of the USDC(token0)/WETH(token1) pool: 10^12 / (sqrtP / 2^96)^2. */
export const wethPrice = (sqrtPriceX96: bigint): number => {
  // exact to ~1e-15: scale the ratio before turning it into a float
  const num = Q96 * Q96 * 10n ** 12n * 10n ** 18n;
  return Number(num / (sqrtPriceX96 * sqrtPriceX96)) / 1e18;
};

/** UniswapV3Pool's slot 0: sqrtPriceX96 (160 bits), tick (int24), then the oracle and lock fields, kept as they are. */
function slot0Word(current: bigint, sqrtPriceX96: bigint, tick: number): string {
  const tick24 = BigInt.asUintN(24, BigInt(tick));
  const rest = current >> 184n;
  return `0x${((rest << 184n) | (tick24 << 160n) | sqrtPriceX96).toString(16).padStart(64, '0')}`;
}

/**
 * Leaves in the V3 factory's getPool mapping only the given fee tiers of a pair (the devnet's other
 * tiers, seeded at its own prices, leave the scope: the bootstrap finds pools through getPool).
 * `known` is a pool of the pair that must stay, to find the mapping's slot.
 */
export async function keepV3FeeTiers(
  provider: JsonRpcProvider,
  factory: string,
  token0: string,
  token1: string,
  known: { fee: number; pool: string },
  keep: readonly number[],
): Promise<void> {
  const coder = AbiCoder.defaultAbiCoder();
  const mapSlot = (s: number, fee: number): string =>
    keccak256(
      coder.encode(
        ['uint24', 'bytes32'],
        [fee, keccak256(coder.encode(['address', 'bytes32'], [token1, keccak256(coder.encode(['address', 'uint256'], [token0, s]))]))],
      ),
    );
  let slot = -1;
  for (let s = 0; s < 12 && slot < 0; s++)
    if (BigInt(await provider.getStorage(factory, mapSlot(s, known.fee))) === BigInt(known.pool)) slot = s;
  if (slot < 0) throw new Error(`getPool's slot not found in ${factory}`);
  const getPool = new Contract(factory, ['function getPool(address, address, uint24) view returns (address)'], provider).getFunction(
    'getPool',
  );
  for (const fee of [100, 500, 3000, 10_000].filter((f) => !keep.includes(f))) {
    await provider.send('anvil_setStorageAt', [factory, mapSlot(slot, fee), ZERO_WORD]);
    if (BigInt(await getPool(token0, token1, fee)) !== 0n) throw new Error(`fee tier ${fee} still in getPool`);
  }
}

/**
 * Sets a USDC/WETH-shaped V3 pool (token1 in) to its state before its first recorded event, a swap
 * of an exact amount of token1 in: the price moved by amountIn x (1 - fee) x 2^96 / L, rounded down
 * (SqrtPriceMath.getNextSqrtPriceFromAmount1RoundingDown). Checked: token0 out recomputed from it
 * (getAmount0Delta rounding down) is the recorded amount, and the tick is the recorded one; then slot
 * 0 (price and tick) and slot 4 (liquidity) are written and read back through slot0() and liquidity().
 */
export async function setStateBeforeExactToken1In(
  provider: JsonRpcProvider,
  pool: string,
  first: TickRow,
  feePips: number,
): Promise<{ sqrtPriceX96: bigint; tick: number; amount0Out: bigint }> {
  if (first.type !== 'SWAP' || first.amount1 <= 0n)
    throw new Error(`${pool}: the first event is not a swap of token1 in (${first.type} ${first.amount1})`);
  const lessFee = (first.amount1 * BigInt(1_000_000 - feePips)) / 1_000_000n;
  const sqrtPriceX96 = first.sqrtPriceX96 - (lessFee * Q96) / first.liquidity;
  const amount0Out = ((first.liquidity << 96n) * (first.sqrtPriceX96 - sqrtPriceX96)) / first.sqrtPriceX96 / sqrtPriceX96;
  const tick = Math.floor((Math.log(Number(sqrtPriceX96) / 2 ** 96) * 2) / Math.log(1.0001));
  if (-amount0Out !== first.amount0 || tick !== first.tick)
    throw new Error(
      `${pool}: the state before the first swap does not give it back (out ${amount0Out} for ${first.amount0}, tick ${tick} for ${first.tick})`,
    );
  const current = BigInt(await provider.getStorage(pool, 0));
  await provider.send('anvil_setStorageAt', [pool, '0x0', slot0Word(current, sqrtPriceX96, tick)]);
  await provider.send('anvil_setStorageAt', [pool, '0x4', `0x${first.liquidity.toString(16).padStart(64, '0')}`]);
  const c = new Contract(
    pool,
    ['function slot0() view returns (uint160, int24, uint16, uint16, uint16, uint8, bool)', 'function liquidity() view returns (uint128)'],
    provider,
  );
  const slot0 = (await c.getFunction('slot0')()) as [bigint, bigint, bigint, bigint, bigint, bigint, boolean];
  const liquidity = (await c.getFunction('liquidity')()) as bigint;
  if (slot0[0] !== sqrtPriceX96 || Number(slot0[1]) !== tick || !slot0[6] || liquidity !== first.liquidity)
    throw new Error(`${pool}: slot0/liquidity read back ${slot0[0]} ${slot0[1]} ${slot0[6]} ${liquidity}`);
  return { sqrtPriceX96, tick, amount0Out };
}

export interface PoolStateAfter {
  sqrtPriceX96: bigint;
  tick: number;
  liquidity: bigint;
}

/**
 * The pool's state after each block with a swap, mint or burn. The reference's total_liquidity is
 * right on SWAP rows (each Swap log carries it) but not on MINT/BURN rows (a JIT mint shows the
 * liquidity before it, the burn after the swap shows it still added), so the liquidity after a mint
 * or burn is computed here: the last swap's (or the start state's), plus or minus the position's
 * liquidity when the current tick is in its range.
 */
export function statesAfterBlocks(events: readonly TickRow[]): Map<number, PoolStateAfter> {
  const after = new Map<number, PoolStateAfter>();
  let liquidity = events[0]!.liquidity;
  let sqrtPriceX96 = events[0]!.sqrtPriceX96;
  let tick = events[0]!.tick;
  for (const e of events) {
    if (e.type === 'SWAP') {
      liquidity = e.liquidity;
      sqrtPriceX96 = e.sqrtPriceX96;
      tick = e.tick;
    } else if (e.type === 'MINT' || e.type === 'BURN') {
      if (e.tickLower <= tick && tick < e.tickUpper) liquidity += e.type === 'MINT' ? e.positionLiquidity : -e.positionLiquidity;
    } else continue;
    after.set(e.block, { sqrtPriceX96, tick, liquidity });
  }
  return after;
}

/**
 * A token's served price (its last `price_points` row at or before a time) against each Chainlink
 * ETH/USD round in [from, to]: at the round's second, and at the close of the round's minute (the
 * reference's own pool-against-oracle figures are per minute).
 */
export async function againstChainlinkEth(
  db: Pool,
  dir: string,
  tokenKey: string,
  from: number,
  to: number,
): Promise<{ rounds: number; atRound: number[]; atMinute: number[]; worst: string }> {
  const lines = readFileSync(join(dir, 'reference', 'chainlink', 'chainlink-eth-usd-mainnet-rounds.csv'), 'utf8')
    .split('\n')
    .slice(1)
    .filter(Boolean);
  const rounds = lines
    .map((l) => l.split(','))
    .filter((f) => Number(f[4]) >= from && Number(f[4]) <= to)
    .map((f) => ({ at: Number(f[4]), answer: Number(f[2]) / 1e8 }));
  const priceAt = async (t: number): Promise<number> => {
    const row = (
      await db.query(
        `SELECT price FROM price_points WHERE token_key = $1 AND time <= to_timestamp($2) ORDER BY time DESC, block_number DESC LIMIT 1`,
        [tokenKey, t],
      )
    ).rows[0] as { price: number } | undefined;
    if (!row) throw new Error(`no price of ${tokenKey} at ${t}`);
    return row.price;
  };
  const atRound: number[] = [];
  const atMinute: number[] = [];
  let worst = '';
  for (const r of rounds) {
    const exact = rel(await priceAt(r.at), r.answer);
    if (exact > Math.max(0, ...atRound)) worst = `${new Date(r.at * 1000).toISOString()} answer ${r.answer}`;
    atRound.push(exact);
    atMinute.push(rel(await priceAt(r.at - (r.at % 60) + 59), r.answer));
  }
  return { rounds: rounds.length, atRound, atMinute, worst };
}

/** Sets `holder`'s balance of an ERC-20 by finding its balance mapping's slot (0..9: WETH9's is 3, OpenZeppelin's 0); a wrong guess's word is put back. */
export async function setErc20Balance(provider: JsonRpcProvider, token: string, holder: string, amount: bigint): Promise<void> {
  const iface = new Contract(token, ['function balanceOf(address) view returns (uint256)'], provider).getFunction('balanceOf');
  const word = (v: bigint | string): string => `0x${BigInt(v).toString(16).padStart(64, '0')}`;
  for (let s = 0; s < 10; s++) {
    const slot = keccak256(AbiCoder.defaultAbiCoder().encode(['address', 'uint256'], [holder, s]));
    const before = await provider.getStorage(token, slot);
    await provider.send('anvil_setStorageAt', [token, slot, word(amount)]);
    if ((await iface(holder)) === amount) return;
    await provider.send('anvil_setStorageAt', [token, slot, word(before)]);
  }
  throw new Error(`no balance slot found for ${token}`);
}

/** What a real-data test starts; `stopRun` stops it in reverse order. */
export interface RealRun {
  devnet?: MainnetShapedHandle;
  provider?: JsonRpcProvider;
  replay?: ReplayRpc;
  platform?: RealPlatform;
  tmp?: { dir: string; remove: () => void };
}

/** The mainnet-shaped profile of one network (state saved under `.devnet/mainnet-shaped-<network>`), and a provider on it. */
export async function startProfile(
  network: Network,
  registry: Registry,
): Promise<{ devnet: MainnetShapedHandle; provider: JsonRpcProvider; rpcUrl: string }> {
  const devnet = await startMainnetShaped({
    registry: registry.networks,
    networks: [network],
    basePort: await freePort(),
    stateDir: join(ROOT, '.devnet', `mainnet-shaped-${network}`),
  });
  const rpcUrl = devnet.rpcUrls[network]!;
  return { devnet, rpcUrl, provider: new JsonRpcProvider(rpcUrl, NETWORK_INFO[network].chainId, { staticNetwork: true }) };
}

export async function stopRun(r: RealRun): Promise<void> {
  await r.platform?.stop();
  await r.replay?.close();
  r.provider?.destroy();
  await r.devnet?.stop();
  r.tmp?.remove();
}
