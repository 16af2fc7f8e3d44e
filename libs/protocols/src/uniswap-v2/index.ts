/**
 * Uniswap V2 and its forks (SushiSwap, PancakeSwap V2, ...): constant-product pairs whose LP token
 * is the pair itself. Swaps go through the platform's Router02 (`router`).
 */
import { Interface } from 'ethers';
import { DEFAULT_GAS_MODEL } from '@tokensvc/routing';
import { transferAllCall, uniswapV2SwapCall } from '@tokensvc/contracts';
import { allOf } from '../call-inputs';
import { bigOf, pairBase } from '../pool-row';
import type { ProtocolModule } from '../protocol-module';
import { uniswapV2Adapter } from './indexer';

const PAIR = new Interface(['function burn(address to) returns (uint256 amount0, uint256 amount1)']);
const V2_ROUTER = new Interface([
  'function addLiquidity(address tokenA, address tokenB, uint256 amountADesired, uint256 amountBDesired, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline) returns (uint256 amountA, uint256 amountB, uint256 liquidity)',
]);

export const uniswapV2 = {
  family: 'uniswap-v2',
  category: 'dex',
  // The pair's LP token; a token of the platform without two underlying tokens is a plain token.
  tokenKind: (underlying) => (underlying.length === 2 ? 'v2-lp' : 'basic'),
  dex: {
    shape: 'constant-product',
    toPool: (row) => ({
      ...pairBase(row),
      family: 'uniswap-v2',
      shape: 'constant-product',
      reserve0: bigOf(row.reserve0),
      reserve1: bigOf(row.reserve1),
    }),
    swapGas: () => DEFAULT_GAS_MODEL.constantProduct,
    swapCalls: (hop, env) => [
      uniswapV2SwapCall({
        router02: env.platformAddress(hop.platform, 'router'),
        path: [hop.tokenIn, hop.tokenOut],
        to: env.executor,
        deadline: env.deadline,
        bps: hop.bps,
      }),
    ],
  },
  issuer: {
    kind: 'v2-lp',
    // Router02.addLiquidity with everything held of both tokens; leftovers stay (swept later).
    enter: {
      gas: 150_000,
      calls: (a, env) => [
        {
          target: env.platformAddress(a.platform, 'router'),
          value: 0n,
          data: V2_ROUTER.encodeFunctionData('addLiquidity', [a.token0, a.token1, 0n, 0n, 0n, 0n, env.executor, env.deadline]),
          inputs: [allOf(a.token0, 2, true), allOf(a.token1, 3, true)],
        },
      ],
    },
    // The pair burns the LP tokens sent to it in the same transaction.
    exit: {
      gas: 95_000,
      calls: (a, env) => [
        transferAllCall(a.pair, a.pair),
        { target: a.pair, value: 0n, data: PAIR.encodeFunctionData('burn', [env.executor]), inputs: [] },
      ],
    },
  },
  indexer: uniswapV2Adapter,
  balances: 'transfers',
  options: {
    fee: {
      describe: "the pairs' swap fee in hundredths of a bip (3000 = 0.3 %, Uniswap V2's; PancakeSwap V2: 2500)",
      check: (v) =>
        typeof v === 'number' && Number.isInteger(v) && v > 0 && v < 1_000_000 ? undefined : 'must be an integer between 1 and 999999',
    },
  },
} satisfies ProtocolModule<'uniswap-v2'>;
