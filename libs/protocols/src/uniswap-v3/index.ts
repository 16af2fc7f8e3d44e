/**
 * Uniswap V3 and its forks: concentrated-liquidity pools (no token of their own). Swaps go through
 * the platform's SwapRouter or SwapRouter02 (router.ts).
 */
import { DEFAULT_GAS_MODEL } from '@tokensvc/routing';
import { uniswapV3SwapCall, uniswapV3SwapRouter02Call } from '@tokensvc/contracts';
import { bigOf, pairBase } from '../pool-row';
import type { ProtocolModule } from '../protocol-module';
import { uniswapV3Adapter } from './indexer';
import { v3RouterMissingMessage, v3RouterOf } from './router';

export { v3RouterOf, v3RouterMissingMessage, type V3Router } from './router';

export const uniswapV3 = {
  family: 'uniswap-v3',
  category: 'dex',
  tokenKind: () => 'basic',
  dex: {
    shape: 'concentrated',
    // Routable once initialised (a tick) with a known tick spacing; the tick map arrives separately.
    toPool: (row) =>
      row.tickSpacing === null || row.tickSpacing <= 0 || row.tick === null
        ? undefined
        : {
            ...pairBase(row),
            family: 'uniswap-v3',
            shape: 'concentrated',
            tickSpacing: row.tickSpacing,
            sqrtPriceX96: bigOf(row.sqrtPriceX96),
            liquidity: bigOf(row.liquidity),
            tick: row.tick,
            ticks: [],
          },
    swapGas: (ticksCrossed) => DEFAULT_GAS_MODEL.concentrated + DEFAULT_GAS_MODEL.tick * ticksCrossed,
    /**
     * SwapRouter02's exactInputSingle has no deadline (only its multicall(deadline, data[]) has
     * one); no wrapping is needed: every Router entry point checks the order deadline, which is
     * `env.deadline`, before the Executor runs any call, and only the Router can run it.
     */
    swapCalls: (hop, env) => {
      const router = v3RouterOf(env.platformAddresses(hop.platform));
      if (!router) return env.refuse(v3RouterMissingMessage(hop.platform, env.network));
      const swap = { tokenIn: hop.tokenIn, tokenOut: hop.tokenOut, fee: hop.fee, recipient: env.executor, bps: hop.bps };
      return [
        router.kind === 'swapRouter02'
          ? uniswapV3SwapRouter02Call({ swapRouter02: router.address, ...swap })
          : uniswapV3SwapCall({ swapRouter: router.address, deadline: env.deadline, ...swap }),
      ];
    },
  },
  issuer: null,
  indexer: uniswapV3Adapter,
  balances: 'transfers',
  options: {},
} satisfies ProtocolModule<'uniswap-v3'>;
