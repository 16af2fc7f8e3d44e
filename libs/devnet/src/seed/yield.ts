/**
 * Vault and lending behaviour of simulated users. Each user's positions are tracked so that
 * withdrawals, borrows and repayments stay valid: borrows stay under 25 % of collateral value,
 * collateral is withdrawn only without debt, vault withdrawals never exceed what was deposited.
 */
import { MaxUint256 } from 'ethers';
import { ABI } from '../chain/abis';
import { platformAddress } from '../manifest';
import { usdToUnits } from '../math/uniswap';
import type { World } from './world';

const MAX_BORROW_SHARE = 0.25;
/** Debt grows with interest between borrow and repay; repay only with this much headroom. */
const REPAY_HEADROOM_BPS = 10_500n;

interface Positions {
  vaults: Map<string, bigint>;
  supplied: Map<string, bigint>;
  debt: Map<string, bigint>;
}

export class YieldBook {
  private readonly byUser = new Map<string, Positions>();

  of(user: string): Positions {
    let p = this.byUser.get(user);
    if (!p) {
      p = { vaults: new Map(), supplied: new Map(), debt: new Map() };
      this.byUser.set(user, p);
    }
    return p;
  }
}

const add = (m: Map<string, bigint>, k: string, v: bigint): void => {
  const next = (m.get(k) ?? 0n) + v;
  if (next === 0n) m.delete(k);
  else m.set(k, next);
};

export function queueVaultAction(world: World, book: YieldBook, user: string, step: number): boolean {
  const { ctx, rng, portfolio } = world;
  const vault = rng.pick(world.platform('erc4626').vaults);
  const positions = book.of(user).vaults;
  const deposited = positions.get(vault.address) ?? 0n;
  if (deposited > 0n && rng.chance(0.4)) {
    // Share price only rises, so half the deposited assets is always withdrawable.
    const assets = (deposited * BigInt(rng.int(10, 50))) / 100n;
    if (assets === 0n) return false;
    ctx.writer.call(user, vault.address, ABI.vault(), 'withdraw', [assets, user, user], { gas: 300_000n, label: `withdraw ${vault.symbol}` });
    add(positions, vault.address, -assets);
    portfolio.credit(user, vault.asset, assets);
    return true;
  }
  const wanted = usdToUnits(rng.logUniform(100, 50_000), world.price(vault.assetSymbol, step), vault.decimals);
  const assets = portfolio.debitUpTo(user, vault.asset, wanted, 0.5);
  if (assets === 0n) return false;
  world.approveOnce(user, vault.asset, vault.address);
  ctx.writer.call(user, vault.address, ABI.vault(), 'deposit', [assets, user], { gas: 300_000n, label: `deposit ${vault.symbol}` });
  add(positions, vault.address, assets);
  return true;
}

function valueUsd(world: World, amounts: Map<string, bigint>, step: number): number {
  let usd = 0;
  for (const [asset, amount] of amounts) {
    const t = world.tokenAt(asset);
    usd += (Number(amount) / 10 ** t.decimals) * world.price(t.symbol, step);
  }
  return usd;
}

export function queueLendingAction(world: World, book: YieldBook, user: string, step: number): boolean {
  const { ctx, rng, portfolio } = world;
  const aave = world.platform('aave-v3');
  const pool = platformAddress(aave, 'pool');
  const iface = ABI.aavePool();
  const { supplied, debt } = book.of(user);
  const collateralUsd = valueUsd(world, supplied, step);
  const debtUsd = valueUsd(world, debt, step);

  if (supplied.size === 0 || rng.chance(0.2)) {
    const market = rng.pick(aave.markets);
    const t = world.tokenAt(market.asset);
    const amount = portfolio.debitUpTo(user, t.address, usdToUnits(rng.logUniform(500, 100_000), world.price(t.symbol, step), t.decimals), 0.5);
    if (amount === 0n) return false;
    world.approveOnce(user, t.address, pool);
    ctx.writer.call(user, pool, iface, 'supply', [t.address, amount, user, 0], { gas: 500_000n, label: `aave supply ${t.symbol}` });
    add(supplied, t.address, amount);
    return true;
  }
  const room = collateralUsd * MAX_BORROW_SHARE - debtUsd;
  if (room > 50 && rng.chance(0.5)) {
    const t = world.tokenAt(rng.pick(aave.markets).asset);
    const amount = usdToUnits(rng.next() * room, world.price(t.symbol, step), t.decimals);
    if (amount === 0n) return false;
    // interestRateMode 2 = variable; stable borrowing is disabled on these reserves.
    ctx.writer.call(user, pool, iface, 'borrow', [t.address, amount, 2, 0, user], { gas: 600_000n, label: `aave borrow ${t.symbol}` });
    add(debt, t.address, amount);
    portfolio.credit(user, t.address, amount);
    return true;
  }
  for (const [asset, owed] of debt) {
    const needed = (owed * REPAY_HEADROOM_BPS) / 10_000n;
    if (portfolio.spendable(user, asset) < needed) continue;
    world.approveOnce(user, asset, pool);
    // MaxUint256 repays the whole debt including interest accrued since the borrow.
    ctx.writer.call(user, pool, iface, 'repay', [asset, MaxUint256, 2, user], { gas: 500_000n, label: `aave repay ${world.tokenAt(asset).symbol}` });
    portfolio.debit(user, asset, needed);
    debt.delete(asset);
    return true;
  }
  if (debt.size === 0) {
    const [asset, principal] = [...supplied.entries()][rng.int(0, supplied.size - 1)]!;
    const amount = rng.chance(0.5) ? principal : principal / 2n;
    if (amount === 0n) return false;
    ctx.writer.call(user, pool, iface, 'withdraw', [asset, amount, user], { gas: 500_000n, label: `aave withdraw ${world.tokenAt(asset).symbol}` });
    add(supplied, asset, -amount);
    portfolio.credit(user, asset, amount);
    return true;
  }
  return false;
}
