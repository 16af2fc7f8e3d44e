import type { RpcLog } from '@tokensvc/domain';
import { isNativeAddress } from '@tokensvc/domain';
import type { IndexingSink, ProtocolAdapter } from '../indexing/port';
import { addressWord, intWord, smallIntWord, topicAddress, uintWord } from '../indexing/hex';
import type { Discovery, PoolInfo } from '../indexing/registry-types';
import { applyRangeLiquidity, roleAddress, underlyingToken } from '../indexing/adapter-helpers';
import { UNISWAP_V4_EVENTS } from './events';
import { liquidityAmounts } from './reserves';

/**
 * The V4 pool an event of the PoolManager is about: its id is topic 1 (pools are ids, not
 * contracts). Only the PoolManager of the pool's own platform speaks for it: a registered token
 * emitting a same-signature event with a known id is ignored.
 */
function v4Pool(log: RpcLog, acc: IndexingSink): PoolInfo | undefined {
  const id = log.topics[1]?.toLowerCase();
  const pool = id === undefined ? undefined : acc.registry.pools.get(id);
  if (pool?.family !== 'uniswap-v4') return undefined;
  return acc.registry.sources.get(log.address)?.platform === pool.platform ? pool : undefined;
}

function publish(log: RpcLog, acc: IndexingSink, pool: PoolInfo): void {
  const state = acc.registry.poolStates.get(pool.address)!;
  acc.touchPool(pool.address, state, log.blockNumber, log.logIndex);
  acc.emitPoolState(pool.address, 'uniswap-v4', state, log);
}

/**
 * Uniswap V4: every pool lives in the platform's PoolManager, whose own events are decoded
 * (the PoolManager is the platform's discovery source and the only contract read). Initialize
 * discovers a pool under its id (bytes32, lowercase); only hookless pools (hooks = address(0)) are
 * kept, since a hook may change what a swap pays and the routing maths would not know it.
 * Initialize/Swap/ModifyLiquidity keep price, tick, active liquidity and the tick map as for V3.
 *
 * Reserves: the PoolManager holds all pools' tokens together, so a pool's reserves are counted
 * from its events: + the amounts a liquidity change adds (SqrtPriceMath, reserves.ts), − what it
 * removes, − the swapper's deltas of each Swap (fees included), + donations. Fees a position
 * collects are not an event (they ride on its next ModifyLiquidity's caller delta), so the figure
 * is the principal of the positions plus every fee earned since the pool started, collected or not:
 * it exceeds the tokens the pool still holds by the fees already collected (and by protocol fees
 * when the protocol takes any; none is set on Uniswap's deployments today).
 */
export const uniswapV4Adapter: ProtocolAdapter = {
  family: 'uniswap-v4',
  staticContracts: (platform) => {
    const poolManager = roleAddress(platform, 'poolManager');
    return poolManager ? [{ address: poolManager, role: 'source' }] : [];
  },
  seed: async () => [],
  discoveryHandlers: {
    [UNISWAP_V4_EVENTS.v4Initialize]: (log, source) => {
      // Pools with a hook are left out (see above).
      if (!isNativeAddress(addressWord(log.data, 2))) return [];
      const id = log.topics[1]!.toLowerCase();
      const token0 = topicAddress(log.topics[2]);
      const token1 = topicAddress(log.topics[3]);
      // currency0 = address(0) is the native coin: the native module's token already.
      const tokens: Discovery[] = [token0, token1].filter((t) => !isNativeAddress(t)).map(underlyingToken);
      const fee = Number(uintWord(log.data, 0));
      return [
        ...tokens,
        {
          kind: 'pool',
          pool: {
            address: id,
            platform: source.platform,
            family: 'uniswap-v4',
            token0,
            token1,
            fee,
            tickSpacing: smallIntWord(log.data, 1),
            createdBlock: log.blockNumber,
          },
        },
      ];
    },
  },
  handlers: {
    [UNISWAP_V4_EVENTS.v4Initialize]: (log, acc) => {
      const pool = v4Pool(log, acc);
      if (!pool) return;
      const state = acc.registry.poolStates.get(pool.address)!;
      state.sqrtPriceX96 = uintWord(log.data, 3);
      state.tick = smallIntWord(log.data, 4);
      publish(log, acc, pool);
    },
    [UNISWAP_V4_EVENTS.v4ModifyLiquidity]: (log, acc) => {
      const pool = v4Pool(log, acc);
      if (!pool) return;
      const tickLower = smallIntWord(log.data, 0);
      const tickUpper = smallIntWord(log.data, 1);
      const delta = intWord(log.data, 2);
      const state = acc.registry.poolStates.get(pool.address)!;
      if (state.tick === null || state.sqrtPriceX96 === null) return;
      const { amount0, amount1 } = liquidityAmounts(state.sqrtPriceX96, state.tick, tickLower, tickUpper, delta);
      state.reserve0 += amount0;
      state.reserve1 += amount1;
      const add = delta >= 0n;
      acc.liquidity.push({
        blockNumber: log.blockNumber,
        logIndex: log.logIndex,
        txHash: log.transactionHash,
        pool: pool.address,
        family: 'uniswap-v4',
        kind: add ? 'deposit' : 'withdraw',
        account: topicAddress(log.topics[2]),
        amount0: add ? amount0 : -amount0,
        amount1: add ? amount1 : -amount1,
        shares: add ? delta : -delta,
        tickLower,
        tickUpper,
      });
      applyRangeLiquidity(acc, pool.address, state, { tickLower, tickUpper, delta, blockNumber: log.blockNumber });
      publish(log, acc, pool);
    },
    [UNISWAP_V4_EVENTS.v4Swap]: (log, acc) => {
      const pool = v4Pool(log, acc);
      if (!pool) return;
      // The swapper's deltas (V3's Swap has the pool's): negative is what the swapper paid in.
      const amount0 = intWord(log.data, 0);
      const amount1 = intWord(log.data, 1);
      const state = acc.registry.poolStates.get(pool.address)!;
      state.sqrtPriceX96 = uintWord(log.data, 2);
      state.liquidity = uintWord(log.data, 3);
      state.tick = smallIntWord(log.data, 4);
      state.reserve0 -= amount0;
      state.reserve1 -= amount1;
      const zeroForOne = amount0 < 0n;
      acc.swaps.push({
        blockNumber: log.blockNumber,
        logIndex: log.logIndex,
        txHash: log.transactionHash,
        pool: pool.address,
        family: 'uniswap-v4',
        account: topicAddress(log.topics[2]),
        tokenIn: zeroForOne ? pool.token0 : pool.token1,
        tokenOut: zeroForOne ? pool.token1 : pool.token0,
        amountIn: zeroForOne ? -amount0 : -amount1,
        amountOut: zeroForOne ? amount1 : amount0,
      });
      publish(log, acc, pool);
    },
    [UNISWAP_V4_EVENTS.v4Donate]: (log, acc) => {
      const pool = v4Pool(log, acc);
      if (!pool) return;
      const state = acc.registry.poolStates.get(pool.address)!;
      state.reserve0 += uintWord(log.data, 0);
      state.reserve1 += uintWord(log.data, 1);
      publish(log, acc, pool);
    },
  },
  // Not built yet: a V4 platform with INDEXER_POOLS=listed starts from its first indexed block's events only.
  readScope: null,
};
