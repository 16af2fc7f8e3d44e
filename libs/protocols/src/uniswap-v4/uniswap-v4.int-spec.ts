/**
 * Uniswap V4 swaps on anvil through our Router → Executor → Uniswap's UniversalRouter → the
 * PoolManager (the published builds), for ERC-20 → ERC-20, native ETH → ERC-20 and ERC-20 →
 * native ETH: the recipient gets exactly the concentrated-liquidity maths' quote (libs/routing,
 * the pool's fee in pips) of the order's net input, and the PoolManager's Swap event carries the
 * swapper's deltas the indexer reads (negative: paid in).
 */
import { AbiCoder, Contract, ContractFactory, type InterfaceAbi, MaxUint256, keccak256, parseEther, parseUnits } from 'ethers';
import {
  NATIVE_TOKEN,
  type RouterOrder,
  encodeExecute,
  loadUniswapV4Artifact,
  loadUniversalRouterArtifact,
  unwrapAllCall,
  wrapAllCall,
} from '@tokensvc/contracts';
import { ZERO_ADDRESS } from '@tokensvc/domain';
import { type V3Pool, type V3Tick, getSqrtRatioAtTick, quoteV3ExactIn } from '@tokensvc/routing';
import { FAR_DEADLINE, type RouterWorld, eachTestOnRouterWorld, send } from '@tokensvc/contracts/testing';
import type { CallEnv } from '../protocol-module';
import { UNISWAP_V4_EVENTS } from './events';
import { V4_SWAP_GAS, uniswapV4 } from './index';
import { type V4PoolKey, hooklessPoolKey, v4PoolId } from './pool-key';

interface TestPool {
  key: V4PoolKey;
  id: string;
  positions: Array<{ tickLower: number; tickUpper: number; liquidity: bigint }>;
}

describe('Uniswap V4 through the Router, its Executor and the UniversalRouter on anvil', () => {
  let w: RouterWorld;
  let A: string, B: string, ROUTER: string;
  let poolManager: Contract;
  let universalRouter: string;
  let erc20Pool: TestPool, nativePool: TestPool;

  const deploy = async (artifact: { abi: InterfaceAbi; bytecode: string }, args: unknown[]): Promise<Contract> => {
    const c = await new ContractFactory(artifact.abi, artifact.bytecode, w.deployer).deploy(...args);
    await c.waitForDeployment();
    return c as Contract;
  };

  /** A hookless pool initialised at `tick` with a full-range and a narrow position (so big swaps cross ticks). */
  const createPool = async (
    lp: Contract,
    a: string,
    b: string,
    fee: number,
    tickSpacing: number,
    tick: number,
    liquidity: bigint,
    value: bigint,
  ): Promise<TestPool> => {
    const key = hooklessPoolKey(a, b, fee, tickSpacing);
    await (await poolManager.getFunction('initialize')(key, getSqrtRatioAtTick(tick))).wait();
    const full = Math.floor(887272 / tickSpacing) * tickSpacing;
    const positions = [
      { tickLower: -full, tickUpper: full, liquidity },
      { tickLower: tick - 10 * tickSpacing, tickUpper: tick + 10 * tickSpacing, liquidity: liquidity * 3n },
    ];
    for (const p of positions) {
      const params = {
        tickLower: p.tickLower,
        tickUpper: p.tickUpper,
        liquidityDelta: p.liquidity,
        salt: keccak256(AbiCoder.defaultAbiCoder().encode(['int24'], [p.tickLower])),
      };
      await (
        await lp.getFunction('modifyLiquidity((address,address,uint24,int24,address),(int24,int24,int256,bytes32),bytes)')(
          key,
          params,
          '0x',
          { value },
        )
      ).wait();
    }
    return { key, id: v4PoolId(key), positions };
  };

  /** The pool as the routing library sees it: price, tick and liquidity read from the PoolManager's storage, ticks from the positions. */
  const routingPool = async (p: TestPool): Promise<V3Pool> => {
    const stateSlot = BigInt(keccak256(AbiCoder.defaultAbiCoder().encode(['bytes32', 'uint256'], [p.id, 6n])));
    const read = async (slot: bigint): Promise<bigint> =>
      BigInt((await poolManager.getFunction('extsload(bytes32)')(`0x${slot.toString(16).padStart(64, '0')}`)) as string);
    const slot0 = await read(stateSlot);
    const net = new Map<number, bigint>();
    for (const pos of p.positions) {
      net.set(pos.tickLower, (net.get(pos.tickLower) ?? 0n) + pos.liquidity);
      net.set(pos.tickUpper, (net.get(pos.tickUpper) ?? 0n) - pos.liquidity);
    }
    const ticks: V3Tick[] = [...net].map(([index, liquidityNet]) => ({ index, liquidityNet })).sort((x, y) => x.index - y.index);
    return {
      family: 'uniswap-v4',
      shape: 'concentrated',
      address: p.id,
      token0: p.key.currency0.toLowerCase(),
      token1: p.key.currency1.toLowerCase(),
      fee: p.key.fee,
      tickSpacing: p.key.tickSpacing,
      sqrtPriceX96: slot0 & ((1n << 160n) - 1n),
      tick: Number(BigInt.asIntN(24, slot0 >> 160n)),
      liquidity: (await read(stateSlot + 3n)) & ((1n << 128n) - 1n),
      ticks,
    };
  };

  const env = (): CallEnv => ({
    network: 'ethereum',
    executor: w.executor,
    recipient: w.recipient,
    deadline: FAR_DEADLINE,
    platformAddress: (_slug, role) => {
      if (role !== 'universalRouter') throw new Error(`no ${role}`);
      return universalRouter;
    },
    platformAddresses: () => ({ universalRouter }),
    refuse: (message) => {
      throw new Error(message);
    },
  });

  const order = (o: Pick<RouterOrder, 'inputToken' | 'inputAmount' | 'outputToken' | 'minOutputAmount'>): RouterOrder => ({
    recipient: w.recipient,
    partner: w.partner,
    feeBps: 30,
    deadline: FAR_DEADLINE,
    ...o,
  });
  const net = (x: bigint): bigint => x - (x * 30n) / 10_000n;
  const calls = (p: TestPool, tokenIn: string, tokenOut: string) =>
    uniswapV4.dex.swapCalls(
      {
        pool: p.id,
        platform: 'uniswap-v4',
        fee: p.key.fee,
        tickSpacing: p.key.tickSpacing,
        tokenIn: tokenIn.toLowerCase(),
        tokenOut: tokenOut.toLowerCase(),
        bps: 10_000,
      },
      env(),
    );

  /** The PoolManager's Swap event of a receipt: the swapper's deltas. */
  const swapEvent = (
    logs: ReadonlyArray<{ address: string; topics: readonly string[]; data: string }>,
  ): { amount0: bigint; amount1: bigint } => {
    const log = logs.find((l) => l.topics[0] === UNISWAP_V4_EVENTS.v4Swap);
    if (!log) throw new Error('no Swap event');
    const [amount0, amount1] = AbiCoder.defaultAbiCoder().decode(['int128', 'int128'], log.data) as unknown as [bigint, bigint];
    return { amount0, amount1 };
  };

  eachTestOnRouterWorld(async (world) => {
    w = world;
    [A, B, ROUTER] = await Promise.all([w.tokenA.getAddress(), w.tokenB.getAddress(), w.router.getAddress()]);
    poolManager = await deploy(loadUniswapV4Artifact('PoolManager'), [w.deployer.address]);
    const pm = await poolManager.getAddress();
    const lp = await deploy(loadUniswapV4Artifact('PoolModifyLiquidityTest'), [pm]);
    // Only the V4 pool manager and WETH: the UniversalRouter's constructor takes address(0) for what it will not be asked to use.
    const ur = await deploy(loadUniversalRouterArtifact(), [
      {
        permit2: ZERO_ADDRESS,
        weth9: await w.weth.getAddress(),
        v2Factory: ZERO_ADDRESS,
        v3Factory: ZERO_ADDRESS,
        pairInitCodeHash: `0x${'00'.repeat(32)}`,
        poolInitCodeHash: `0x${'00'.repeat(32)}`,
        v4PoolManager: pm,
        v3NFTPositionManager: ZERO_ADDRESS,
        v4PositionManager: ZERO_ADDRESS,
        spokePool: ZERO_ADDRESS,
      },
    ]);
    universalRouter = await ur.getAddress();
    const lpAddress = await lp.getAddress();
    for (const token of [w.tokenA, w.tokenB]) await (await token.getFunction('approve')(lpAddress, MaxUint256)).wait();
    // A = 2 B (18 and 6 decimals: raw price 2e-12 either way round), ETH = 3000 B (raw 3e-9).
    const aIsToken0 = BigInt(A) < BigInt(B);
    const tickOf = (raw: number, spacing: number): number => Math.round(Math.log(raw) / Math.log(1.0001) / spacing) * spacing;
    erc20Pool = await createPool(lp, A, B, 3000, 60, tickOf(aIsToken0 ? 2e-12 : 5e11, 60), 10n ** 18n, 0n);
    nativePool = await createPool(lp, NATIVE_TOKEN, B, 500, 10, tickOf(3e-9, 10), 2n * 10n ** 16n, parseEther('2000'));
    for (const token of [w.tokenA, w.tokenB])
      await send(w.trader, { to: await token.getAddress(), data: token.interface.encodeFunctionData('approve', [ROUTER, MaxUint256]) });
  });

  it('swaps ERC-20 → ERC-20: the recipient gets the exact V4 quote, and the Swap event has the swapper deltas', async () => {
    const amountIn = parseEther('1000');
    const pool = await routingPool(erc20Pool);
    const quote = quoteV3ExactIn(pool, A.toLowerCase(), net(amountIn));
    const receipt = await send(w.trader, {
      to: ROUTER,
      data: encodeExecute(
        order({ inputToken: A, inputAmount: amountIn, outputToken: B, minOutputAmount: quote.amountOut }),
        calls(erc20Pool, A, B),
      ),
    });

    expect(quote.amountOut).toBeGreaterThan(parseUnits('1900', 6));
    expect(await w.balanceOf(w.tokenB, w.recipient)).toBe(quote.amountOut);
    const zeroForOne = A.toLowerCase() === erc20Pool.key.currency0.toLowerCase();
    const { amount0, amount1 } = swapEvent(receipt.logs);
    expect(zeroForOne ? [amount0, amount1] : [amount1, amount0]).toEqual([-net(amountIn), quote.amountOut]);
    for (const holder of [w.executor, universalRouter]) {
      expect(await w.balanceOf(w.tokenA, holder)).toBe(0n);
      expect(await w.balanceOf(w.tokenB, holder)).toBe(0n);
    }
    console.log(`uniswap-v4 ERC-20 → ERC-20 order: ${receipt.gasUsed} gas (ticks crossed: ${quote.ticksCrossed})`);
    // The module's figure covers the swap within the order (the Router's own cost is the gas model's base).
    expect(Number(receipt.gasUsed)).toBeLessThan(V4_SWAP_GAS + 120_000 + 20_000 * quote.ticksCrossed);
  });

  it('swaps native ETH → ERC-20 (the value of the UniversalRouter call) for the exact quote, across initialised ticks', async () => {
    const amountIn = parseEther('200');
    const pool = await routingPool(nativePool);
    const quote = quoteV3ExactIn(pool, ZERO_ADDRESS, net(amountIn));
    expect(quote.ticksCrossed).toBeGreaterThan(0);
    const receipt = await send(w.trader, {
      to: ROUTER,
      data: encodeExecute(
        order({ inputToken: NATIVE_TOKEN, inputAmount: amountIn, outputToken: B, minOutputAmount: quote.amountOut }),
        calls(nativePool, NATIVE_TOKEN, B),
      ),
      value: amountIn,
    });

    expect(await w.balanceOf(w.tokenB, w.recipient)).toBe(quote.amountOut);
    expect(swapEvent(receipt.logs)).toEqual({ amount0: -net(amountIn), amount1: quote.amountOut });
    for (const holder of [w.executor, universalRouter, ROUTER]) expect(await w.balanceOf('native', holder)).toBe(0n);
    console.log(`uniswap-v4 ETH → ERC-20 order: ${receipt.gasUsed} gas (ticks crossed: ${quote.ticksCrossed})`);
  });

  it('swaps ERC-20 → native ETH (taken straight to the executor, swept to the recipient) for the exact quote', async () => {
    const amountIn = parseUnits('30000', 6);
    const pool = await routingPool(nativePool);
    const quote = quoteV3ExactIn(pool, B.toLowerCase(), net(amountIn));
    const before = await w.balanceOf('native', w.recipient);
    const receipt = await send(w.trader, {
      to: ROUTER,
      data: encodeExecute(
        order({ inputToken: B, inputAmount: amountIn, outputToken: NATIVE_TOKEN, minOutputAmount: quote.amountOut }),
        calls(nativePool, B, NATIVE_TOKEN),
      ),
    });

    expect(quote.amountOut).toBeGreaterThan(parseEther('9.8'));
    expect((await w.balanceOf('native', w.recipient)) - before).toBe(quote.amountOut);
    expect(swapEvent(receipt.logs)).toEqual({ amount0: quote.amountOut, amount1: -net(amountIn) });
    console.log(`uniswap-v4 ERC-20 → ETH order: ${receipt.gasUsed} gas (ticks crossed: ${quote.ticksCrossed})`);
  });

  it('splits one input across two V4 swaps by balance shares (60 % then all the rest) and delivers the sum of both quotes', async () => {
    const amountIn = parseEther('500');
    const pool = await routingPool(erc20Pool);
    const first = (net(amountIn) * 6_000n) / 10_000n;
    const one = quoteV3ExactIn(pool, A.toLowerCase(), first);
    const two = quoteV3ExactIn(one.after, A.toLowerCase(), net(amountIn) - first);
    const hop = {
      pool: erc20Pool.id,
      platform: 'uniswap-v4',
      fee: 3000,
      tickSpacing: 60,
      tokenIn: A.toLowerCase(),
      tokenOut: B.toLowerCase(),
    };
    const split = [...uniswapV4.dex.swapCalls({ ...hop, bps: 6_000 }, env()), ...uniswapV4.dex.swapCalls({ ...hop, bps: 10_000 }, env())];
    await send(w.trader, {
      to: ROUTER,
      data: encodeExecute(
        order({ inputToken: A, inputAmount: amountIn, outputToken: B, minOutputAmount: one.amountOut + two.amountOut }),
        split,
      ),
    });

    expect(await w.balanceOf(w.tokenB, w.recipient)).toBe(one.amountOut + two.amountOut);
  });

  it('swaps through a native pool routed as the wrapped native token (the executor holds native wrapped): unwrap before, wrap after', async () => {
    const WETH = (await w.weth.getAddress()).toLowerCase();
    const pool = { ...(await routingPool(nativePool)), token0: WETH };
    const hop = { pool: nativePool.id, platform: 'uniswap-v4', fee: 500, tickSpacing: 10, bps: 10_000 };
    const amountIn = parseEther('5');
    const toB = quoteV3ExactIn(pool, WETH, net(amountIn));
    const inCalls = [wrapAllCall(WETH), ...uniswapV4.dex.swapCalls({ ...hop, tokenIn: WETH, tokenOut: B.toLowerCase() }, env())];
    await send(w.trader, {
      to: ROUTER,
      data: encodeExecute(
        order({ inputToken: NATIVE_TOKEN, inputAmount: amountIn, outputToken: B, minOutputAmount: toB.amountOut }),
        inCalls,
      ),
      value: amountIn,
    });
    expect(await w.balanceOf(w.tokenB, w.recipient)).toBe(toB.amountOut);

    const amountB = parseUnits('9000', 6);
    const toWeth = quoteV3ExactIn(toB.after, B.toLowerCase(), net(amountB));
    const outCalls = [...uniswapV4.dex.swapCalls({ ...hop, tokenIn: B.toLowerCase(), tokenOut: WETH }, env()), unwrapAllCall(WETH)];
    const before = await w.balanceOf('native', w.recipient);
    await send(w.trader, {
      to: ROUTER,
      data: encodeExecute(
        order({ inputToken: B, inputAmount: amountB, outputToken: NATIVE_TOKEN, minOutputAmount: toWeth.amountOut }),
        outCalls,
      ),
    });
    expect((await w.balanceOf('native', w.recipient)) - before).toBe(toWeth.amountOut);
    for (const holder of [w.executor, universalRouter]) {
      expect(await w.balanceOf('native', holder)).toBe(0n);
      expect(await w.balanceOf(w.weth, holder)).toBe(0n);
    }
  });

  it('refuses a hop whose key does not rebuild the pool id (another tick spacing)', () => {
    expect(() =>
      uniswapV4.dex.swapCalls(
        {
          pool: erc20Pool.id,
          platform: 'uniswap-v4',
          fee: 3000,
          tickSpacing: 10,
          tokenIn: A.toLowerCase(),
          tokenOut: B.toLowerCase(),
          bps: 10_000,
        },
        env(),
      ),
    ).toThrow(/not the hookless pool/);
  });
});
