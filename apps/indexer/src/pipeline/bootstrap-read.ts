import { Interface } from 'ethers';
import { multicall, type ContractCall, type JsonRpcClient, type PlatformDefinition } from '@tokensvc/chain';
import { roleAddress } from '@tokensvc/protocols';
import type { PoolInfo, PoolState, TokenSeed } from '../model/registry.types';
import type { TickDelta } from '../model/tick-delta';

const ABI = new Interface([
  'function getPair(address, address) view returns (address)',
  'function getReserves() view returns (uint112, uint112, uint32)',
  'function getPool(address, address, uint24) view returns (address)',
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16, uint16, uint16, uint8, bool)',
  'function liquidity() view returns (uint128)',
  'function tickSpacing() view returns (int24)',
  'function tickBitmap(int16) view returns (uint256)',
  'function ticks(int24) view returns (uint128 liquidityGross, int128 liquidityNet, uint256, uint256, int56, uint160, uint32, bool)',
  'function balanceOf(address) view returns (uint256)',
  'function getReservesList() view returns (address[])',
  'function getReserveData(address) view returns (tuple(uint256 configuration, uint128 liquidityIndex, uint128 currentLiquidityRate, uint128 variableBorrowIndex, uint128 currentVariableBorrowRate, uint128 currentStableBorrowRate, uint40 lastUpdateTimestamp, uint16 id, address aTokenAddress, address stableDebtTokenAddress, address variableDebtTokenAddress, address interestRateStrategyAddress, uint128 accruedToTreasury, uint128 unbacked, uint128 isolationModeTotalDebt))',
]);

/** Uniswap V3 fee tiers looked up for each listed pair (hundredths of a bip). */
export const V3_FEE_TIERS = [100, 500, 3000, 10_000] as const;
/** V2 pairs charge 0.3 % */
const V2_FEE = 3000;
const MIN_TICK = -887_272;
const MAX_TICK = 887_272;
/**
 * At most this many tickBitmap words (256 initialisable ticks each) are read per V3 pool, plus the
 * two words of the lowest and highest usable ticks (full-range positions): the whole tick range
 * for a tick spacing of 10 or more (694 words at spacing 10), else the 1024 words around the
 * current tick (spacing 1: +-131,072 ticks, a price factor of e^13 either way).
 */
export const MAX_BITMAP_WORDS = 1024;
const ZERO = '0x0000000000000000000000000000000000000000';

export interface BootstrapPool {
  info: PoolInfo;
  state: PoolState;
}

/** What a network holds at the block before its start block, in the scope of its listed tokens. */
export interface ScopeSnapshot {
  pools: BootstrapPool[];
  ticks: TickDelta[];
  /** LP tokens of V2 pairs, aTokens of listed reserves */
  tokens: TokenSeed[];
}

const lower = (a: string): string => a.toLowerCase();
const decode = (fn: string, ret: string | undefined): ReturnType<Interface['decodeFunctionResult']> | undefined => {
  if (ret === undefined) return undefined;
  try {
    return ABI.decodeFunctionResult(fn, ret);
  } catch {
    return undefined;
  }
};
const call = (target: string, fn: string, args: unknown[] = []): ContractCall => ({ target, data: ABI.encodeFunctionData(fn, args) });

/** Unordered pairs of the listed tokens, each as (token0, token1) sorted by address as the factories sort them. */
export function listedPairs(listed: readonly string[]): Array<[string, string]> {
  const tokens = [...new Set(listed.map(lower))].filter((t) => t !== ZERO).sort();
  const out: Array<[string, string]> = [];
  for (let i = 0; i < tokens.length; i++) for (let j = i + 1; j < tokens.length; j++) out.push([tokens[i]!, tokens[j]!]);
  return out;
}

/** tickBitmap words to read for a pool at `tick` with `spacing` (see MAX_BITMAP_WORDS). */
export function bitmapWords(tick: number, spacing: number): number[] {
  const word = (t: number): number => Math.floor(Math.floor(t / spacing) / 256);
  let lo = word(MIN_TICK);
  let hi = word(MAX_TICK);
  if (hi - lo + 1 > MAX_BITMAP_WORDS) {
    const centre = word(tick);
    lo = Math.max(lo, centre - MAX_BITMAP_WORDS / 2);
    hi = Math.min(hi, lo + MAX_BITMAP_WORDS - 1);
  }
  const out: number[] = [];
  for (let w = lo; w <= hi; w++) out.push(w);
  // Full-range positions (the lowest and highest usable ticks) are common: their words always.
  for (const edge of [word(Math.ceil(MIN_TICK / spacing) * spacing), word(Math.floor(MAX_TICK / spacing) * spacing)]) if (edge < lo || edge > hi) out.push(edge);
  return out;
}

/**
 * Reads, by Multicall3 at `block`, the pools of the listed pairs on every V2 and V3 platform
 * (factory.getPair / getPool x fee tiers) with their state (reserves; slot0, liquidity, token
 * balances and initialised ticks), and the aTokens of the listed reserves of every Aave V3 pool.
 */
export async function readScopeSnapshot(client: JsonRpcClient, platforms: readonly PlatformDefinition[], listed: readonly string[], block: number): Promise<ScopeSnapshot> {
  const tag = `0x${block.toString(16)}`;
  const mc = (calls: ContractCall[]): Promise<Array<string | undefined>> => multicall(client, calls, tag);
  const pairs = listedPairs(listed);
  const out: ScopeSnapshot = { pools: [], ticks: [], tokens: [] };
  const state = (reserve0: bigint, reserve1: bigint, v3: boolean): PoolState => ({ reserve0, reserve1, sqrtPriceX96: null, liquidity: v3 ? 0n : null, tick: null, blockNumber: block, logIndex: 0 });

  for (const p of platforms) {
    const factory = roleAddress(p, 'factory');
    if (p.family === 'uniswap-v2' && factory) {
      const found = (await mc(pairs.map(([a, b]) => call(factory, 'getPair', [a, b])))).map((r, i) => ({ pair: pairs[i]!, address: lower((decode('getPair', r)?.[0] as string | undefined) ?? ZERO) })).filter((x) => x.address !== lower(ZERO));
      const reserves = await mc(found.map((f) => call(f.address, 'getReserves')));
      found.forEach((f, i) => {
        const r = decode('getReserves', reserves[i]);
        if (!r) return;
        const [token0, token1] = f.pair;
        out.pools.push({ info: { address: f.address, platform: p.slug, family: 'uniswap-v2', token0, token1, fee: V2_FEE, tickSpacing: null, createdBlock: block }, state: state(r[0] as bigint, r[1] as bigint, false) });
        out.tokens.push({ address: f.address, platform: p.slug, family: 'uniswap-v2', underlying: [token0, token1], poolAddress: f.address, listed: false, metadata: { fee: V2_FEE } });
      });
    } else if (p.family === 'uniswap-v3' && factory) {
      const keys = pairs.flatMap((pair) => V3_FEE_TIERS.map((fee) => ({ pair, fee })));
      const found = (await mc(keys.map((k) => call(factory, 'getPool', [k.pair[0], k.pair[1], k.fee])))).map((r, i) => ({ ...keys[i]!, address: lower((decode('getPool', r)?.[0] as string | undefined) ?? ZERO) })).filter((x) => x.address !== lower(ZERO));
      const per = 5;
      const res = await mc(found.flatMap((f) => [call(f.address, 'slot0'), call(f.address, 'liquidity'), call(f.address, 'tickSpacing'), call(f.pair[0], 'balanceOf', [f.address]), call(f.pair[1], 'balanceOf', [f.address])]));
      const initialised: Array<{ pool: string; tick: number; spacing: number }> = [];
      found.forEach((f, i) => {
        const [slot0, liq, spacing, bal0, bal1] = [0, 1, 2, 3, 4].map((j) => res[i * per + j]);
        const s0 = decode('slot0', slot0);
        const ts = decode('tickSpacing', spacing);
        if (!s0 || !ts) return;
        const st = state((decode('balanceOf', bal0)?.[0] as bigint | undefined) ?? 0n, (decode('balanceOf', bal1)?.[0] as bigint | undefined) ?? 0n, true);
        const sqrtPriceX96 = s0[0] as bigint;
        if (sqrtPriceX96 > 0n) {
          st.sqrtPriceX96 = sqrtPriceX96;
          st.tick = Number(s0[1]);
          st.liquidity = (decode('liquidity', liq)?.[0] as bigint | undefined) ?? 0n;
          initialised.push({ pool: f.address, tick: st.tick, spacing: Number(ts[0]) });
        }
        out.pools.push({ info: { address: f.address, platform: p.slug, family: 'uniswap-v3', token0: f.pair[0], token1: f.pair[1], fee: f.fee, tickSpacing: Number(ts[0]), createdBlock: block }, state: st });
      });
      out.ticks.push(...(await readTicks(mc, initialised, block)));
    } else if (p.family === 'aave-v3') {
      const pool = roleAddress(p, 'pool');
      if (!pool) continue;
      const list = decode('getReservesList', (await mc([call(pool, 'getReservesList')]))[0]);
      const listedSet = new Set(listed.map(lower));
      const assets = ((list?.[0] as string[] | undefined) ?? []).map(lower).filter((a) => listedSet.has(a));
      const data = await mc(assets.map((a) => call(pool, 'getReserveData', [a])));
      assets.forEach((asset, i) => {
        const d = decode('getReserveData', data[i])?.[0] as { aTokenAddress: string; stableDebtTokenAddress: string; variableDebtTokenAddress: string; interestRateStrategyAddress: string } | undefined;
        if (!d || lower(d.aTokenAddress) === lower(ZERO)) return;
        out.tokens.push({
          address: lower(d.aTokenAddress),
          platform: p.slug,
          family: 'aave-v3',
          underlying: [asset],
          poolAddress: lower(pool),
          listed: false,
          metadata: { asset, stableDebtToken: lower(d.stableDebtTokenAddress), variableDebtToken: lower(d.variableDebtTokenAddress), interestRateStrategy: lower(d.interestRateStrategyAddress) },
        });
      });
    }
  }
  return out;
}

/** The initialised ticks of V3 pools: tickBitmap words (MAX_BITMAP_WORDS), then ticks(i) of each set bit. */
async function readTicks(mc: (calls: ContractCall[]) => Promise<Array<string | undefined>>, pools: ReadonlyArray<{ pool: string; tick: number; spacing: number }>, block: number): Promise<TickDelta[]> {
  const words = pools.flatMap((p) => bitmapWords(p.tick, p.spacing).map((word) => ({ ...p, word })));
  const bitmaps = await mc(words.map((w) => call(w.pool, 'tickBitmap', [w.word])));
  const set: Array<{ pool: string; tick: number }> = [];
  words.forEach((w, i) => {
    let bits = (decode('tickBitmap', bitmaps[i])?.[0] as bigint | undefined) ?? 0n;
    for (let bit = 0; bits > 0n; bit++, bits >>= 1n) if (bits & 1n) set.push({ pool: w.pool, tick: (w.word * 256 + bit) * w.spacing });
  });
  const ticks = await mc(set.map((t) => call(t.pool, 'ticks', [t.tick])));
  const out: TickDelta[] = [];
  set.forEach((t, i) => {
    const r = decode('ticks', ticks[i]);
    if (!r || (r[0] as bigint) === 0n) return;
    out.push({ pool: t.pool, tick: t.tick, blockNumber: block, gross: r[0] as bigint, net: r[1] as bigint });
  });
  return out;
}
