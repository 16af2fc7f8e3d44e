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
import { uniswapV4SwapCalls, uniswapV4WrappedNativeSwapCalls } from './calls';
import { uniswapV4Adapter } from './indexer';
import { hooklessPoolKey, v4PoolId } from './pool-key';

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
        : {
            ...pairBase(row),
            family: 'uniswap-v4',
            shape: 'concentrated',
            tickSpacing: row.tickSpacing,
            sqrtPriceX96: bigOf(row.sqrtPriceX96),
            liquidity: bigOf(row.liquidity),
            tick: row.tick,
            ticks: [],
          },
    swapGas: (ticksCrossed) => V4_SWAP_GAS + DEFAULT_GAS_MODEL.tick * ticksCrossed,
    /**
     * The key is rebuilt from the hop and must give the pool's id: a pool it does not name (hooks,
     * another spacing) is refused, never swapped. A native-coin pool is routed with the wrapped
     * native token in its place (the executor holds native wrapped): the key that gives the id with
     * address(0) for one side names that side as the wrapped native, unwrapped or wrapped around the swap.
     */
    swapCalls: (hop, env) => {
      const { tickSpacing } = hop;
      if (tickSpacing === undefined) return env.refuse(`the V4 pool ${hop.pool} has no known tick spacing`);
      const universalRouter = env.platformAddress(hop.platform, 'universalRouter');
      const keyOf = (a: string, b: string) => hooklessPoolKey(a, b, hop.fee, tickSpacing);
      const swap = { universalRouter, deadline: env.deadline, bps: hop.bps };
      const id = hop.pool.toLowerCase();
      const direct = keyOf(hop.tokenIn, hop.tokenOut);
      if (v4PoolId(direct) === id) return uniswapV4SwapCalls({ ...swap, key: direct, tokenIn: hop.tokenIn });
      const nativeIn = keyOf(ZERO_ADDRESS, hop.tokenOut);
      if (v4PoolId(nativeIn) === id)
        return uniswapV4WrappedNativeSwapCalls({ ...swap, key: nativeIn, tokenIn: ZERO_ADDRESS, wrapped: hop.tokenIn, side: 'in' });
      const nativeOut = keyOf(hop.tokenIn, ZERO_ADDRESS);
      if (v4PoolId(nativeOut) === id)
        return uniswapV4WrappedNativeSwapCalls({ ...swap, key: nativeOut, tokenIn: hop.tokenIn, wrapped: hop.tokenOut, side: 'out' });
      return env.refuse(`the V4 pool ${hop.pool} is not the hookless pool of its tokens, fee and tick spacing`);
    },
  },
  issuer: null,
  indexer: uniswapV4Adapter,
  balances: 'transfers',
  options: {},
} satisfies ProtocolModule<'uniswap-v4'>;
