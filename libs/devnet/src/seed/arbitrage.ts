/**
 * Arbitrage bots: every block they read each pool and trade it back to the reference price of
 * that moment. Random traders push pools apart; the bots keep V2, the fork and V3 coherent with
 * each other and with the Aave feeds, as real arbitrage does.
 */
import { ABI } from '../chain/abis';
import { type ReadCall, readMany } from '../chain/reader';
import { NO_DEADLINE } from '../deploy/context';
import { type ManifestPlatform, type ManifestPool, platformAddress } from '../manifest';
import { type ArbTrade, encodeSqrtPriceX96, rawPrice, usdToUnits, v2TradeToPrice, v3TradeToPrice } from '../math/uniswap';
import type { World } from './world';

/** Pools within this relative distance of the reference price are left alone. */
const TOLERANCE = 0.01;
const MAX_TRADE_USD = 3_000_000;
const MIN_TRADE_USD = 10;

interface PoolRef {
  platform: ManifestPlatform;
  pool: ManifestPool;
}

export interface PoolState {
  ref: PoolRef;
  /** V2: reserves; V3: sqrtPriceX96 and active liquidity */
  reserve0?: bigint;
  reserve1?: bigint;
  sqrtPriceX96?: bigint;
  liquidity?: bigint;
}

export function tradablePools(world: World): PoolRef[] {
  return [...world.platforms('uniswap-v2'), ...world.platforms('uniswap-v3')].flatMap((platform) => platform.pools.map((pool) => ({ platform, pool })));
}

export async function readPools(world: World, refs: readonly PoolRef[]): Promise<PoolState[]> {
  const calls: ReadCall[] = refs.flatMap((r) =>
    r.platform.family === 'uniswap-v2'
      ? [{ to: r.pool.address, iface: ABI.v2Pair(), fn: 'getReserves' }]
      : [
          { to: r.pool.address, iface: ABI.v3Pool(), fn: 'slot0' },
          { to: r.pool.address, iface: ABI.v3Pool(), fn: 'liquidity' },
        ],
  );
  const results = await readMany(world.ctx.rpc, calls);
  let i = 0;
  return refs.map((ref) => {
    if (ref.platform.family === 'uniswap-v2') {
      const r = results[i++]!;
      return { ref, reserve0: BigInt(r[0]), reserve1: BigInt(r[1]) };
    }
    const slot0 = results[i++]!;
    const liquidity = results[i++]!;
    return { ref, sqrtPriceX96: BigInt(slot0[0]), liquidity: BigInt(liquidity[0]) };
  });
}

export function usdValue(world: World, token: string, amount: bigint, step: number): number {
  const t = world.tokenAt(token);
  return (Number(amount) / 10 ** t.decimals) * world.price(t.symbol, step);
}

/** Estimated output, discounted so the portfolio model stays a lower bound. */
export function estimateOut(world: World, tokenIn: string, tokenOut: string, amountIn: bigint, step: number, haircut = 0.9): bigint {
  const b = world.tokenAt(tokenOut);
  return usdToUnits(usdValue(world, tokenIn, amountIn, step) * haircut, world.price(b.symbol, step), b.decimals);
}

export function queueArbitrage(world: World, states: readonly PoolState[], step: number): number {
  const { ctx, portfolio, actors } = world;
  let trades = 0;
  states.forEach((state, index) => {
    const { platform, pool } = state.ref;
    const t0 = world.tokenAt(pool.token0);
    const t1 = world.tokenAt(pool.token1);
    const target = rawPrice(world.price(t0.symbol, step), t0.decimals, world.price(t1.symbol, step), t1.decimals);
    let trade: ArbTrade;
    let current: number;
    if (platform.family === 'uniswap-v2') {
      current = Number(state.reserve1) / Number(state.reserve0);
      trade = v2TradeToPrice(state.reserve0!, state.reserve1!, target);
    } else {
      const s = Number(state.sqrtPriceX96) / 2 ** 96;
      current = s * s;
      trade = v3TradeToPrice(state.sqrtPriceX96!, state.liquidity!, target, pool.fee);
      // V3 pays only what the swap used, so overshoot the amount and let the price limit stop it.
      trade = { ...trade, amountIn: (trade.amountIn * 12n) / 10n };
    }
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
    if (platform.family === 'uniswap-v2') {
      const router = platformAddress(platform, 'router');
      world.approveOnce(bot, tokenIn.address, router);
      ctx.writer.call(bot, router, ABI.v2Router(), 'swapExactTokensForTokens', [amountIn, 0, [tokenIn.address, tokenOut.address], bot, NO_DEADLINE], { gas: 250_000n, label: `arb ${platform.slug} ${pool.pair}` });
    } else {
      const router = platformAddress(platform, 'router');
      world.approveOnce(bot, tokenIn.address, router);
      const params = {
        tokenIn: tokenIn.address,
        tokenOut: tokenOut.address,
        fee: pool.fee,
        recipient: bot,
        deadline: NO_DEADLINE,
        amountIn,
        amountOutMinimum: 0,
        sqrtPriceLimitX96: encodeSqrtPriceX96(target),
      };
      ctx.writer.call(bot, router, ABI.swapRouter(), 'exactInputSingle', [params], { gas: 600_000n, label: `arb v3 ${pool.pair} ${pool.fee}` });
    }
    // The swap may use less than amountIn (V3 stops at the price limit), so credit only half.
    portfolio.credit(bot, tokenOut.address, estimateOut(world, tokenIn.address, tokenOut.address, amountIn, step, 0.5));
    trades++;
  });
  return trades;
}
