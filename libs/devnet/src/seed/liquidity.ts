/**
 * Funding and initial liquidity, before any history: balances for every simulated account,
 * then LPs fill the V2 pairs, V3 positions, Aave reserves and vaults at the step-0 prices.
 */
import { parseEther } from 'ethers';
import { TEST_ACCOUNTS } from '../accounts';
import { ABI } from '../chain/abis';
import { toHex } from '../chain/rpc';
import { AAVE_RESERVES, type ReserveSpec, V2_PLATFORMS, V3_POOLS, VAULTS } from '../config';
import { NO_DEADLINE, mineNext } from '../deploy/context';
import { symbolResolver } from '../deploy/network';
import { fullRangeTicks, rangeTicks, rawPrice, sortTokens, tickSpacingOf, usdToUnits } from '../math/uniswap';
import { platformAddress } from '../manifest';
import { NATIVE } from './portfolio';
import type { World } from './world';

interface Grant {
  to: string;
  symbol: string;
  usd: number;
}

/** Wallet sizes in USD per token; traders get a random wealth, bots and LPs what they need. */
function plannedGrants(world: World): Grant[] {
  const { actors, rng } = world;
  const grants: Grant[] = [];
  const symbols = world.tokens.map((t) => t.symbol);
  for (const trader of actors.traders) {
    const wealth = rng.logUniform(5_000, 2_000_000);
    for (const s of symbols) grants.push({ to: trader.address, symbol: s, usd: wealth * rng.logUniform(0.02, 0.3) });
  }
  for (const arb of actors.arbitrageurs) for (const s of symbols) grants.push({ to: arb.address, symbol: s, usd: 20_000_000 });
  for (const s of symbols) {
    grants.push({ to: actors.filler.address, symbol: s, usd: 1_000_000 });
    // Owner's budget for simulated vault yield.
    grants.push({ to: world.ctx.deployer, symbol: s, usd: 1_000_000 });
    // The test accounts get a starter balance of every token; their ETH and nonce stay untouched.
    for (const acct of TEST_ACCOUNTS) grants.push({ to: acct.address, symbol: s, usd: 100_000 });
  }
  return grants;
}

/** Liquidity each LP adds, in USD per token, derived from the pool/reserve/vault tables. */
function liquidityGrants(world: World): Grant[] {
  const [lpV2, lpV3, lpLending] = world.actors.liquidityProviders;
  if (!lpV2 || !lpV3 || !lpLending) throw new Error('need three liquidity providers');
  const resolve = symbolResolver(world.ctx);
  const grants: Grant[] = [];
  for (const platform of V2_PLATFORMS) for (const p of platform.pools) for (const s of [p.a, p.b]) grants.push({ to: lpV2.address, symbol: resolve(s), usd: p.tvlUsd / 2 });
  for (const p of V3_POOLS) for (const s of [p.a, p.b]) grants.push({ to: lpV3.address, symbol: resolve(s), usd: p.tvlUsd / 2 });
  for (const r of aaveReserves(world)) grants.push({ to: lpLending.address, symbol: r.symbol, usd: r.seedUsd });
  for (const v of VAULTS) grants.push({ to: lpLending.address, symbol: resolve(v.asset), usd: v.seedUsd });
  return grants;
}

/**
 * The Aave reserves the network has (its markets, in their order) with the spec each was listed from:
 * the mainnet-shaped base lists only the reserves its real market has.
 */
function aaveReserves(world: World): Array<ReserveSpec & { symbol: string }> {
  const resolve = symbolResolver(world.ctx);
  return world.platform('aave-v3').markets.map((m) => {
    const { symbol } = world.tokenAt(m.asset);
    const spec = AAVE_RESERVES.find((r) => resolve(r.asset) === symbol);
    if (!spec) throw new Error(`no reserve spec for the Aave market of ${symbol}`);
    return { ...spec, symbol };
  });
}

/** Mints ERC-20s (one mintMany per token) and wraps ETH for WETH grants; credits the portfolio. */
async function fund(world: World, grants: Grant[]): Promise<void> {
  const { ctx, portfolio } = world;
  const perToken = new Map<string, Map<string, bigint>>();
  for (const g of grants) {
    const t = world.token(g.symbol);
    // +1 % headroom so rounding in the pools never leaves an LP a few units short.
    const amount = usdToUnits(g.usd * 1.01, world.price(g.symbol, 0), t.decimals);
    const m = perToken.get(g.symbol) ?? new Map<string, bigint>();
    m.set(g.to, (m.get(g.to) ?? 0n) + amount);
    perToken.set(g.symbol, m);
  }
  const holders = new Set(grants.map((g) => g.to));
  for (const a of [...world.actors.traders, ...world.actors.arbitrageurs, ...world.actors.liquidityProviders, world.actors.relayer, world.actors.filler]) holders.add(a.address);
  const ethUsd = world.price('WETH', 0);
  for (const holder of holders) {
    if (TEST_ACCOUNTS.some((a) => a.address === holder) || holder === ctx.deployer) continue;
    const weth = perToken.get('WETH')?.get(holder) ?? 0n;
    const isTrader = world.actors.traders.some((a) => a.address === holder);
    // Native ETH: WETH to wrap, plus gas money and (for traders) a wallet of plain ETH.
    const gasMoney = parseEther(holder === world.actors.filler.address ? '1000' : '100');
    const walletEth = isTrader ? usdToUnits(world.rng.logUniform(2_000, 200_000), ethUsd, 18) : 0n;
    await ctx.rpc.call('anvil_setBalance', [holder, toHex(weth + gasMoney + walletEth)]);
    // Gas is paid from the native balance; keep the gas money out of the spendable model.
    portfolio.credit(holder, NATIVE, walletEth);
  }
  for (const [symbol, recipients] of perToken) {
    const t = world.token(symbol);
    if (symbol === 'WETH') {
      for (const [to, amount] of recipients) {
        if (TEST_ACCOUNTS.some((a) => a.address === to)) continue;
        ctx.writer.call(to, t.address, ABI.weth(), 'deposit', [], { value: amount, gas: 100_000n, label: 'wrap ETH' });
        portfolio.credit(to, t.address, amount);
      }
      continue;
    }
    const entries = [...recipients.entries()];
    ctx.writer.call(ctx.deployer, t.address, ABI.erc20(), 'mintMany', [entries.map((e) => e[0]), entries.map((e) => e[1])], { gas: 8_000_000n, label: `mint ${symbol}` });
    for (const [to, amount] of entries) portfolio.credit(to, t.address, amount);
  }
  await mineNext(ctx, 60);
}

async function addLiquidity(world: World): Promise<void> {
  const { ctx, portfolio } = world;
  const [lpV2, lpV3, lpLending] = world.actors.liquidityProviders.map((a) => a.address) as [string, string, string];
  const resolve = symbolResolver(ctx);
  const units = (symbol: string, usd: number): bigint => usdToUnits(usd, world.price(symbol, 0), world.token(symbol).decimals);

  for (const [i, platform] of world.platforms('uniswap-v2').entries()) {
    const spec = V2_PLATFORMS[i]!;
    const router = platformAddress(platform, 'router');
    for (const p of spec.pools) {
      const a = world.token(resolve(p.a));
      const b = world.token(resolve(p.b));
      const [amountA, amountB] = [units(a.symbol, p.tvlUsd / 2), units(b.symbol, p.tvlUsd / 2)];
      world.approveOnce(lpV2, a.address, router);
      world.approveOnce(lpV2, b.address, router);
      ctx.writer.call(lpV2, router, ABI.v2Router(), 'addLiquidity', [a.address, b.address, amountA, amountB, 0, 0, lpV2, NO_DEADLINE], { gas: 400_000n, label: `${spec.slug} addLiquidity ${a.symbol}/${b.symbol}` });
      portfolio.debit(lpV2, a.address, amountA);
      portfolio.debit(lpV2, b.address, amountB);
    }
  }

  const v3 = world.platform('uniswap-v3');
  const npm = platformAddress(v3, 'positionManager');
  for (const spec of V3_POOLS) {
    const [t0, t1] = sortTokens(world.token(resolve(spec.a)), world.token(resolve(spec.b)));
    const spacing = tickSpacingOf(spec.fee);
    const price = rawPrice(world.price(t0.symbol, 0), t0.decimals, world.price(t1.symbol, 0), t1.decimals);
    world.approveOnce(lpV3, t0.address, npm);
    world.approveOnce(lpV3, t1.address, npm);
    for (const pos of spec.positions) {
      const [tickLower, tickUpper] = pos.width === undefined ? fullRangeTicks(spacing) : rangeTicks(price, pos.width, spacing);
      const amount0 = units(t0.symbol, (spec.tvlUsd * pos.share) / 2);
      const amount1 = units(t1.symbol, (spec.tvlUsd * pos.share) / 2);
      const params = { token0: t0.address, token1: t1.address, fee: spec.fee, tickLower, tickUpper, amount0Desired: amount0, amount1Desired: amount1, amount0Min: 0, amount1Min: 0, recipient: lpV3, deadline: NO_DEADLINE };
      ctx.writer.call(lpV3, npm, ABI.positionManager(), 'mint', [params], { gas: 800_000n, label: `v3 mint ${t0.symbol}/${t1.symbol} ${spec.fee}` });
      // The manager may use less of one side; treating both as spent keeps the model conservative.
      portfolio.debit(lpV3, t0.address, amount0);
      portfolio.debit(lpV3, t1.address, amount1);
    }
  }

  const aave = world.platform('aave-v3');
  const pool = platformAddress(aave, 'pool');
  for (const r of aaveReserves(world)) {
    const t = world.token(r.symbol);
    const amount = units(r.symbol, r.seedUsd);
    world.approveOnce(lpLending, t.address, pool);
    ctx.writer.call(lpLending, pool, ABI.aavePool(), 'supply', [t.address, amount, lpLending, 0], { gas: 500_000n, label: `aave supply ${r.symbol}` });
    portfolio.debit(lpLending, t.address, amount);
  }
  for (const v of world.platform('erc4626').vaults) {
    const spec = VAULTS.find((s) => s.symbol === v.symbol)!;
    const amount = units(v.assetSymbol, spec.seedUsd);
    world.approveOnce(lpLending, v.asset, v.address);
    ctx.writer.call(lpLending, v.address, ABI.vault(), 'deposit', [amount, lpLending], { gas: 300_000n, label: `deposit ${v.symbol}` });
    portfolio.debit(lpLending, v.asset, amount);
    // The owner pays simulated yield in; approve once now.
    world.approveOnce(ctx.deployer, v.asset, v.address);
  }
  await mineNext(ctx, 60);
}

export async function seedLiquidity(world: World): Promise<void> {
  world.ctx.log('funding accounts and adding liquidity');
  await fund(world, [...plannedGrants(world), ...liquidityGrants(world)]);
  await addLiquidity(world);
}
