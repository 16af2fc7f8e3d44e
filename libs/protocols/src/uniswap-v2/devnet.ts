/**
 * DEVNET ONLY: how the local devnet (libs/devnet, through the port in ../devnet-port.ts) deploys
 * and seeds the Uniswap V2 family. Nothing in production runs it.
 * A V2-family platform is a factory + Router02 from the published Uniswap build; a fork such as
 * SushiSwap differs only by its own factory. Pairs are created at deployment and funded by the
 * liquidity provider.
 */
import { getCreate2Address, keccak256, solidityPacked } from 'ethers';
import { UNISWAP_V2_PAIR_INIT_CODE_HASH, loadUniswapV2Artifact } from '@tokensvc/contracts';
import { sortTokens, usdToUnits, v2TradeToPrice } from '../devnet-math';
import {
  DEVNET_NATIVE,
  DEVNET_NO_DEADLINE,
  type DevnetFacet,
  type DevnetPlatform,
  type DevnetPool,
  type DevnetPoolState,
  type DevnetWorld,
  devnetPlatformAddress,
  devnetToken,
  lazyInterface,
} from '../devnet-port';
import { MIN_TRADE_USD, estimateOut, orient, takeAmount, tradeUsd } from '../devnet-trading';

/** A pool by token symbols; 'TAIL1'/'TAIL2' resolve to the network's long-tail tokens. */
export interface V2PoolSpec {
  a: string;
  b: string;
  /** total value locked at seeding, USD */
  tvlUsd: number;
}

export interface V2PlatformSpec {
  slug: string;
  name: string;
  pools: readonly V2PoolSpec[];
}

export const V2_DEVNET_ABI = {
  factory: lazyInterface(() => loadUniswapV2Artifact('UniswapV2Factory').abi),
  pair: lazyInterface(() => loadUniswapV2Artifact('UniswapV2Pair').abi),
  router: lazyInterface(() => loadUniswapV2Artifact('UniswapV2Router02').abi),
};

export function v2PairAddress(factory: string, a: string, b: string): string {
  const [t0, t1] = sortTokens({ address: a }, { address: b });
  return getCreate2Address(
    factory,
    keccak256(solidityPacked(['address', 'address'], [t0.address, t1.address])),
    UNISWAP_V2_PAIR_INIT_CODE_HASH,
  );
}

/** USD that moves the pair's price by about 1 %, the most one simulated trade may use: selling 0.5 % of a reserve moves the price ~1 %; the pool holds 2× reserve0 in value. */
function maxTradeUsd(world: DevnetWorld, state: DevnetPoolState, step: number): number {
  const t0 = world.tokenAt(state.ref.pool.token0);
  return (Number(state.reserve0) / 10 ** t0.decimals) * world.price(t0.symbol, step) * 0.005;
}

/** A trader's swap on a V2-family pair, through its platform's Router02 (ETH in or out now and then). */
function queueSwap(
  world: DevnetWorld,
  preferredSlug: string | undefined,
  trader: string,
  states: readonly DevnetPoolState[],
  step: number,
): boolean {
  const { chain, rng, portfolio } = world;
  const v2 = states.filter((s) => s.ref.platform.family === 'uniswap-v2');
  // The original Uniswap gets most of the flow, the fork the rest.
  const preferred = v2.filter((s) => s.ref.platform.slug === preferredSlug);
  const state = rng.chance(0.7) && preferred.length > 0 ? rng.pick(preferred) : rng.pick(v2);
  const platform = state.ref.platform;
  const router = devnetPlatformAddress(platform, 'router');
  const [tokenIn, tokenOut] = orient(world, state.ref.pool);
  const weth = world.token('WETH');
  const usd = Math.min(tradeUsd(world), maxTradeUsd(world, state, step));
  const label = `${platform.slug} swap ${tokenIn.symbol}->${tokenOut.symbol}`;
  const abi = V2_DEVNET_ABI.router();

  if (tokenIn.address === weth.address && rng.chance(0.4)) {
    const ethUsd = world.price('WETH', step);
    const value = portfolio.debitUpTo(trader, DEVNET_NATIVE, usdToUnits(usd, ethUsd, 18), 0.3, usdToUnits(MIN_TRADE_USD, ethUsd, 18));
    if (value === 0n) return false;
    chain.call(trader, router, abi, 'swapExactETHForTokens', [0, [weth.address, tokenOut.address], trader, DEVNET_NO_DEADLINE], {
      value,
      gas: 250_000n,
      label,
    });
    portfolio.credit(trader, tokenOut.address, estimateOut(world, weth.address, tokenOut.address, value, step));
    return true;
  }
  const amountIn = takeAmount(world, trader, tokenIn, usd, step);
  if (amountIn === 0n) return false;
  world.approveOnce(trader, tokenIn.address, router);
  if (tokenOut.address === weth.address && rng.chance(0.3)) {
    chain.call(trader, router, abi, 'swapExactTokensForETH', [amountIn, 0, [tokenIn.address, weth.address], trader, DEVNET_NO_DEADLINE], {
      gas: 250_000n,
      label,
    });
    portfolio.credit(trader, DEVNET_NATIVE, estimateOut(world, tokenIn.address, weth.address, amountIn, step));
    return true;
  }
  chain.call(
    trader,
    router,
    abi,
    'swapExactTokensForTokens',
    [amountIn, 0, [tokenIn.address, tokenOut.address], trader, DEVNET_NO_DEADLINE],
    { gas: 250_000n, label },
  );
  portfolio.credit(trader, tokenOut.address, estimateOut(world, tokenIn.address, tokenOut.address, amountIn, step));
  return true;
}

/** Roles: factory, router (Router02). */
export const uniswapV2Devnet: DevnetFacet<'uniswap-v2', readonly V2PlatformSpec[]> = {
  family: 'uniswap-v2',
  deploy(chain, plan, { tokens }) {
    const { deployer } = chain;
    const weth = devnetToken(tokens, 'WETH').address;
    return plan.map((spec): DevnetPlatform<'uniswap-v2'> => {
      const factory = chain.deploy(deployer, loadUniswapV2Artifact('UniswapV2Factory'), [deployer], `${spec.slug} factory`, 3_500_000n);
      const router = chain.deploy(deployer, loadUniswapV2Artifact('UniswapV2Router02'), [factory, weth], `${spec.slug} router`, 5_000_000n);
      const pools: DevnetPool[] = spec.pools.map((p) => {
        const [t0, t1] = sortTokens(devnetToken(tokens, chain.resolve(p.a)), devnetToken(tokens, chain.resolve(p.b)));
        chain.call(deployer, factory, V2_DEVNET_ABI.factory(), 'createPair', [t0.address, t1.address], {
          gas: 3_000_000n,
          label: `${spec.slug} createPair ${t0.symbol}/${t1.symbol}`,
        });
        return {
          address: v2PairAddress(factory, t0.address, t1.address),
          pair: `${t0.symbol}/${t1.symbol}`,
          token0: t0.address,
          token1: t1.address,
          fee: 3000,
        };
      });
      return { slug: spec.slug, name: spec.name, family: 'uniswap-v2', addresses: { factory, router }, pools, vaults: [], markets: [] };
    });
  },
  liquidity: {
    // The first liquidity provider funds every V2-family pair at the step-0 prices.
    grants(world, plan) {
      const lp = world.accounts.liquidityProviders[0]!;
      return plan.flatMap((platform) =>
        platform.pools.flatMap((p) => [p.a, p.b].map((s) => ({ to: lp, symbol: world.chain.resolve(s), usd: p.tvlUsd / 2 }))),
      );
    },
    add(world, plan) {
      const { chain, portfolio } = world;
      const lp = world.accounts.liquidityProviders[0]!;
      const units = (symbol: string, usd: number): bigint => usdToUnits(usd, world.price(symbol, 0), world.token(symbol).decimals);
      for (const [i, platform] of world.platforms('uniswap-v2').entries()) {
        const spec = plan[i]!;
        const router = devnetPlatformAddress(platform, 'router');
        for (const p of spec.pools) {
          const a = world.token(chain.resolve(p.a));
          const b = world.token(chain.resolve(p.b));
          const [amountA, amountB] = [units(a.symbol, p.tvlUsd / 2), units(b.symbol, p.tvlUsd / 2)];
          world.approveOnce(lp, a.address, router);
          world.approveOnce(lp, b.address, router);
          chain.call(
            lp,
            router,
            V2_DEVNET_ABI.router(),
            'addLiquidity',
            [a.address, b.address, amountA, amountB, 0, 0, lp, DEVNET_NO_DEADLINE],
            { gas: 400_000n, label: `${spec.slug} addLiquidity ${a.symbol}/${b.symbol}` },
          );
          portfolio.debit(lp, a.address, amountA);
          portfolio.debit(lp, b.address, amountB);
        }
      }
    },
  },
  pools: {
    reads: (pool) => [{ to: pool.address, iface: V2_DEVNET_ABI.pair(), fn: 'getReserves' }],
    state: (ref, [r]) => ({ ref, reserve0: BigInt(r![0]), reserve1: BigInt(r![1]) }),
    tradeToPrice: (state, target) => ({
      current: Number(state.reserve1) / Number(state.reserve0),
      trade: v2TradeToPrice(state.reserve0!, state.reserve1!, target),
    }),
    arbSwap(world, state, { bot, tokenIn, tokenOut, amountIn }) {
      const { platform, pool } = state.ref;
      const router = devnetPlatformAddress(platform, 'router');
      world.approveOnce(bot, tokenIn.address, router);
      world.chain.call(
        bot,
        router,
        V2_DEVNET_ABI.router(),
        'swapExactTokensForTokens',
        [amountIn, 0, [tokenIn.address, tokenOut.address], bot, DEVNET_NO_DEADLINE],
        { gas: 250_000n, label: `arb ${platform.slug} ${pool.pair}` },
      );
    },
  },
  history: (world, plan) => ({
    actions: [{ slot: 0, weight: 30, run: (trader, states, step) => queueSwap(world, plan[0]?.slug, trader, states, step) }],
  }),
};
