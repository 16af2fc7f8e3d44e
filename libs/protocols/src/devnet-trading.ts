/**
 * DEVNET ONLY: what the simulated traders of every DEX family share (libs/devnet's seeder runs
 * them through the families' devnet facets; nothing in production runs it).
 */
import { usdToUnits } from './devnet-math';
import type { DevnetPool, DevnetToken, DevnetWorld } from './devnet-port';

/** Below this a trade is skipped: tiny inputs can round to zero output and revert. */
export const MIN_TRADE_USD = 5;

export function tradeUsd(world: DevnetWorld): number {
  return world.rng.logUniform(20, 25_000);
}

/** Debits a random-size amount of tokenIn for a trade; 0 when the trader cannot afford it. */
export function takeAmount(world: DevnetWorld, trader: string, tokenIn: DevnetToken, usd: number, step: number): bigint {
  const price = world.price(tokenIn.symbol, step);
  const wanted = usdToUnits(usd, price, tokenIn.decimals);
  return world.portfolio.debitUpTo(trader, tokenIn.address, wanted, 0.5, usdToUnits(MIN_TRADE_USD, price, tokenIn.decimals));
}

export function orient(world: DevnetWorld, pool: DevnetPool): [DevnetToken, DevnetToken] {
  const a = world.tokenAt(pool.token0);
  const b = world.tokenAt(pool.token1);
  return world.rng.chance(0.5) ? [a, b] : [b, a];
}

export function usdValue(world: DevnetWorld, token: string, amount: bigint, step: number): number {
  const t = world.tokenAt(token);
  return (Number(amount) / 10 ** t.decimals) * world.price(t.symbol, step);
}

/** Estimated output, discounted so the portfolio model stays a lower bound. */
export function estimateOut(world: DevnetWorld, tokenIn: string, tokenOut: string, amountIn: bigint, step: number, haircut = 0.9): bigint {
  const b = world.tokenAt(tokenOut);
  return usdToUnits(usdValue(world, tokenIn, amountIn, step) * haircut, world.price(b.symbol, step), b.decimals);
}

/** Adds `v` to a position (removed at zero): what the simulated users hold in vaults and markets. */
export function addPosition(m: Map<string, bigint>, k: string, v: bigint): void {
  const next = (m.get(k) ?? 0n) + v;
  if (next === 0n) m.delete(k);
  else m.set(k, next);
}
