/**
 * Uniswap V4: concentrated-liquidity pools that are ids inside one PoolManager (no contract, no
 * token of their own; the native coin is a currency, address(0)). Only hookless pools are
 * indexed and routed. Swaps go through the platform's UniversalRouter (calls.ts); the maths is the
 * concentrated shape's (libs/routing), the V4 fee in pips like V3's.
 */
import { DEFAULT_GAS_MODEL } from '@tokensvc/routing';
import { ZERO_ADDRESS } from '@tokensvc/domain';
import { bigOf, pairBase } from '../pool-row';
import type { ProtocolModule } from '../protocol-module';
import { uniswapV4SwapCalls } from './calls';
import { uniswapV4Adapter } from './indexer';
import { v4PoolId } from './pool-key';

export { uniswapV4SwapCalls, v4SwapInput } from './calls';
export { hooklessPoolKey, v4PoolId, type V4PoolKey } from './pool-key';
export { liquidityAmounts } from './reserves';

/**
 * Gas of one V4 swap through the executor (the ERC-20 transfer to the UniversalRouter, its
 * execute: unlock, settle, swap, take), measured on anvil (uniswap-v4.int-spec.ts): a whole
 * ERC-20 → ERC-20 order within one initialised range costs 254,278, the gas model's order base
 * (120,000) included; the ticks a swap crosses are priced like V3's.
 */
export const V4_SWAP_GAS = 135_000;

export const uniswapV4 = {
  family: 'uniswap-v4',
  category: 'dex',
  tokenKind: () => 'basic',
  dex: {
    shape: 'concentrated',
    singleton: true,
    toPool: (row) =>
      row.tickSpacing === null || row.tickSpacing <= 0 || row.tick === null
        ? undefined
        : { ...pairBase(row), family: 'uniswap-v4', shape: 'concentrated', tickSpacing: row.tickSpacing, sqrtPriceX96: bigOf(row.sqrtPriceX96), liquidity: bigOf(row.liquidity), tick: row.tick, ticks: [] },
    swapGas: (ticksCrossed) => V4_SWAP_GAS + DEFAULT_GAS_MODEL.tick * ticksCrossed,
    swapCalls: (hop, env) => {
      if (hop.tickSpacing === undefined) return env.refuse(`the V4 pool ${hop.pool} has no known tick spacing`);
      const [currency0, currency1] = BigInt(hop.tokenIn) < BigInt(hop.tokenOut) ? [hop.tokenIn, hop.tokenOut] : [hop.tokenOut, hop.tokenIn];
      const key = { currency0, currency1, fee: hop.fee, tickSpacing: hop.tickSpacing, hooks: ZERO_ADDRESS };
      // The key is rebuilt from the hop: a pool it does not name (hooks, another spacing) is refused, never swapped.
      if (v4PoolId(key) !== hop.pool.toLowerCase()) return env.refuse(`the V4 pool ${hop.pool} is not the hookless pool of its tokens, fee and tick spacing`);
      const universalRouter = env.platformAddress(hop.platform, 'universalRouter');
      return uniswapV4SwapCalls({ universalRouter, key, tokenIn: hop.tokenIn, deadline: env.deadline, bps: hop.bps });
    },
  },
  issuer: null,
  indexer: uniswapV4Adapter,
  balances: 'transfers',
  options: {},
} satisfies ProtocolModule<'uniswap-v4'>;
