/**
 * Test helper: what a pool gives for an input on the chain itself at a given block (eth_call with
 * that block tag): Uniswap V2 pairs by their reserves and the pair formula, V3 pools through the
 * devnet's QuoterV2 (quoteExactInputSingle). Used to check `explain` against the chain.
 */
import { Interface } from 'ethers';
import type { JsonRpcClient } from '@tokensvc/chain';

const PAIR = new Interface(['function getReserves() view returns (uint112, uint112, uint32)', 'function token0() view returns (address)']);
const QUOTER = new Interface([
  'function quoteExactInputSingle((address tokenIn, address tokenOut, uint256 amountIn, uint24 fee, uint160 sqrtPriceLimitX96)) returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)',
]);

export interface OnChainHop {
  pool: string;
  protocol: string;
  feeTier: number;
  tokenIn: string;
  tokenOut: string;
  amountIn: string;
}

const tag = (block: number): string => `0x${block.toString(16)}`;

async function call(rpc: JsonRpcClient, to: string, data: string, block: number): Promise<string> {
  return rpc.call<string>('eth_call', [{ to, data }, tag(block)]);
}

/** Output of one pool swap of `hop.amountIn` on the chain as it was at the end of `block`. */
export async function onChainAmountOut(rpc: JsonRpcClient, quoter: string, hop: OnChainHop, block: number): Promise<bigint> {
  const amountIn = BigInt(hop.amountIn);
  if (hop.protocol === 'uniswap-v2') {
    const [r0, r1] = PAIR.decodeFunctionResult('getReserves', await call(rpc, hop.pool, PAIR.encodeFunctionData('getReserves'), block)) as unknown as [bigint, bigint];
    const token0 = (PAIR.decodeFunctionResult('token0', await call(rpc, hop.pool, PAIR.encodeFunctionData('token0'), block))[0] as string).toLowerCase();
    const [reserveIn, reserveOut] = token0 === hop.tokenIn.toLowerCase() ? [r0, r1] : [r1, r0];
    const withFee = amountIn * BigInt(1_000_000 - hop.feeTier);
    return (withFee * reserveOut) / (reserveIn * 1_000_000n + withFee);
  }
  const data = QUOTER.encodeFunctionData('quoteExactInputSingle', [{ tokenIn: hop.tokenIn, tokenOut: hop.tokenOut, amountIn, fee: hop.feeTier, sqrtPriceLimitX96: 0 }]);
  return QUOTER.decodeFunctionResult('quoteExactInputSingle', await call(rpc, quoter, data, block))[0] as bigint;
}
