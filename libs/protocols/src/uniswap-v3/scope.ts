/** Start-block state of Uniswap V3-style pools: factory.getPool of every listed pair at each fee tier, slot0, liquidity, balances and initialised ticks. */
import type { PlatformDefinition } from '@tokensvc/domain';
import { roleAddress } from '../indexing/adapter-helpers';
import type { TickDelta } from '../indexing/registry-types';
import { type ScopeReadContext, type ScopeSnapshot, ZERO, abiReader, lower, stateAt } from '../indexing/scope-read';

const { call, decode } = abiReader([
  'function getPool(address, address, uint24) view returns (address)',
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16, uint16, uint16, uint8, bool)',
  'function liquidity() view returns (uint128)',
  'function tickSpacing() view returns (int24)',
  'function tickBitmap(int16) view returns (uint256)',
  'function ticks(int24) view returns (uint128 liquidityGross, int128 liquidityNet, uint256, uint256, int56, uint160, uint32, bool)',
  'function balanceOf(address) view returns (uint256)',
]);

/** Uniswap V3 fee tiers looked up for each listed pair (hundredths of a bip). */
export const V3_FEE_TIERS = [100, 500, 3000, 10_000] as const;
const MIN_TICK = -887_272;
const MAX_TICK = 887_272;
/**
 * At most this many tickBitmap words (256 initialisable ticks each) are read per V3 pool, plus the
 * two words of the lowest and highest usable ticks (full-range positions): the whole tick range
 * for a tick spacing of 10 or more (694 words at spacing 10), else the 1024 words around the
 * current tick (spacing 1: +-131,072 ticks, a price factor of e^13 either way).
 */
export const MAX_BITMAP_WORDS = 1024;

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
  for (const edge of [word(Math.ceil(MIN_TICK / spacing) * spacing), word(Math.floor(MAX_TICK / spacing) * spacing)])
    if (edge < lo || edge > hi) out.push(edge);
  return out;
}

export async function readV3Scope(p: PlatformDefinition, ctx: ScopeReadContext): Promise<ScopeSnapshot> {
  const out: ScopeSnapshot = { pools: [], ticks: [], tokens: [] };
  const factory = roleAddress(p, 'factory');
  if (!factory) return out;
  const { pairs, block } = ctx;
  const mc = ctx.multicall;
  const state = (reserve0: bigint, reserve1: bigint): ReturnType<typeof stateAt> => stateAt(block, reserve0, reserve1, true);
  const keys = pairs.flatMap((pair) => V3_FEE_TIERS.map((fee) => ({ pair, fee })));
  const found = (await mc(keys.map((k) => call(factory, 'getPool', [k.pair[0], k.pair[1], k.fee]))))
    .map((r, i) => ({ ...keys[i]!, address: lower((decode('getPool', r)?.[0] as string | undefined) ?? ZERO) }))
    .filter((x) => x.address !== lower(ZERO));
  const per = 5;
  const res = await mc(
    found.flatMap((f) => [
      call(f.address, 'slot0'),
      call(f.address, 'liquidity'),
      call(f.address, 'tickSpacing'),
      call(f.pair[0], 'balanceOf', [f.address]),
      call(f.pair[1], 'balanceOf', [f.address]),
    ]),
  );
  const initialised: Array<{ pool: string; tick: number; spacing: number }> = [];
  found.forEach((f, i) => {
    const [slot0, liq, spacing, bal0, bal1] = [0, 1, 2, 3, 4].map((j) => res[i * per + j]);
    const s0 = decode('slot0', slot0);
    const ts = decode('tickSpacing', spacing);
    if (!s0 || !ts) return;
    const st = state(
      (decode('balanceOf', bal0)?.[0] as bigint | undefined) ?? 0n,
      (decode('balanceOf', bal1)?.[0] as bigint | undefined) ?? 0n,
    );
    const sqrtPriceX96 = s0[0] as bigint;
    if (sqrtPriceX96 > 0n) {
      st.sqrtPriceX96 = sqrtPriceX96;
      st.tick = Number(s0[1]);
      st.liquidity = (decode('liquidity', liq)?.[0] as bigint | undefined) ?? 0n;
      initialised.push({ pool: f.address, tick: st.tick, spacing: Number(ts[0]) });
    }
    out.pools.push({
      info: {
        address: f.address,
        platform: p.slug,
        family: 'uniswap-v3',
        token0: f.pair[0],
        token1: f.pair[1],
        fee: f.fee,
        tickSpacing: Number(ts[0]),
        createdBlock: block,
      },
      state: st,
    });
  });
  out.ticks.push(...(await readTicks(mc, initialised, block)));
  return out;
}

/** The initialised ticks of V3 pools: tickBitmap words (MAX_BITMAP_WORDS), then ticks(i) of each set bit. */
async function readTicks(
  mc: ScopeReadContext['multicall'],
  pools: ReadonlyArray<{ pool: string; tick: number; spacing: number }>,
  block: number,
): Promise<TickDelta[]> {
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
