/**
 * Funding and initial liquidity, before any history: balances for every simulated account,
 * then the liquidity providers fill each family's pools, reserves and vaults at the step-0 prices
 * (each family's devnet facet in libs/protocols says how).
 */
import { parseEther } from 'ethers';
import { TEST_ACCOUNTS } from '../accounts';
import { ABI } from '../chain/abis';
import { toHex } from '../chain/rpc';
import { type PlannedDevnetFacet, plannedDevnetFacets } from '@tokensvc/protocols/devnet';
import { DEVNET_PLANS } from '../config';
import { mineNext } from '../deploy/context';
import { usdToUnits } from '../math/uniswap';
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

/** Liquidity each LP adds, in USD per token: what each family's devnet facet asks for. */
function liquidityGrants(world: World, facets: readonly PlannedDevnetFacet[]): Grant[] {
  const [lpV2, lpV3, lpLending] = world.actors.liquidityProviders;
  if (!lpV2 || !lpV3 || !lpLending) throw new Error('need three liquidity providers');
  return facets.flatMap((f) => f.liquidityGrants(world));
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
  for (const a of [
    ...world.actors.traders,
    ...world.actors.arbitrageurs,
    ...world.actors.liquidityProviders,
    world.actors.relayer,
    world.actors.filler,
  ])
    holders.add(a.address);
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
    ctx.writer.call(ctx.deployer, t.address, ABI.erc20(), 'mintMany', [entries.map((e) => e[0]), entries.map((e) => e[1])], {
      gas: 8_000_000n,
      label: `mint ${symbol}`,
    });
    for (const [to, amount] of entries) portfolio.credit(to, t.address, amount);
  }
  await mineNext(ctx, 60);
}

async function addLiquidity(world: World, facets: readonly PlannedDevnetFacet[]): Promise<void> {
  for (const f of facets) await f.addLiquidity(world);
  await mineNext(world.ctx, 60);
}

export async function seedLiquidity(world: World): Promise<void> {
  const facets = plannedDevnetFacets(DEVNET_PLANS);
  world.ctx.log('funding accounts and adding liquidity');
  await fund(world, [...plannedGrants(world), ...liquidityGrants(world, facets)]);
  await addLiquidity(world, facets);
}
