import type { RpcLog } from '@tokensvc/domain';
import { ZERO_ADDRESS } from '@tokensvc/domain';
import type { IndexingSink } from '../indexing/port';
import { addressWord, topicAddress, uintWord } from '../indexing/hex';
import { UNISWAP_V2_EVENTS } from './events';
import type { PoolInfo } from '../indexing/registry-types';
import { roleAddress, underlyingToken } from '../indexing/adapter-helpers';
import type { ProtocolAdapter } from '../indexing/port';
import { readV2Scope, v2Fee } from './scope';

function v2Pool(log: RpcLog, acc: IndexingSink): PoolInfo | undefined {
  const pool = acc.registry.pools.get(log.address);
  return pool?.family === 'uniswap-v2' ? pool : undefined;
}

/** LP tokens minted (from zero) or burned (to zero) earlier in the same transaction. */
function lpShares(acc: IndexingSink, log: RpcLog, mint: boolean): bigint {
  for (let i = acc.transfers.length - 1; i >= 0; i--) {
    const t = acc.transfers[i]!;
    if (t.txHash !== log.transactionHash) break;
    if (
      t.token === log.address &&
      (mint ? t.from === ZERO_ADDRESS && t.to !== ZERO_ADDRESS : t.to === ZERO_ADDRESS && t.from === log.address)
    )
      return t.value;
  }
  return 0n;
}

/**
 * Uniswap V2 and its forks (a platform per fork: own factory). A PairCreated log creates the
 * pool, its LP token (underlying token0/token1, pool address = pair) and registers both tokens.
 */
export const uniswapV2Adapter: ProtocolAdapter = {
  family: 'uniswap-v2',
  staticContracts: (platform) => {
    const factory = roleAddress(platform, 'factory');
    return factory ? [{ address: factory, role: 'source' }] : [];
  },
  seed: async () => [],
  discoveryHandlers: {
    [UNISWAP_V2_EVENTS.v2PairCreated]: (log, source) => {
      const token0 = topicAddress(log.topics[1]);
      const token1 = topicAddress(log.topics[2]);
      const pair = addressWord(log.data, 0);
      const fee = v2Fee(source.options);
      return [
        underlyingToken(token0),
        underlyingToken(token1),
        {
          kind: 'pool',
          pool: {
            address: pair,
            platform: source.platform,
            family: 'uniswap-v2',
            token0,
            token1,
            fee,
            tickSpacing: null,
            createdBlock: log.blockNumber,
          },
        },
        {
          kind: 'token',
          token: {
            address: pair,
            platform: source.platform,
            family: 'uniswap-v2',
            underlying: [token0, token1],
            poolAddress: pair,
            listed: false,
            metadata: { fee },
          },
        },
      ];
    },
  },
  handlers: {
    [UNISWAP_V2_EVENTS.v2Sync]: (log, acc) => {
      const pool = v2Pool(log, acc);
      if (!pool) return;
      const state = acc.registry.poolStates.get(pool.address)!;
      state.reserve0 = uintWord(log.data, 0);
      state.reserve1 = uintWord(log.data, 1);
      acc.touchPool(pool.address, state, log.blockNumber, log.logIndex);
      acc.emitPoolState(pool.address, 'uniswap-v2', state, log);
    },
    [UNISWAP_V2_EVENTS.v2Swap]: (log, acc) => {
      const pool = v2Pool(log, acc);
      if (!pool) return;
      const in0 = uintWord(log.data, 0);
      const in1 = uintWord(log.data, 1);
      const out0 = uintWord(log.data, 2);
      const out1 = uintWord(log.data, 3);
      // token0 in when more token0 came in than went out (a pair can see both sides in one swap).
      const zeroForOne = in0 - out0 > in1 - out1;
      acc.swaps.push({
        blockNumber: log.blockNumber,
        logIndex: log.logIndex,
        txHash: log.transactionHash,
        pool: pool.address,
        family: 'uniswap-v2',
        account: topicAddress(log.topics[2]),
        tokenIn: zeroForOne ? pool.token0 : pool.token1,
        tokenOut: zeroForOne ? pool.token1 : pool.token0,
        amountIn: zeroForOne ? in0 - out0 : in1 - out1,
        amountOut: zeroForOne ? out1 - in1 : out0 - in0,
      });
    },
    [UNISWAP_V2_EVENTS.v2Mint]: (log, acc) => {
      const pool = v2Pool(log, acc);
      if (!pool) return;
      acc.liquidity.push({
        blockNumber: log.blockNumber,
        logIndex: log.logIndex,
        txHash: log.transactionHash,
        pool: pool.address,
        family: 'uniswap-v2',
        kind: 'deposit',
        account: topicAddress(log.topics[1]),
        amount0: uintWord(log.data, 0),
        amount1: uintWord(log.data, 1),
        shares: lpShares(acc, log, true),
      });
    },
    [UNISWAP_V2_EVENTS.v2Burn]: (log, acc) => {
      const pool = v2Pool(log, acc);
      if (!pool) return;
      acc.liquidity.push({
        blockNumber: log.blockNumber,
        logIndex: log.logIndex,
        txHash: log.transactionHash,
        pool: pool.address,
        family: 'uniswap-v2',
        kind: 'withdraw',
        account: topicAddress(log.topics[2]),
        amount0: uintWord(log.data, 0),
        amount1: uintWord(log.data, 1),
        shares: lpShares(acc, log, false),
      });
    },
  },
  readScope: readV2Scope,
  // what the hosted APIs list, e.g. "Uniswap V2 WETH/USDC": the pair's own name() is the same for every pair
  tokenName: ({ platformName, underlyingSymbols }) => `${platformName} ${underlyingSymbols.join('/')}`,
};
