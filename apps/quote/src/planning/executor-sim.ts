/**
 * Exact simulation of the Executor running an order's actions: balances it holds, pool states
 * the actions change, LP supply, vault totals and lending liquidity. Uses the routing library's
 * contract-exact maths, so on an unchanged chain the predicted output is what the chain pays
 * (lending positions aside: aToken balances are scaled by a per-second index, ±2 units).
 */
import {
  addLiquidityAmounts,
  burnLiquidity,
  mintLiquidity,
  previewDeposit,
  previewRedeem,
  supplyAfterProtocolFee,
  swapExactIn,
  type Pool,
  type V2Pair,
} from '@tokensvc/routing';
import { type Action, BPS } from '@tokensvc/protocols';
import { type LendingMarket, type PairSupply, type SimWorld, type VaultInfo, pairOf } from './sim-world';

/** An action that would revert on chain (zero amounts, missing liquidity). */
export class SimRevert extends Error {
  constructor(
    readonly reason: 'zero-amount' | 'no-liquidity' | 'unknown-state',
    message: string,
  ) {
    super(message);
  }
}

export interface ActionOutcome {
  spent: Array<{ token: string; amount: bigint }>;
  received: Array<{ token: string; amount: bigint }>;
  ticksCrossed: number;
}

export class ExecutorSim {
  private readonly balances = new Map<string, bigint>();
  private readonly pools: Map<string, Pool>;
  private readonly pairs: Map<string, PairSupply>;
  private readonly vaults: Map<string, VaultInfo>;
  private readonly lending: Map<string, LendingMarket>;

  constructor(world: SimWorld) {
    this.pools = new Map(world.pools);
    this.pairs = new Map(world.pairs);
    this.vaults = new Map(world.vaults);
    this.lending = new Map(world.lending);
  }

  clone(): ExecutorSim {
    const copy = new ExecutorSim(this.world());
    for (const [t, b] of this.balances) copy.balances.set(t, b);
    return copy;
  }

  /** The state as it is now (after the applied actions). */
  world(): SimWorld {
    return { pools: this.pools, pairs: this.pairs, vaults: this.vaults, lending: this.lending };
  }

  balance(token: string): bigint {
    return this.balances.get(token) ?? 0n;
  }

  /** Tokens held with a positive balance. */
  holdings(): Array<{ token: string; amount: bigint }> {
    return [...this.balances].filter(([, b]) => b > 0n).map(([token, amount]) => ({ token, amount }));
  }

  credit(token: string, amount: bigint): void {
    this.balances.set(token, this.balance(token) + amount);
  }

  private debit(token: string, amount: bigint): void {
    this.balances.set(token, this.balance(token) - amount);
  }

  apply(a: Action): ActionOutcome {
    switch (a.kind) {
      case 'swap':
        return this.swap(a.pool, a.tokenIn, a.tokenOut, a.bps);
      case 'v2-burn':
        return this.burn(a.pair, a.token0, a.token1);
      case 'v2-add':
        return this.add(a.pair, a.token0, a.token1);
      case 'vault-deposit': {
        const vault = this.vault(a.vault);
        const assets = this.positive(a.asset, 'deposit');
        const shares = previewDeposit(vault, assets);
        if (shares === 0n) throw new SimRevert('zero-amount', `depositing ${assets} into vault ${a.vault} mints no shares`);
        this.vaults.set(a.vault, { ...vault, totalAssets: vault.totalAssets + assets, totalSupply: vault.totalSupply + shares });
        return this.moved(a.asset, assets, a.vault, shares);
      }
      case 'vault-redeem': {
        const vault = this.vault(a.vault);
        const shares = this.positive(a.vault, 'redeem');
        const assets = previewRedeem(vault, shares);
        if (assets === 0n) throw new SimRevert('zero-amount', `redeeming ${shares} shares of vault ${a.vault} pays nothing`);
        this.vaults.set(a.vault, { ...vault, totalAssets: vault.totalAssets - assets, totalSupply: vault.totalSupply - shares });
        return this.moved(a.vault, shares, a.asset, assets);
      }
      case 'lending-supply': {
        const market = this.market(a.aToken);
        const amount = this.positive(a.asset, 'supply');
        this.lending.set(a.aToken, { ...market, available: market.available + amount });
        return this.moved(a.asset, amount, a.aToken, amount);
      }
      case 'lending-withdraw': {
        const market = this.market(a.aToken);
        const amount = this.positive(a.aToken, 'withdraw');
        if (market.available < amount)
          throw new SimRevert('no-liquidity', `the lending market holds only ${market.available} of the ${amount} to withdraw`);
        this.lending.set(a.aToken, { ...market, available: market.available - amount });
        return this.moved(a.aToken, amount, a.asset, amount);
      }
      case 'sweep': {
        const amount = this.balance(a.token);
        this.balances.set(a.token, 0n);
        return { spent: [{ token: a.token, amount }], received: [], ticksCrossed: 0 };
      }
    }
  }

  private moved(from: string, spent: bigint, to: string, received: bigint): ActionOutcome {
    this.debit(from, spent);
    this.credit(to, received);
    return { spent: [{ token: from, amount: spent }], received: [{ token: to, amount: received }], ticksCrossed: 0 };
  }

  private positive(token: string, what: string): bigint {
    const amount = this.balance(token);
    if (amount <= 0n) throw new SimRevert('zero-amount', `nothing of ${token} to ${what}`);
    return amount;
  }

  private swap(address: string, tokenIn: string, tokenOut: string, bps: number): ActionOutcome {
    const pool = this.pools.get(address);
    if (!pool) throw new SimRevert('unknown-state', `pool ${address} is not in the graph`);
    const amount = (this.balance(tokenIn) * BigInt(bps)) / BigInt(BPS);
    if (amount === 0n) throw new SimRevert('zero-amount', `a swap through ${address} would get no ${tokenIn}`);
    const result = swapExactIn(pool, tokenIn, amount);
    if (result.amountOut === 0n) throw new SimRevert('zero-amount', `${amount} of ${tokenIn} buys nothing in pool ${address}`);
    this.pools.set(address, result.after);
    this.debit(tokenIn, result.amountIn);
    this.credit(tokenOut, result.amountOut);
    return {
      spent: [{ token: tokenIn, amount: result.amountIn }],
      received: [{ token: tokenOut, amount: result.amountOut }],
      ticksCrossed: result.ticksCrossed,
    };
  }

  private pair(address: string): V2Pair {
    const pair = pairOf(this.pools.get(address), this.pairs.get(address));
    if (!pair) throw new SimRevert('unknown-state', `no V2 pair state for ${address}`);
    return pair;
  }

  /** totalSupply and kLast after a mint/burn (UniswapV2Pair._mintFee then the kLast update). */
  private setPair(pair: V2Pair, reserve0: bigint, reserve1: bigint, supplyDelta: bigint): void {
    const feeOn = pair.kLast !== undefined;
    this.pools.set(pair.address, {
      family: pair.family,
      shape: 'constant-product',
      address: pair.address,
      token0: pair.token0,
      token1: pair.token1,
      fee: pair.fee,
      reserve0,
      reserve1,
    });
    this.pairs.set(pair.address, {
      totalSupply: supplyAfterProtocolFee(pair) + supplyDelta,
      kLast: feeOn ? reserve0 * reserve1 : undefined,
    });
  }

  private burn(address: string, token0: string, token1: string): ActionOutcome {
    const pair = this.pair(address);
    const liquidity = this.positive(address, 'burn');
    const { amount0, amount1 } = burnLiquidity(pair, liquidity);
    if (amount0 === 0n || amount1 === 0n) throw new SimRevert('zero-amount', `burning ${liquidity} LP tokens of ${address} pays nothing`);
    this.setPair(pair, pair.reserve0 - amount0, pair.reserve1 - amount1, -liquidity);
    this.debit(address, liquidity);
    this.credit(token0, amount0);
    this.credit(token1, amount1);
    return {
      spent: [{ token: address, amount: liquidity }],
      received: [
        { token: token0, amount: amount0 },
        { token: token1, amount: amount1 },
      ],
      ticksCrossed: 0,
    };
  }

  private add(address: string, token0: string, token1: string): ActionOutcome {
    const pair = this.pair(address);
    const desired0 = this.positive(token0, 'add as liquidity');
    const desired1 = this.positive(token1, 'add as liquidity');
    const { amountA: amount0, amountB: amount1 } = addLiquidityAmounts(desired0, desired1, pair.reserve0, pair.reserve1);
    const liquidity = mintLiquidity(pair, amount0, amount1);
    if (liquidity === 0n) throw new SimRevert('zero-amount', `adding ${amount0}/${amount1} to ${address} mints no LP tokens`);
    this.setPair(pair, pair.reserve0 + amount0, pair.reserve1 + amount1, liquidity);
    this.debit(token0, amount0);
    this.debit(token1, amount1);
    this.credit(address, liquidity);
    return {
      spent: [
        { token: token0, amount: amount0 },
        { token: token1, amount: amount1 },
      ],
      received: [{ token: address, amount: liquidity }],
      ticksCrossed: 0,
    };
  }

  private vault(address: string): VaultInfo {
    const v = this.vaults.get(address);
    if (!v) throw new SimRevert('unknown-state', `no state for vault ${address}`);
    return v;
  }

  private market(aToken: string): LendingMarket {
    const m = this.lending.get(aToken);
    if (!m) throw new SimRevert('unknown-state', `no state for lending market of ${aToken}`);
    return m;
  }
}
