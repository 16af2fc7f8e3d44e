import { shapeOf } from '@tokensvc/protocols';
import type { BootstrapPool, ScopeSnapshot } from './bootstrap-read';

const Q96 = 2 ** 96;

/** Whole-token decimal ("2.5") to base units. */
export function toBaseUnits(amount: string, decimals: number): bigint {
  const [whole, frac = ''] = amount.split('.');
  return BigInt(whole!) * 10n ** BigInt(decimals) + BigInt((frac + '0'.repeat(decimals)).slice(0, decimals) || '0');
}

/** Base units of wrapped native per base unit of each token, from its deepest pool with the wrapped native (spot). */
export function nativePrices(pools: readonly BootstrapPool[], native: string): Map<string, number> {
  const best = new Map<string, { depth: bigint; price: number }>();
  best.set(native, { depth: -1n, price: 1 });
  for (const { info, state } of pools) {
    const nativeIs0 = info.token0 === native;
    if (!nativeIs0 && info.token1 !== native) continue;
    const other = nativeIs0 ? info.token1 : info.token0;
    const depth = nativeIs0 ? state.reserve0 : state.reserve1;
    let price: number | undefined;
    switch (shapeOf(info.family)) {
      case 'concentrated': {
        if (state.sqrtPriceX96 === null) continue;
        // token1 per token0 (base units)
        const p10 = (Number(state.sqrtPriceX96) / Q96) ** 2;
        price = nativeIs0 ? (p10 > 0 ? 1 / p10 : undefined) : p10;
        break;
      }
      case 'constant-product': {
        const otherReserve = nativeIs0 ? state.reserve1 : state.reserve0;
        price = otherReserve > 0n ? Number(depth) / Number(otherReserve) : undefined;
        break;
      }
    }
    if (price === undefined || !Number.isFinite(price)) continue;
    const seen = best.get(other);
    if (!seen || depth > seen.depth) best.set(other, { depth, price });
  }
  return new Map([...best].map(([t, b]) => [t, b.price]));
}

export interface FloorResult {
  snapshot: ScopeSnapshot;
  /** pools left out: worth less than the floor */
  belowFloor: number;
  /** pools kept because neither token has a price against the wrapped native */
  unpriced: number;
}

/**
 * The liquidity floor (INDEXER_POOL_FLOOR_<NETWORK>): a pool is kept when its reserves are worth at
 * least `floor` base units of the wrapped native token, each side valued at its spot price against
 * the wrapped native (from that token's deepest pool with it in the snapshot); a side without such
 * a pool counts 0, and a pool with neither side priced is kept (it cannot be measured).
 */
export function applyPoolFloor(s: ScopeSnapshot, native: string | undefined, floor: bigint): FloorResult {
  if (floor <= 0n || native === undefined) return { snapshot: s, belowFloor: 0, unpriced: 0 };
  const prices = nativePrices(s.pools, native);
  const dropped = new Set<string>();
  let unpriced = 0;
  for (const { info, state } of s.pools) {
    const p0 = prices.get(info.token0);
    const p1 = prices.get(info.token1);
    if (p0 === undefined && p1 === undefined) {
      unpriced++;
      continue;
    }
    const value = Number(state.reserve0) * (p0 ?? 0) + Number(state.reserve1) * (p1 ?? 0);
    if (value < Number(floor)) dropped.add(info.address);
  }
  return {
    snapshot: {
      pools: s.pools.filter((p) => !dropped.has(p.info.address)),
      ticks: s.ticks.filter((t) => !dropped.has(t.pool)),
      // a dropped pool's own token (an LP token is its pool's address) goes with it
      tokens: s.tokens.filter((t) => !(t.poolAddress === t.address && dropped.has(t.address))),
    },
    belowFloor: dropped.size,
    unpriced,
  };
}
