/**
 * Arbitrage bots: every block they read each pool and trade it back to the reference price of
 * that moment. Random traders push pools apart; the bots keep every DEX family's pools coherent
 * with each other and with the lending feeds, as real arbitrage does. How a pool is read, priced
 * and swapped is its family's (the devnet facet's `pools`, libs/protocols).
 */
import { type DevnetPoolFacet, type DevnetPoolState, type PlannedDevnetFacet, estimateOut } from '@tokensvc/protocols/devnet';
import { type ReadCall, readMany } from '../chain/reader';
import type { ManifestPlatform, ManifestPool } from '../manifest';
import { rawPrice, usdToUnits } from '../math/uniswap';
import type { World } from './world';

/** Pools within this relative distance of the reference price are left alone. */
const TOLERANCE = 0.01;
const MAX_TRADE_USD = 3_000_000;
const MIN_TRADE_USD = 10;

interface PoolRef {
  platform: ManifestPlatform;
  pool: ManifestPool;
  facet: DevnetPoolFacet;
}

export type PoolState = DevnetPoolState & { ref: PoolRef };

/** Every pool of the families whose pools are traded, family by family (DEVNET_ORDER). */
export function tradablePools(world: World, facets: readonly PlannedDevnetFacet[]): PoolRef[] {
  return facets.flatMap(({ family, pools: facet }) =>
    facet ? world.platforms(family).flatMap((platform) => platform.pools.map((pool) => ({ platform, pool, facet }))) : [],
  );
}

export async function readPools(world: World, refs: readonly PoolRef[]): Promise<PoolState[]> {
  const calls: ReadCall[] = refs.flatMap((r) => r.facet.reads(r.pool, r.platform));
  const results = await readMany(world.ctx.rpc, calls);
  let i = 0;
  return refs.map((ref) => {
    const n = ref.facet.reads(ref.pool, ref.platform).length;
    const state = ref.facet.state(ref, results.slice(i, i + n));
    i += n;
    return { ...state, ref };
  });
}

export function queueArbitrage(world: World, states: readonly PoolState[], step: number): number {
  const { portfolio, actors } = world;
  let trades = 0;
  states.forEach((state, index) => {
    const { pool, facet } = state.ref;
    const t0 = world.tokenAt(pool.token0);
    const t1 = world.tokenAt(pool.token1);
    const target = rawPrice(world.price(t0.symbol, step), t0.decimals, world.price(t1.symbol, step), t1.decimals);
    const { current, trade } = facet.tradeToPrice(state, target);
    if (Math.abs(current / target - 1) < TOLERANCE || trade.amountIn <= 0n) return;
    const tokenIn = trade.zeroForOne ? t0 : t1;
    const tokenOut = trade.zeroForOne ? t1 : t0;
    const bot = actors.arbitrageurs[index % actors.arbitrageurs.length]!.address;
    const cap = usdToUnits(MAX_TRADE_USD, world.price(tokenIn.symbol, step), tokenIn.decimals);
    const wanted = trade.amountIn < cap ? trade.amountIn : cap;
    // Dust corrections are not worth a transaction (and can round to zero output).
    const min = usdToUnits(MIN_TRADE_USD, world.price(tokenIn.symbol, step), tokenIn.decimals);
    const amountIn = portfolio.debitUpTo(bot, tokenIn.address, wanted, 0.5, min);
    if (amountIn === 0n) return;
    facet.arbSwap(world, state, { bot, tokenIn, tokenOut, amountIn, target });
    // The swap may use less than amountIn (a price limit can stop it), so credit only half.
    portfolio.credit(bot, tokenOut.address, estimateOut(world, tokenIn.address, tokenOut.address, amountIn, step, 0.5));
    trades++;
  });
  return trades;
}
