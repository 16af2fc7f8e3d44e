/**
 * DEVNET ONLY: how the local devnet (libs/devnet, through the port in ../devnet-port.ts) deploys
 * and seeds Uniswap V4. Nothing in production runs it.
 * The PoolManager from @uniswap/v4-core's published build; liquidity and the simulated users'
 * swaps go through v4-core's own test routers (PoolModifyLiquidityTest, PoolSwapTest: devnet only,
 * the position manager of v4-periphery is not shipped on npm); the service swaps through Uniswap's
 * UniversalRouter (@uniswap/universal-router), deployed late over the devnet's V2 and V3 too.
 * Pools are hookless; `ETH` in a pool spec is the native coin (currency address(0)).
 */
import { AbiCoder, keccak256 } from 'ethers';
import {
  UNISWAP_V2_PAIR_INIT_CODE_HASH,
  UNISWAP_V3_POOL_INIT_CODE_HASH,
  loadUniswapV4Artifact,
  loadUniversalRouterArtifact,
} from '@tokensvc/contracts';
import { ZERO_ADDRESS } from '@tokensvc/domain';
import { MAX_SQRT_RATIO, MIN_SQRT_RATIO, Q96, getSqrtRatioAtTick } from '@tokensvc/routing';
import { encodeSqrtPriceX96, fullRangeTicks, rangeTicks, rawPrice, usdToUnits, v3TradeToPrice } from '../devnet-math';
import {
  DEVNET_NATIVE,
  type DevnetFacet,
  type DevnetPool,
  type DevnetPoolState,
  type DevnetToken,
  type DevnetWorld,
  devnetPlatformAddress,
  devnetToken,
  lazyInterface,
} from '../devnet-port';
import { estimateOut, tradeUsd } from '../devnet-trading';
import type { V3PositionSpec } from '../uniswap-v3/devnet';
import { type V4PoolKey, hooklessPoolKey, v4PoolId } from './pool-key';

export interface V4PoolSpec {
  /** a token symbol, or `ETH`: the native coin */
  a: string;
  b: string;
  fee: number;
  tickSpacing: number;
  tvlUsd: number;
  positions: readonly V3PositionSpec[];
}

export interface V4PlatformPlan {
  platform: { slug: string; name: string };
  pools: readonly V4PoolSpec[];
  /** the V2 and V3 platforms (slugs) the UniversalRouter is also given */
  universalRouter: { v2: string; v3: string };
}

export const V4_DEVNET_ABI = {
  poolManager: lazyInterface(() => loadUniswapV4Artifact('PoolManager').abi),
  modifyLiquidity: lazyInterface(() => loadUniswapV4Artifact('PoolModifyLiquidityTest').abi),
  swap: lazyInterface(() => loadUniswapV4Artifact('PoolSwapTest').abi),
  weth: lazyInterface(() => ['function withdraw(uint256 amount)']),
};

const NATIVE_SYMBOL = 'ETH';
/** PoolModifyLiquidityTest overloads modifyLiquidity (with settle/take flags): the plain one */
const MODIFY_LIQUIDITY = 'modifyLiquidity((address,address,uint24,int24,address),(int24,int24,int256,bytes32),bytes)';
/** v4-core's StateLibrary: the pools mapping's slot, and the liquidity word's offset in a pool's state */
const POOLS_SLOT = 6n;
const LIQUIDITY_OFFSET = 3n;

/** A currency of a pool spec: the native coin as address(0), priced and decimalled as WETH. */
function currency(tokens: readonly DevnetToken[], symbol: string): DevnetToken {
  if (symbol !== NATIVE_SYMBOL) return devnetToken(tokens, symbol);
  return { ...devnetToken(tokens, 'WETH'), symbol: NATIVE_SYMBOL, name: 'Ether', address: ZERO_ADDRESS };
}

/** The WETH symbol for the native coin's price (the devnet's price book knows WETH). */
const priceSymbol = (t: DevnetToken): string => (t.address === ZERO_ADDRESS ? 'WETH' : t.symbol);

function specKey(
  tokens: readonly DevnetToken[],
  resolve: (s: string) => string,
  spec: V4PoolSpec,
): { key: V4PoolKey; t0: DevnetToken; t1: DevnetToken } {
  const a = currency(tokens, spec.a === NATIVE_SYMBOL ? spec.a : resolve(spec.a));
  const b = currency(tokens, spec.b === NATIVE_SYMBOL ? spec.b : resolve(spec.b));
  const key = hooklessPoolKey(a.address, b.address, spec.fee, spec.tickSpacing);
  const [t0, t1] = key.currency0 === a.address ? [a, b] : [b, a];
  return { key, t0, t1 };
}

const keyOf = (pool: DevnetPool): V4PoolKey => hooklessPoolKey(pool.token0, pool.token1, pool.fee, pool.tickSpacing!);

/** Liquidity that `amount0` and `amount1` buy over [lower, upper) at `sqrtP` (the smaller of the two sides). */
function liquidityFor(sqrtP: bigint, lower: number, upper: number, amount0: bigint, amount1: bigint): bigint {
  const sa = getSqrtRatioAtTick(lower);
  const sb = getSqrtRatioAtTick(upper);
  const l0 = (amount0 * ((sqrtP * sb) / Q96)) / (sb - sqrtP);
  const l1 = (amount1 * Q96) / (sqrtP - sa);
  return l0 < l1 ? l0 : l1;
}

/** USD that moves a pool's price by about 1 % (as V3's facet): token1 needed for Δ√P = 0.5 %. */
function maxTradeUsd(world: DevnetWorld, state: DevnetPoolState, step: number): number {
  const t1 = world.tokenAt(state.ref.pool.token1);
  const s = Number(state.sqrtPriceX96) / 2 ** 96;
  return ((Number(state.liquidity) * s * 0.005) / 10 ** t1.decimals) * world.price(t1.symbol, step);
}

/** Queues a PoolSwapTest exact-input swap (native in: its value; the test router refunds what the price limit leaves). */
function queuePoolSwap(
  world: DevnetWorld,
  from: string,
  pool: DevnetPool,
  zeroForOne: boolean,
  amountIn: bigint,
  sqrtPriceLimitX96: bigint,
  label: string,
): void {
  const router = devnetPlatformAddress(world.platform('uniswap-v4'), 'poolSwapTest');
  const tokenIn = zeroForOne ? pool.token0 : pool.token1;
  if (tokenIn !== ZERO_ADDRESS) world.approveOnce(from, tokenIn, router);
  const params = { zeroForOne, amountSpecified: -amountIn, sqrtPriceLimitX96 };
  world.chain.call(from, router, V4_DEVNET_ABI.swap(), 'swap', [keyOf(pool), params, { takeClaims: false, settleUsingBurn: false }, '0x'], {
    gas: 600_000n,
    label,
    ...(tokenIn === ZERO_ADDRESS ? { value: amountIn } : {}),
  });
}

/** The portfolio's key of a pool currency: native ETH is not an address there. */
const holding = (token: string): string => (token === ZERO_ADDRESS ? DEVNET_NATIVE : token);

/** A trader's swap through one V4 pool (native ETH from and to its wallet). */
function queueSwap(world: DevnetWorld, trader: string, states: readonly DevnetPoolState[], step: number): boolean {
  const v4 = states.filter((s) => s.ref.platform.family === 'uniswap-v4');
  if (v4.length === 0) return false;
  const state = world.rng.pick(v4);
  const { pool } = state.ref;
  const zeroForOne = world.rng.chance(0.5);
  const tokenIn = world.tokenAt(zeroForOne ? pool.token0 : pool.token1);
  const tokenOut = world.tokenAt(zeroForOne ? pool.token1 : pool.token0);
  const usd = Math.min(tradeUsd(world), maxTradeUsd(world, state, step));
  const price = world.price(priceSymbol(tokenIn), step);
  const amountIn = world.portfolio.debitUpTo(
    trader,
    holding(tokenIn.address),
    usdToUnits(usd, price, tokenIn.decimals),
    0.5,
    usdToUnits(5, price, tokenIn.decimals),
  );
  if (amountIn === 0n) return false;
  queuePoolSwap(
    world,
    trader,
    pool,
    zeroForOne,
    amountIn,
    zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n,
    `v4 swap ${tokenIn.symbol}->${tokenOut.symbol} ${pool.fee}`,
  );
  world.portfolio.credit(trader, holding(tokenOut.address), estimateOut(world, tokenIn.address, tokenOut.address, amountIn, step));
  return true;
}

/**
 * Roles: poolManager, universalRouter (the service's swaps), and the devnet's own test routers
 * poolModifyLiquidityTest and poolSwapTest (seeding only).
 */
export const uniswapV4Devnet: DevnetFacet<'uniswap-v4', V4PlatformPlan> = {
  family: 'uniswap-v4',
  deploy(chain, plan, { tokens, priceOf }) {
    const { deployer } = chain;
    const pm = loadUniswapV4Artifact('PoolManager');
    const poolManager = chain.deploy(deployer, pm, [deployer], 'PoolManager', 7_000_000n);
    const poolModifyLiquidityTest = chain.deploy(
      deployer,
      loadUniswapV4Artifact('PoolModifyLiquidityTest'),
      [poolManager],
      'PoolModifyLiquidityTest',
      4_000_000n,
    );
    const poolSwapTest = chain.deploy(deployer, loadUniswapV4Artifact('PoolSwapTest'), [poolManager], 'PoolSwapTest', 4_000_000n);
    const pools: DevnetPool[] = plan.pools.map((spec) => {
      const { key, t0, t1 } = specKey(tokens, chain.resolve, spec);
      const label = `${t0.symbol}/${t1.symbol} ${spec.fee}`;
      const sqrtPriceX96 = encodeSqrtPriceX96(rawPrice(priceOf(priceSymbol(t0)), t0.decimals, priceOf(priceSymbol(t1)), t1.decimals));
      chain.call(deployer, poolManager, V4_DEVNET_ABI.poolManager(), 'initialize', [key, sqrtPriceX96], {
        gas: 300_000n,
        label: `v4 initialize ${label}`,
      });
      return {
        address: v4PoolId(key),
        pair: `${t0.symbol}/${t1.symbol}`,
        token0: key.currency0,
        token1: key.currency1,
        fee: spec.fee,
        tickSpacing: spec.tickSpacing,
      };
    });
    return [
      {
        slug: plan.platform.slug,
        name: plan.platform.name,
        family: 'uniswap-v4',
        addresses: { poolManager, poolModifyLiquidityTest, poolSwapTest },
        pools,
        vaults: [],
        markets: [],
      },
    ];
  },
  /** The UniversalRouter over this PoolManager and the devnet's V2 and V3 (no Permit2, no V4 position manager, no Across spoke: never used through it). */
  deployLate(chain, plan, { tokens }, platforms) {
    const v2 = platforms.find((p) => p.slug === plan.universalRouter.v2);
    const v3 = platforms.find((p) => p.slug === plan.universalRouter.v3);
    const v4 = platforms.find((p) => p.slug === plan.platform.slug);
    if (!v2 || !v3 || !v4)
      throw new Error(
        `the UniversalRouter needs the ${plan.universalRouter.v2}, ${plan.universalRouter.v3} and ${plan.platform.slug} platforms`,
      );
    const params = {
      permit2: ZERO_ADDRESS,
      weth9: devnetToken(tokens, 'WETH').address,
      v2Factory: devnetPlatformAddress(v2, 'factory'),
      v3Factory: devnetPlatformAddress(v3, 'factory'),
      pairInitCodeHash: UNISWAP_V2_PAIR_INIT_CODE_HASH,
      poolInitCodeHash: UNISWAP_V3_POOL_INIT_CODE_HASH,
      v4PoolManager: devnetPlatformAddress(v4, 'poolManager'),
      v3NFTPositionManager: devnetPlatformAddress(v3, 'positionManager'),
      v4PositionManager: ZERO_ADDRESS,
      spokePool: ZERO_ADDRESS,
    };
    return {
      [v4.slug]: { universalRouter: chain.deploy(chain.deployer, loadUniversalRouterArtifact(), [params], 'UniversalRouter', 8_000_000n) },
    };
  },
  liquidity: {
    // The third liquidity provider adds every V4 position at the step-0 prices; native ETH comes from its WETH.
    grants(world, plan) {
      const lp = world.accounts.liquidityProviders[2]!;
      const grants = plan.pools.flatMap((p) =>
        [p.a, p.b].map((s) => ({ to: lp, symbol: s === NATIVE_SYMBOL ? 'WETH' : world.chain.resolve(s), usd: p.tvlUsd / 2 })),
      );
      // The arbitrage bots trade the native pools from native ETH too.
      const native = plan.pools.some((p) => p.a === NATIVE_SYMBOL || p.b === NATIVE_SYMBOL);
      return native ? [...grants, ...world.accounts.arbitrageurs.map((to) => ({ to, symbol: 'WETH', usd: 3_000_000 }))] : grants;
    },
    async add(world, plan) {
      const { chain, portfolio } = world;
      const lp = world.accounts.liquidityProviders[2]!;
      const platform = world.platform('uniswap-v4');
      const router = devnetPlatformAddress(platform, 'poolModifyLiquidityTest');
      const weth = world.token('WETH');
      const unwrap = (who: string, amount: bigint): void => {
        chain.call(who, weth.address, V4_DEVNET_ABI.weth(), 'withdraw', [amount], { gas: 100_000n, label: 'unwrap WETH' });
        portfolio.debit(who, weth.address, amount);
      };
      for (const bot of world.accounts.arbitrageurs) {
        const amount = usdToUnits(3_000_000, world.price('WETH', 0), 18);
        unwrap(bot, amount);
        // The arbitrage (libs/devnet) debits a pool's native side under its address, address(0).
        portfolio.credit(bot, ZERO_ADDRESS, amount);
      }
      // The native side of the positions, unwrapped from the LP's WETH grant in a block of its own
      // (a transaction's value must be in the sender's balance when it is submitted).
      const nativeNeeded = plan.pools
        .filter((p) => p.a === NATIVE_SYMBOL || p.b === NATIVE_SYMBOL)
        .reduce((sum, p) => sum + usdToUnits(p.tvlUsd / 2, world.price('WETH', 0), 18), 0n);
      if (nativeNeeded > 0n) unwrap(lp, nativeNeeded);
      await chain.mine(12);
      for (const spec of plan.pools) {
        const { key, t0, t1 } = specKey(world.tokens, chain.resolve, spec);
        const price = rawPrice(world.price(priceSymbol(t0), 0), t0.decimals, world.price(priceSymbol(t1), 0), t1.decimals);
        const sqrtP = encodeSqrtPriceX96(price);
        for (const t of [t0, t1]) if (t.address !== ZERO_ADDRESS) world.approveOnce(lp, t.address, router);
        for (const pos of spec.positions) {
          const [tickLower, tickUpper] =
            pos.width === undefined ? fullRangeTicks(spec.tickSpacing) : rangeTicks(price, pos.width, spec.tickSpacing);
          const amount0 = usdToUnits((spec.tvlUsd * pos.share) / 2, world.price(priceSymbol(t0), 0), t0.decimals);
          const amount1 = usdToUnits((spec.tvlUsd * pos.share) / 2, world.price(priceSymbol(t1), 0), t1.decimals);
          const liquidityDelta = liquidityFor(sqrtP, tickLower, tickUpper, amount0, amount1);
          // The test router takes what the position needs (rounded up) and refunds the rest of the ETH sent.
          const value = t0.address === ZERO_ADDRESS ? amount0 + amount0 / 200n : 0n;
          const params = {
            tickLower,
            tickUpper,
            liquidityDelta,
            salt: keccak256(AbiCoder.defaultAbiCoder().encode(['int24', 'int24'], [tickLower, tickUpper])),
          };
          chain.call(lp, router, V4_DEVNET_ABI.modifyLiquidity(), MODIFY_LIQUIDITY, [key, params, '0x'], {
            gas: 800_000n,
            label: `v4 modifyLiquidity ${t0.symbol}/${t1.symbol} ${spec.fee}`,
            value,
          });
          if (t0.address !== ZERO_ADDRESS) portfolio.debit(lp, t0.address, amount0);
          portfolio.debit(lp, t1.address, amount1);
        }
      }
    },
  },
  pools: {
    // The pool's slot0 and liquidity words in the PoolManager's storage (v4-core's StateLibrary), through extsload.
    reads: (pool, platform) => {
      const stateSlot = BigInt(keccak256(AbiCoder.defaultAbiCoder().encode(['bytes32', 'uint256'], [pool.address, POOLS_SLOT])));
      const pm = V4_DEVNET_ABI.poolManager();
      return [0n, LIQUIDITY_OFFSET].map((offset) => ({
        to: devnetPlatformAddress(platform, 'poolManager'),
        iface: pm,
        fn: 'extsload(bytes32)',
        args: [`0x${(stateSlot + offset).toString(16).padStart(64, '0')}`],
      }));
    },
    state: (ref, [slot0, liquidity]) => {
      const mask = (bits: bigint): bigint => (1n << bits) - 1n;
      return { ref, sqrtPriceX96: BigInt(slot0![0]) & mask(160n), liquidity: BigInt(liquidity![0]) & mask(128n) };
    },
    tradeToPrice(state, target) {
      const s = Number(state.sqrtPriceX96) / 2 ** 96;
      const trade = v3TradeToPrice(state.sqrtPriceX96!, state.liquidity!, target, state.ref.pool.fee);
      // Like V3: overshoot the amount and let the price limit stop the swap.
      return { current: s * s, trade: { ...trade, amountIn: (trade.amountIn * 12n) / 10n } };
    },
    arbSwap(world, state, { bot, tokenIn, amountIn, target }) {
      const { pool } = state.ref;
      queuePoolSwap(
        world,
        bot,
        pool,
        tokenIn.address === pool.token0,
        amountIn,
        encodeSqrtPriceX96(target),
        `arb v4 ${pool.pair} ${pool.fee}`,
      );
    },
  },
  history: (world) => ({
    actions: [{ slot: 7, weight: 10, run: (trader, states, step) => queueSwap(world, trader, states, step) }],
  }),
};
