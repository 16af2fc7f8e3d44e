/**
 * Uniswap V2 and its forks (SushiSwap, PancakeSwap V2, ...): constant-product pairs whose LP token
 * is the pair itself. Swaps go through the platform's Router02 (`router`).
 */
import { DEFAULT_GAS_MODEL } from '@tokensvc/routing';
import { uniswapV2SwapCall } from '@tokensvc/contracts';
import { bigOf, pairBase } from '../pool-row';
import type { ProtocolModule } from '../protocol-module';

export const uniswapV2: ProtocolModule<'uniswap-v2'> = {
  family: 'uniswap-v2',
  category: 'dex',
  // The pair's LP token; a token of the platform without two underlying tokens is a plain token.
  tokenKind: (underlying) => (underlying.length === 2 ? 'v2-lp' : 'basic'),
  dex: {
    shape: 'constant-product',
    toPool: (row) => ({ ...pairBase(row), family: 'uniswap-v2', shape: 'constant-product', reserve0: bigOf(row.reserve0), reserve1: bigOf(row.reserve1) }),
    swapGas: () => DEFAULT_GAS_MODEL.constantProduct,
    swapCalls: (hop, env) => [uniswapV2SwapCall({ router02: env.platformAddress(hop.platform, 'router'), path: [hop.tokenIn, hop.tokenOut], to: env.executor, deadline: env.deadline, bps: hop.bps })],
  },
};
