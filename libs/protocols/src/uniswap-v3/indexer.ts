import type { RpcLog } from '@tokensvc/domain';
import type { IndexingSink } from '../indexing/port';
import { addressWord, intWord, smallIntWord, topicAddress, topicSmallInt, topicUint, uintWord } from '../indexing/hex';
import { UNISWAP_V3_EVENTS } from './events';
import type { PoolInfo } from '../indexing/registry-types';
import { applyRangeLiquidity, roleAddress, underlyingToken } from '../indexing/adapter-helpers';
import type { ProtocolAdapter } from '../indexing/port';
import { readV3Scope } from './scope';

function v3Pool(log: RpcLog, acc: IndexingSink): PoolInfo | undefined {
  const pool = acc.registry.pools.get(log.address);
  return pool?.family === 'uniswap-v3' ? pool : undefined;
}

/**
 * Mint (liquidity added: sign 1n) or Burn (removed: -1n) over [tickLower, tickUpper): the
 * liquidity event, tick net/gross deltas and, when the range holds the current tick, the pool's
 * active liquidity. `amountWord` is the data word of the liquidity amount (Mint's data starts
 * with the sender, Burn's with the amount); amount0 and amount1 follow it.
 */
function applyPosition(log: RpcLog, acc: IndexingSink, kind: 'deposit' | 'withdraw', amountWord: number, sign: bigint): void {
  const pool = v3Pool(log, acc);
  if (!pool) return;
  const tickLower = topicSmallInt(log.topics[2]);
  const tickUpper = topicSmallInt(log.topics[3]);
  const amount = uintWord(log.data, amountWord);
  acc.liquidity.push({
    blockNumber: log.blockNumber,
    logIndex: log.logIndex,
    txHash: log.transactionHash,
    pool: pool.address,
    family: 'uniswap-v3',
    kind,
    account: topicAddress(log.topics[1]),
    amount0: uintWord(log.data, amountWord + 1),
    amount1: uintWord(log.data, amountWord + 2),
    shares: amount,
    tickLower,
    tickUpper,
  });
  const delta = sign * amount;
  const state = acc.registry.poolStates.get(pool.address)!;
  applyRangeLiquidity(acc, pool.address, state, { tickLower, tickUpper, delta, blockNumber: log.blockNumber });
  acc.touchPool(pool.address, state, log.blockNumber, log.logIndex);
  acc.emitPoolState(pool.address, 'uniswap-v3', state, log);
}

/**
 * Uniswap V3-style pools: liquidity for routing (no token of their own). PoolCreated creates the
 * pool and registers both tokens; Initialize/Swap/Mint/Burn keep price, tick, active liquidity
 * and the tick map.
 */
export const uniswapV3Adapter: ProtocolAdapter = {
  family: 'uniswap-v3',
  staticContracts: (platform) => {
    const factory = roleAddress(platform, 'factory');
    return factory ? [{ address: factory, role: 'source' }] : [];
  },
  seed: async () => [],
  discoveryHandlers: {
    [UNISWAP_V3_EVENTS.v3PoolCreated]: (log, source) => {
      const token0 = topicAddress(log.topics[1]);
      const token1 = topicAddress(log.topics[2]);
      return [
        underlyingToken(token0),
        underlyingToken(token1),
        {
          kind: 'pool',
          pool: {
            address: addressWord(log.data, 1),
            platform: source.platform,
            family: 'uniswap-v3',
            token0,
            token1,
            fee: Number(topicUint(log.topics[3])),
            tickSpacing: smallIntWord(log.data, 0),
            createdBlock: log.blockNumber,
          },
        },
      ];
    },
  },
  handlers: {
    [UNISWAP_V3_EVENTS.v3Initialize]: (log, acc) => {
      const pool = v3Pool(log, acc);
      if (!pool) return;
      const state = acc.registry.poolStates.get(pool.address)!;
      state.sqrtPriceX96 = uintWord(log.data, 0);
      state.tick = smallIntWord(log.data, 1);
      acc.touchPool(pool.address, state, log.blockNumber, log.logIndex);
      acc.emitPoolState(pool.address, 'uniswap-v3', state, log);
    },
    [UNISWAP_V3_EVENTS.v3Swap]: (log, acc) => {
      const pool = v3Pool(log, acc);
      if (!pool) return;
      const amount0 = intWord(log.data, 0);
      const amount1 = intWord(log.data, 1);
      const state = acc.registry.poolStates.get(pool.address)!;
      state.sqrtPriceX96 = uintWord(log.data, 2);
      state.liquidity = uintWord(log.data, 3);
      state.tick = smallIntWord(log.data, 4);
      // Positive amounts went into the pool.
      const zeroForOne = amount0 > 0n;
      acc.swaps.push({
        blockNumber: log.blockNumber,
        logIndex: log.logIndex,
        txHash: log.transactionHash,
        pool: pool.address,
        family: 'uniswap-v3',
        account: topicAddress(log.topics[2]),
        tokenIn: zeroForOne ? pool.token0 : pool.token1,
        tokenOut: zeroForOne ? pool.token1 : pool.token0,
        amountIn: zeroForOne ? amount0 : amount1,
        amountOut: zeroForOne ? -amount1 : -amount0,
      });
      acc.touchPool(pool.address, state, log.blockNumber, log.logIndex);
      acc.emitPoolState(pool.address, 'uniswap-v3', state, log);
    },
    [UNISWAP_V3_EVENTS.v3Mint]: (log, acc) => applyPosition(log, acc, 'deposit', 1, 1n),
    [UNISWAP_V3_EVENTS.v3Burn]: (log, acc) => applyPosition(log, acc, 'withdraw', 0, -1n),
  },
  readScope: readV3Scope,
};
