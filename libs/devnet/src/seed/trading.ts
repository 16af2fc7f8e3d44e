/**
 * What simulated traders do with tokens beyond the protocols: transfers, sending and wrapping ETH.
 * (Swaps are each DEX family's own actions: its devnet facet in libs/protocols.)
 */
import { takeAmount } from '@tokensvc/protocols/devnet';
import { ABI } from '../chain/abis';
import { usdToUnits } from '../math/uniswap';
import { NATIVE } from './portfolio';
import type { World } from './world';

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
