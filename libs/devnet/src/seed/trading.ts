/** What simulated traders do with tokens: swaps on every DEX, transfers, wrapping ETH. */
import { solidityPacked } from 'ethers';
import { ABI } from '../chain/abis';
import { NO_DEADLINE } from '../deploy/context';
import { type ManifestPlatform, type ManifestPool, type ManifestToken, platformAddress } from '../manifest';
import { usdToUnits } from '../math/uniswap';
import { type PoolState, estimateOut } from './arbitrage';
import { NATIVE } from './portfolio';
import type { World } from './world';

function tradeUsd(world: World): number {
  return world.rng.logUniform(20, 25_000);
}

/**
 * USD that moves this pool's price by about 1 %, the most one simulated trade may use, so swap
 * outputs stay close to the estimates the portfolio model credits.
 */
function maxTradeUsd(world: World, state: PoolState, step: number): number {
  const t0 = world.tokenAt(state.ref.pool.token0);
  const t1 = world.tokenAt(state.ref.pool.token1);
  // V2: selling 0.5 % of a reserve moves the price ~1 %; the pool holds 2× reserve0 in value.
  if (state.reserve0 !== undefined) return ((Number(state.reserve0) / 10 ** t0.decimals) * world.price(t0.symbol, step)) * 0.005;
  // V3: token1 needed for Δ√P = 0.5 % is L·√P·0.005 (active liquidity only).
  const s = Number(state.sqrtPriceX96) / 2 ** 96;
  return ((Number(state.liquidity) * s * 0.005) / 10 ** t1.decimals) * world.price(t1.symbol, step);
}

/** Below this a trade is skipped: tiny inputs can round to zero output and revert. */
const MIN_TRADE_USD = 5;

/** Debits a random-size amount of tokenIn for a trade; 0 when the trader cannot afford it. */
function takeAmount(world: World, trader: string, tokenIn: ManifestToken, usd: number, step: number): bigint {
  const price = world.price(tokenIn.symbol, step);
  const wanted = usdToUnits(usd, price, tokenIn.decimals);
  return world.portfolio.debitUpTo(trader, tokenIn.address, wanted, 0.5, usdToUnits(MIN_TRADE_USD, price, tokenIn.decimals));
}

function orient(world: World, pool: ManifestPool): [ManifestToken, ManifestToken] {
  const a = world.tokenAt(pool.token0);
  const b = world.tokenAt(pool.token1);
  return world.rng.chance(0.5) ? [a, b] : [b, a];
}

export function queueV2Swap(world: World, trader: string, states: readonly PoolState[], step: number): boolean {
  const { ctx, rng, portfolio } = world;
  const v2 = states.filter((s) => s.ref.platform.family === 'uniswap-v2');
  // The original Uniswap gets most of the flow, the fork the rest.
  const preferred = v2.filter((s) => s.ref.platform.slug === 'uniswap-v2');
  const state = rng.chance(0.7) && preferred.length > 0 ? rng.pick(preferred) : rng.pick(v2);
  const platform: ManifestPlatform = state.ref.platform;
  const router = platformAddress(platform, 'router');
  const [tokenIn, tokenOut] = orient(world, state.ref.pool);
  const weth = world.token('WETH');
  const usd = Math.min(tradeUsd(world), maxTradeUsd(world, state, step));
  const label = `${platform.slug} swap ${tokenIn.symbol}->${tokenOut.symbol}`;

  if (tokenIn.address === weth.address && rng.chance(0.4)) {
    const ethUsd = world.price('WETH', step);
    const value = portfolio.debitUpTo(trader, NATIVE, usdToUnits(usd, ethUsd, 18), 0.3, usdToUnits(MIN_TRADE_USD, ethUsd, 18));
    if (value === 0n) return false;
    ctx.writer.call(trader, router, ABI.v2Router(), 'swapExactETHForTokens', [0, [weth.address, tokenOut.address], trader, NO_DEADLINE], { value, gas: 250_000n, label });
    portfolio.credit(trader, tokenOut.address, estimateOut(world, weth.address, tokenOut.address, value, step));
    return true;
  }
  const amountIn = takeAmount(world, trader, tokenIn, usd, step);
  if (amountIn === 0n) return false;
  world.approveOnce(trader, tokenIn.address, router);
  if (tokenOut.address === weth.address && rng.chance(0.3)) {
    ctx.writer.call(trader, router, ABI.v2Router(), 'swapExactTokensForETH', [amountIn, 0, [tokenIn.address, weth.address], trader, NO_DEADLINE], { gas: 250_000n, label });
    portfolio.credit(trader, NATIVE, estimateOut(world, tokenIn.address, weth.address, amountIn, step));
    return true;
  }
  ctx.writer.call(trader, router, ABI.v2Router(), 'swapExactTokensForTokens', [amountIn, 0, [tokenIn.address, tokenOut.address], trader, NO_DEADLINE], { gas: 250_000n, label });
  portfolio.credit(trader, tokenOut.address, estimateOut(world, tokenIn.address, tokenOut.address, amountIn, step));
  return true;
}

export function queueV3Swap(world: World, trader: string, states: readonly PoolState[], step: number): boolean {
  const { ctx, rng, portfolio } = world;
  const v3 = states.filter((s) => s.ref.platform.family === 'uniswap-v3');
  const platform = world.platform('uniswap-v3');
  const router = platformAddress(platform, 'router');
  const weth = world.token('WETH').address;
  const withWeth = v3.filter((s) => s.ref.pool.token0 === weth || s.ref.pool.token1 === weth);

  // Some trades route through WETH across two pools, like an aggregator would.
  if (rng.chance(0.2) && withWeth.length >= 2) {
    const first = rng.pick(withWeth);
    const second = rng.pick(withWeth.filter((s) => s !== first));
    const other = (s: PoolState): string => (s.ref.pool.token0 === weth ? s.ref.pool.token1 : s.ref.pool.token0);
    const tokenIn = world.tokenAt(other(first));
    const tokenOut = world.tokenAt(other(second));
    if (tokenIn.address === tokenOut.address) return false;
    const usd = Math.min(tradeUsd(world), maxTradeUsd(world, first, step), maxTradeUsd(world, second, step));
    const amountIn = takeAmount(world, trader, tokenIn, usd, step);
    if (amountIn === 0n) return false;
    world.approveOnce(trader, tokenIn.address, router);
    const path = solidityPacked(['address', 'uint24', 'address', 'uint24', 'address'], [tokenIn.address, first.ref.pool.fee, weth, second.ref.pool.fee, tokenOut.address]);
    ctx.writer.call(trader, router, ABI.swapRouter(), 'exactInput', [{ path, recipient: trader, deadline: NO_DEADLINE, amountIn, amountOutMinimum: 0 }], { gas: 600_000n, label: `v3 swap ${tokenIn.symbol}->WETH->${tokenOut.symbol}` });
    portfolio.credit(trader, tokenOut.address, estimateOut(world, tokenIn.address, tokenOut.address, amountIn, step, 0.85));
    return true;
  }

  const state = rng.pick(v3);
  const [tokenIn, tokenOut] = orient(world, state.ref.pool);
  const usd = Math.min(tradeUsd(world), maxTradeUsd(world, state, step));
  const amountIn = takeAmount(world, trader, tokenIn, usd, step);
  if (amountIn === 0n) return false;
  world.approveOnce(trader, tokenIn.address, router);
  const params = { tokenIn: tokenIn.address, tokenOut: tokenOut.address, fee: state.ref.pool.fee, recipient: trader, deadline: NO_DEADLINE, amountIn, amountOutMinimum: 0, sqrtPriceLimitX96: 0 };
  ctx.writer.call(trader, router, ABI.swapRouter(), 'exactInputSingle', [params], { gas: 500_000n, label: `v3 swap ${tokenIn.symbol}->${tokenOut.symbol} ${state.ref.pool.fee}` });
  portfolio.credit(trader, tokenOut.address, estimateOut(world, tokenIn.address, tokenOut.address, amountIn, step));
  return true;
}

function pickRecipient(world: World, sender: string): string {
  const { rng, actors } = world;
  if (rng.chance(0.3)) return rng.pick(actors.recipients).address;
  const others = actors.traders.filter((t) => t.address !== sender);
  return rng.pick(others).address;
}

export function queueTransfer(world: World, trader: string, step: number): boolean {
  const { ctx, rng, portfolio } = world;
  const token = rng.pick(world.tokens);
  const to = pickRecipient(world, trader);
  const amount = takeAmount(world, trader, token, rng.logUniform(10, 10_000), step);
  if (amount === 0n) return false;
  ctx.writer.call(trader, token.address, ABI.erc20(), 'transfer', [to, amount], { gas: 100_000n, label: `transfer ${token.symbol}` });
  portfolio.credit(to, token.address, amount);
  return true;
}

export function queueNativeTransfer(world: World, trader: string, step: number): boolean {
  const to = pickRecipient(world, trader);
  const value = world.portfolio.debitUpTo(trader, NATIVE, usdToUnits(world.rng.logUniform(10, 5_000), world.price('WETH', step), 18), 0.3);
  if (value === 0n) return false;
  world.ctx.writer.send({ from: trader, to, value, gas: 21_000n, label: 'send ETH' });
  world.portfolio.credit(to, NATIVE, value);
  return true;
}

export function queueWrap(world: World, trader: string, step: number): boolean {
  const { ctx, rng, portfolio } = world;
  const weth = world.token('WETH').address;
  const wanted = usdToUnits(rng.logUniform(50, 20_000), world.price('WETH', step), 18);
  if (rng.chance(0.6)) {
    const value = portfolio.debitUpTo(trader, NATIVE, wanted, 0.3);
    if (value === 0n) return false;
    ctx.writer.call(trader, weth, ABI.weth(), 'deposit', [], { value, gas: 100_000n, label: 'wrap ETH' });
    portfolio.credit(trader, weth, value);
    return true;
  }
  const amount = portfolio.debitUpTo(trader, weth, wanted, 0.5);
  if (amount === 0n) return false;
  ctx.writer.call(trader, weth, ABI.weth(), 'withdraw', [amount], { gas: 100_000n, label: 'unwrap WETH' });
  portfolio.credit(trader, NATIVE, amount);
  return true;
}
