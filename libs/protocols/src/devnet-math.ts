/**
 * DEVNET ONLY (libs/devnet builds the local chains with it; nothing in production runs it).
 * Price maths for seeding Uniswap pools. "Raw price" is token1 base units per token0 base unit,
 * the quantity Uniswap itself stores (reserve1/reserve0, or (sqrtPriceX96 / 2^96)^2).
 * Floats are fine here: these numbers steer a simulation, they never settle balances.
 */
export const MIN_TICK = -887272;
export const MAX_TICK = 887272;
const Q96 = 2 ** 96;

export const FEE_TICK_SPACING: Readonly<Record<number, number>> = { 100: 1, 500: 10, 3000: 60, 10000: 200 };

export function tickSpacingOf(fee: number): number {
  const spacing = FEE_TICK_SPACING[fee];
  if (spacing === undefined) throw new Error(`no tick spacing for fee ${fee}`);
  return spacing;
}

/** Uniswap orders a pair by address; compare case-insensitively. */
export function sortTokens<T extends { address: string }>(a: T, b: T): [T, T] {
  return a.address.toLowerCase() < b.address.toLowerCase() ? [a, b] : [b, a];
}

/** token1 base units per token0 base unit, from both tokens' USD prices and decimals. */
export function rawPrice(usd0: number, decimals0: number, usd1: number, decimals1: number): number {
  return (usd0 / usd1) * 10 ** (decimals1 - decimals0);
}

export function encodeSqrtPriceX96(price: number): bigint {
  if (!(price > 0) || !Number.isFinite(price)) throw new Error(`invalid price ${price}`);
  return BigInt(Math.floor(Math.sqrt(price) * Q96));
}

export function sqrtPriceX96ToPrice(sqrtPriceX96: bigint): number {
  const s = Number(sqrtPriceX96) / Q96;
  return s * s;
}

export function priceToTick(price: number): number {
  return Math.floor(Math.log(price) / Math.log(1.0001));
}

/** Nearest initialisable tick, kept inside the usable range for that spacing. */
export function nearestUsableTick(tick: number, spacing: number): number {
  const rounded = Math.round(tick / spacing) * spacing;
  const min = Math.ceil(MIN_TICK / spacing) * spacing;
  const max = Math.floor(MAX_TICK / spacing) * spacing;
  return Math.min(max, Math.max(min, rounded));
}

export function fullRangeTicks(spacing: number): [number, number] {
  return [Math.ceil(MIN_TICK / spacing) * spacing, Math.floor(MAX_TICK / spacing) * spacing];
}

/** Ticks for a position covering price × (1 ± width), e.g. width 0.1 for ±10 %. */
export function rangeTicks(price: number, width: number, spacing: number): [number, number] {
  const lower = nearestUsableTick(priceToTick(price * (1 - width)), spacing);
  let upper = nearestUsableTick(priceToTick(price * (1 + width)), spacing);
  if (upper <= lower) upper = lower + spacing;
  return [lower, upper];
}

/** Base units worth `usd` of a token priced at `priceUsd`. */
export function usdToUnits(usd: number, priceUsd: number, decimals: number): bigint {
  const units = (usd / priceUsd) * 10 ** decimals;
  if (!Number.isFinite(units) || units < 0) throw new Error(`invalid amount for $${usd} at $${priceUsd}`);
  return BigInt(Math.floor(units));
}

export function unitsToUsd(units: bigint, priceUsd: number, decimals: number): number {
  return (Number(units) / 10 ** decimals) * priceUsd;
}

export interface ArbTrade {
  zeroForOne: boolean;
  amountIn: bigint;
}

/** Exact-input trade that moves a constant-product pool (0.3 % fee) to the target raw price. */
export function v2TradeToPrice(reserve0: bigint, reserve1: bigint, target: number): ArbTrade {
  const r0 = Number(reserve0);
  const r1 = Number(reserve1);
  const k = r0 * r1;
  const r0Target = Math.sqrt(k / target);
  if (r0Target > r0) return { zeroForOne: true, amountIn: BigInt(Math.floor((r0Target - r0) / 0.997)) };
  return { zeroForOne: false, amountIn: BigInt(Math.floor((Math.sqrt(k * target) - r1) / 0.997)) };
}

/**
 * Exact-input trade that moves a V3 pool to the target raw price, assuming the active liquidity
 * holds over the move (true for small corrections; the next block corrects the rest).
 */
export function v3TradeToPrice(sqrtPriceX96: bigint, liquidity: bigint, target: number, fee: number): ArbTrade {
  const s = Number(sqrtPriceX96) / Q96;
  const t = Math.sqrt(target);
  const l = Number(liquidity);
  const feeFactor = 1 - fee / 1_000_000;
  if (t > s) return { zeroForOne: false, amountIn: BigInt(Math.floor((l * (t - s)) / feeFactor)) };
  return { zeroForOne: true, amountIn: BigInt(Math.floor((l * (1 / t - 1 / s)) / feeFactor)) };
}
