/**
 * DEVNET ONLY: how the local devnet (libs/devnet, through the port in ../devnet-port.ts) deploys
 * and seeds Uniswap V3. Nothing in production runs it.
 * Core + periphery from the published builds. The position manager gets no token descriptor
 * (tokenURI reverts; nothing here renders NFTs). Pools are created and initialised at the step-0
 * prices, so the liquidity provider can mint its positions in the next block.
 */
import { AbiCoder, getCreate2Address, keccak256, solidityPacked } from 'ethers';
import { UNISWAP_V3_POOL_INIT_CODE_HASH, loadSwapRouter02Artifact, loadUniswapV3Artifact } from '@tokensvc/contracts';
import { ZERO_ADDRESS } from '@tokensvc/domain';
import {
  encodeSqrtPriceX96,
  fullRangeTicks,
  rangeTicks,
  rawPrice,
  sortTokens,
  tickSpacingOf,
  usdToUnits,
  v3TradeToPrice,
} from '../devnet-math';
import {
  DEVNET_NO_DEADLINE,
  type DevnetFacet,
  type DevnetPool,
  type DevnetPoolState,
  type DevnetWorld,
  devnetPlatformAddress,
  devnetToken,
  lazyInterface,
} from '../devnet-port';
import { estimateOut, orient, takeAmount, tradeUsd } from '../devnet-trading';

export interface V3PositionSpec {
  /** share of the pool's TVL */
  share: number;
  /** ±range around the price; undefined = full range */
  width?: number;
}

export interface V3PoolSpec {
  a: string;
  b: string;
  fee: number;
  tvlUsd: number;
  positions: readonly V3PositionSpec[];
}

export interface V3PlatformPlan {
  platform: { slug: string; name: string };
  pools: readonly V3PoolSpec[];
  /** the V2 platform (slug) whose factory SwapRouter02 also routes through */
  swapRouter02V2: string;
}

export const V3_DEVNET_ABI = {
  factory: lazyInterface(() => loadUniswapV3Artifact('UniswapV3Factory').abi),
  pool: lazyInterface(() => loadUniswapV3Artifact('UniswapV3Pool').abi),
  positionManager: lazyInterface(() => loadUniswapV3Artifact('NonfungiblePositionManager').abi),
  swapRouter: lazyInterface(() => loadUniswapV3Artifact('SwapRouter').abi),
};

export function v3PoolAddress(factory: string, a: string, b: string, fee: number): string {
  const [t0, t1] = sortTokens({ address: a }, { address: b });
  const salt = keccak256(AbiCoder.defaultAbiCoder().encode(['address', 'address', 'uint24'], [t0.address, t1.address, fee]));
  return getCreate2Address(factory, salt, UNISWAP_V3_POOL_INIT_CODE_HASH);
}

/** USD that moves the pool's price by about 1 %, the most one simulated trade may use: token1 needed for Δ√P = 0.5 % is L·√P·0.005 (active liquidity only). */
function maxTradeUsd(world: DevnetWorld, state: DevnetPoolState, step: number): number {
  const t1 = world.tokenAt(state.ref.pool.token1);
  const s = Number(state.sqrtPriceX96) / 2 ** 96;
  return ((Number(state.liquidity) * s * 0.005) / 10 ** t1.decimals) * world.price(t1.symbol, step);
}

/** A trader's swap through the SwapRouter: one pool, or two through WETH as an aggregator would. */
function queueSwap(world: DevnetWorld, trader: string, states: readonly DevnetPoolState[], step: number): boolean {
  const { chain, rng, portfolio } = world;
  const v3 = states.filter((s) => s.ref.platform.family === 'uniswap-v3');
  const platform = world.platform('uniswap-v3');
  const router = devnetPlatformAddress(platform, 'router');
  const weth = world.token('WETH').address;
  const withWeth = v3.filter((s) => s.ref.pool.token0 === weth || s.ref.pool.token1 === weth);
  const abi = V3_DEVNET_ABI.swapRouter();

  // Some trades route through WETH across two pools, like an aggregator would.
  if (rng.chance(0.2) && withWeth.length >= 2) {
    const first = rng.pick(withWeth);
    const second = rng.pick(withWeth.filter((s) => s !== first));
    const other = (s: DevnetPoolState): string => (s.ref.pool.token0 === weth ? s.ref.pool.token1 : s.ref.pool.token0);
    const tokenIn = world.tokenAt(other(first));
    const tokenOut = world.tokenAt(other(second));
    if (tokenIn.address === tokenOut.address) return false;
    const usd = Math.min(tradeUsd(world), maxTradeUsd(world, first, step), maxTradeUsd(world, second, step));
    const amountIn = takeAmount(world, trader, tokenIn, usd, step);
    if (amountIn === 0n) return false;
    world.approveOnce(trader, tokenIn.address, router);
    const path = solidityPacked(
      ['address', 'uint24', 'address', 'uint24', 'address'],
      [tokenIn.address, first.ref.pool.fee, weth, second.ref.pool.fee, tokenOut.address],
    );
    chain.call(
      trader,
      router,
      abi,
      'exactInput',
      [{ path, recipient: trader, deadline: DEVNET_NO_DEADLINE, amountIn, amountOutMinimum: 0 }],
      { gas: 600_000n, label: `v3 swap ${tokenIn.symbol}->WETH->${tokenOut.symbol}` },
    );
    portfolio.credit(trader, tokenOut.address, estimateOut(world, tokenIn.address, tokenOut.address, amountIn, step, 0.85));
    return true;
  }

  const state = rng.pick(v3);
  const [tokenIn, tokenOut] = orient(world, state.ref.pool);
  const usd = Math.min(tradeUsd(world), maxTradeUsd(world, state, step));
  const amountIn = takeAmount(world, trader, tokenIn, usd, step);
  if (amountIn === 0n) return false;
  world.approveOnce(trader, tokenIn.address, router);
  const params = {
    tokenIn: tokenIn.address,
    tokenOut: tokenOut.address,
    fee: state.ref.pool.fee,
    recipient: trader,
    deadline: DEVNET_NO_DEADLINE,
    amountIn,
    amountOutMinimum: 0,
    sqrtPriceLimitX96: 0,
  };
  chain.call(trader, router, abi, 'exactInputSingle', [params], {
    gas: 500_000n,
    label: `v3 swap ${tokenIn.symbol}->${tokenOut.symbol} ${state.ref.pool.fee}`,
  });
  portfolio.credit(trader, tokenOut.address, estimateOut(world, tokenIn.address, tokenOut.address, amountIn, step));
  return true;
}

/**
 * Roles: factory, positionManager, router (SwapRouter), quoter (QuoterV2), and swapRouter02
 * (SwapRouter02, over the V2 factory too; the real networks' registry names only this one).
 */
export const uniswapV3Devnet: DevnetFacet<'uniswap-v3', V3PlatformPlan> = {
  family: 'uniswap-v3',
  deploy(chain, plan, { tokens, priceOf }) {
    const { deployer } = chain;
    const weth = devnetToken(tokens, 'WETH').address;
    const factory = chain.deploy(deployer, loadUniswapV3Artifact('UniswapV3Factory'), [], 'UniswapV3Factory', 7_000_000n);
    // The 0.01 % tier exists on mainnet but is not enabled in a fresh factory.
    chain.call(deployer, factory, V3_DEVNET_ABI.factory(), 'enableFeeAmount', [100, 1], { gas: 200_000n });
    const positionManager = chain.deploy(
      deployer,
      loadUniswapV3Artifact('NonfungiblePositionManager'),
      [factory, weth, ZERO_ADDRESS],
      'NonfungiblePositionManager',
      7_000_000n,
    );
    const router = chain.deploy(deployer, loadUniswapV3Artifact('SwapRouter'), [factory, weth], 'SwapRouter', 5_000_000n);
    const quoter = chain.deploy(deployer, loadUniswapV3Artifact('QuoterV2'), [factory, weth], 'QuoterV2', 4_000_000n);
    const pools: DevnetPool[] = plan.pools.map((spec) => {
      const [t0, t1] = sortTokens(devnetToken(tokens, chain.resolve(spec.a)), devnetToken(tokens, chain.resolve(spec.b)));
      const address = v3PoolAddress(factory, t0.address, t1.address, spec.fee);
      const label = `${t0.symbol}/${t1.symbol} ${spec.fee}`;
      chain.call(deployer, factory, V3_DEVNET_ABI.factory(), 'createPool', [t0.address, t1.address, spec.fee], {
        gas: 6_000_000n,
        label: `createPool ${label}`,
      });
      const sqrtPriceX96 = encodeSqrtPriceX96(rawPrice(priceOf(t0.symbol), t0.decimals, priceOf(t1.symbol), t1.decimals));
      chain.call(deployer, address, V3_DEVNET_ABI.pool(), 'initialize', [sqrtPriceX96], { gas: 200_000n, label: `initialize ${label}` });
      return {
        address,
        pair: `${t0.symbol}/${t1.symbol}`,
        token0: t0.address,
        token1: t1.address,
        fee: spec.fee,
        tickSpacing: tickSpacingOf(spec.fee),
      };
    });
    return [
      {
        slug: plan.platform.slug,
        name: plan.platform.name,
        family: 'uniswap-v3',
        addresses: { factory, positionManager, router, quoter },
        pools,
        vaults: [],
        markets: [],
      },
    ];
  },
  /**
   * SwapRouter02 (@uniswap/swap-router-contracts, the published build) over the V2 factory of
   * `plan.swapRouter02V2` and this platform's factory and position manager: the V3 router the real
   * networks' registry names. The quote keeps using the original SwapRouter (`router`) on the
   * devnet (the rule: v3RouterOf).
   */
  deployLate(chain, plan, { tokens }, platforms) {
    const v2 = platforms.find((p) => p.slug === plan.swapRouter02V2);
    const v3 = platforms.find((p) => p.slug === plan.platform.slug);
    if (!v2 || !v3) throw new Error(`SwapRouter02 needs the ${plan.swapRouter02V2} and ${plan.platform.slug} platforms`);
    const args = [
      devnetPlatformAddress(v2, 'factory'),
      devnetPlatformAddress(v3, 'factory'),
      devnetPlatformAddress(v3, 'positionManager'),
      devnetToken(tokens, 'WETH').address,
    ];
    return { [v3.slug]: { swapRouter02: chain.deploy(chain.deployer, loadSwapRouter02Artifact(), args, 'SwapRouter02', 7_000_000n) } };
  },
  liquidity: {
    // The second liquidity provider mints every V3 position at the step-0 prices.
    grants(world, plan) {
      const lp = world.accounts.liquidityProviders[1]!;
      return plan.pools.flatMap((p) => [p.a, p.b].map((s) => ({ to: lp, symbol: world.chain.resolve(s), usd: p.tvlUsd / 2 })));
    },
    add(world, plan) {
      const { chain, portfolio } = world;
      const lp = world.accounts.liquidityProviders[1]!;
      const units = (symbol: string, usd: number): bigint => usdToUnits(usd, world.price(symbol, 0), world.token(symbol).decimals);
      const npm = devnetPlatformAddress(world.platform('uniswap-v3'), 'positionManager');
      for (const spec of plan.pools) {
        const [t0, t1] = sortTokens(world.token(chain.resolve(spec.a)), world.token(chain.resolve(spec.b)));
        const spacing = tickSpacingOf(spec.fee);
        const price = rawPrice(world.price(t0.symbol, 0), t0.decimals, world.price(t1.symbol, 0), t1.decimals);
        world.approveOnce(lp, t0.address, npm);
        world.approveOnce(lp, t1.address, npm);
        for (const pos of spec.positions) {
          const [tickLower, tickUpper] = pos.width === undefined ? fullRangeTicks(spacing) : rangeTicks(price, pos.width, spacing);
          const amount0 = units(t0.symbol, (spec.tvlUsd * pos.share) / 2);
          const amount1 = units(t1.symbol, (spec.tvlUsd * pos.share) / 2);
          const params = {
            token0: t0.address,
            token1: t1.address,
            fee: spec.fee,
            tickLower,
            tickUpper,
            amount0Desired: amount0,
            amount1Desired: amount1,
            amount0Min: 0,
            amount1Min: 0,
            recipient: lp,
            deadline: DEVNET_NO_DEADLINE,
          };
          chain.call(lp, npm, V3_DEVNET_ABI.positionManager(), 'mint', [params], {
            gas: 800_000n,
            label: `v3 mint ${t0.symbol}/${t1.symbol} ${spec.fee}`,
          });
          // The manager may use less of one side; treating both as spent keeps the model conservative.
          portfolio.debit(lp, t0.address, amount0);
          portfolio.debit(lp, t1.address, amount1);
        }
      }
    },
  },
  pools: {
    reads: (pool) => [
      { to: pool.address, iface: V3_DEVNET_ABI.pool(), fn: 'slot0' },
      { to: pool.address, iface: V3_DEVNET_ABI.pool(), fn: 'liquidity' },
    ],
    state: (ref, [slot0, liquidity]) => ({ ref, sqrtPriceX96: BigInt(slot0![0]), liquidity: BigInt(liquidity![0]) }),
    tradeToPrice(state, target) {
      const s = Number(state.sqrtPriceX96) / 2 ** 96;
      const trade = v3TradeToPrice(state.sqrtPriceX96!, state.liquidity!, target, state.ref.pool.fee);
      // V3 pays only what the swap used, so overshoot the amount and let the price limit stop it.
      return { current: s * s, trade: { ...trade, amountIn: (trade.amountIn * 12n) / 10n } };
    },
    arbSwap(world, state, { bot, tokenIn, tokenOut, amountIn, target }) {
      const { platform, pool } = state.ref;
      const router = devnetPlatformAddress(platform, 'router');
      world.approveOnce(bot, tokenIn.address, router);
      const params = {
        tokenIn: tokenIn.address,
        tokenOut: tokenOut.address,
        fee: pool.fee,
        recipient: bot,
        deadline: DEVNET_NO_DEADLINE,
        amountIn,
        amountOutMinimum: 0,
        sqrtPriceLimitX96: encodeSqrtPriceX96(target),
      };
      world.chain.call(bot, router, V3_DEVNET_ABI.swapRouter(), 'exactInputSingle', [params], {
        gas: 600_000n,
        label: `arb v3 ${pool.pair} ${pool.fee}`,
      });
    },
  },
  history: (world) => ({
    actions: [{ slot: 1, weight: 30, run: (trader, states, step) => queueSwap(world, trader, states, step) }],
  }),
};
