/**
 * Test helper: what a pool gives for an input on the chain itself at a given block (eth_call with
 * that block tag): Uniswap V2 pairs by their reserves and the pair formula, V3 pools through the
 * devnet's QuoterV2 (quoteExactInputSingle), Uniswap V4 pools (ids, no quoter on npm) by their
 * state in the PoolManager's storage at that block and the concentrated maths (bit-exact against
 * the PoolManager: libs/protocols/src/uniswap-v4/uniswap-v4.int-spec.ts). Used to check `explain`
 * against the chain.
 */
import { AbiCoder, Interface, keccak256 } from 'ethers';
import type { JsonRpcClient } from '@tokensvc/chain';
import { ZERO_ADDRESS } from '@tokensvc/domain';
import { MAX_TICK, MIN_TICK, type V3Tick, quoteV3ExactIn } from '@tokensvc/routing';

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

/** The V4 platform's PoolManager and pools (the devnet manifest's), so a V4 hop is read from its storage. */
export interface V4Pools {
  poolManager: string;
  pools: ReadonlyArray<{ address: string; token0: string; token1: string; tickSpacing?: number }>;
}

const tag = (block: number): string => `0x${block.toString(16)}`;

const PM = new Interface(['function extsload(bytes32[] slots) view returns (bytes32[])']);
const mapSlot = (type: string, key: unknown, slot: bigint): bigint =>
  BigInt(keccak256(AbiCoder.defaultAbiCoder().encode([type, 'uint256'], [key, slot])));
const mask = (bits: bigint): bigint => (1n << bits) - 1n;

async function extsload(rpc: JsonRpcClient, poolManager: string, slots: readonly bigint[], block: number): Promise<bigint[]> {
  const data = PM.encodeFunctionData('extsload', [slots.map((s) => `0x${s.toString(16).padStart(64, '0')}`)]);
  return (PM.decodeFunctionResult('extsload', await call(rpc, poolManager, data, block))[0] as string[]).map((w) => BigInt(w));
}

/**
 * A V4 hop: the pool (its key's currencies from the hop: a native pool is routed as the wrapped
 * native token, so a hop token the pool does not hold is its native currency) read from the
 * PoolManager's storage at `block` (v4-core's StateLibrary slots), then the concentrated maths.
 */
type V4Hop = OnChainHop & { tickSpacing: number; token0: string; token1: string };

async function v4AmountOut(rpc: JsonRpcClient, poolManager: string, hop: V4Hop, block: number): Promise<bigint> {
  const state = mapSlot('bytes32', hop.pool, 6n);
  const [slot0, liquidity] = await extsload(rpc, poolManager, [state, state + 3n], block);
  const spacing = hop.tickSpacing;
  const [minWord, maxWord] = [Math.floor(Math.floor(MIN_TICK / spacing) / 256), Math.floor(Math.floor(MAX_TICK / spacing) / 256)];
  const words = Array.from({ length: maxWord - minWord + 1 }, (_, i) => minWord + i);
  const bitmaps = await extsload(
    rpc,
    poolManager,
    words.map((w) => mapSlot('int16', w, state + 5n)),
    block,
  );
  const set = (bits: bigint): number[] => Array.from({ length: 256 }, (_, bit) => bit).filter((bit) => ((bits >> BigInt(bit)) & 1n) === 1n);
  const indexes = bitmaps.flatMap((bits, i) => set(bits).map((bit) => (words[i]! * 256 + bit) * spacing));
  const infos = await extsload(
    rpc,
    poolManager,
    indexes.map((t) => mapSlot('int24', t, state + 4n)),
    block,
  );
  const ticks: V3Tick[] = indexes.map((index, i) => ({ index, liquidityNet: BigInt.asIntN(128, infos[i]! >> 128n) }));
  const pool = {
    family: 'uniswap-v4' as const,
    shape: 'concentrated' as const,
    address: hop.pool,
    token0: hop.token0,
    token1: hop.token1,
    fee: hop.feeTier,
    tickSpacing: spacing,
    sqrtPriceX96: slot0! & mask(160n),
    tick: Number(BigInt.asIntN(24, slot0! >> 160n)),
    liquidity: liquidity! & mask(128n),
    ticks,
  };
  const tokenIn =
    hop.tokenIn.toLowerCase() === pool.token0 || hop.tokenIn.toLowerCase() === pool.token1 ? hop.tokenIn.toLowerCase() : ZERO_ADDRESS;
  return quoteV3ExactIn(pool, tokenIn, BigInt(hop.amountIn)).amountOut;
}

async function call(rpc: JsonRpcClient, to: string, data: string, block: number): Promise<string> {
  return rpc.call<string>('eth_call', [{ to, data }, tag(block)]);
}

/** Output of one pool swap of `hop.amountIn` on the chain as it was at the end of `block`. */
export async function onChainAmountOut(rpc: JsonRpcClient, quoter: string, hop: OnChainHop, block: number, v4?: V4Pools): Promise<bigint> {
  const amountIn = BigInt(hop.amountIn);
  const v4Pool = v4?.pools.find((p) => p.address.toLowerCase() === hop.pool.toLowerCase());
  if (v4 && v4Pool) {
    const [token0, token1] = [v4Pool.token0.toLowerCase(), v4Pool.token1.toLowerCase()];
    return v4AmountOut(rpc, v4.poolManager, { ...hop, tickSpacing: v4Pool.tickSpacing!, token0, token1 }, block);
  }
  if (hop.protocol === 'uniswap-v2') {
    const [r0, r1] = PAIR.decodeFunctionResult(
      'getReserves',
      await call(rpc, hop.pool, PAIR.encodeFunctionData('getReserves'), block),
    ) as unknown as [bigint, bigint];
    const token0 = (
      PAIR.decodeFunctionResult('token0', await call(rpc, hop.pool, PAIR.encodeFunctionData('token0'), block))[0] as string
    ).toLowerCase();
    const [reserveIn, reserveOut] = token0 === hop.tokenIn.toLowerCase() ? [r0, r1] : [r1, r0];
    const withFee = amountIn * BigInt(1_000_000 - hop.feeTier);
    return (withFee * reserveOut) / (reserveIn * 1_000_000n + withFee);
  }
  const data = QUOTER.encodeFunctionData('quoteExactInputSingle', [
    { tokenIn: hop.tokenIn, tokenOut: hop.tokenOut, amountIn, fee: hop.feeTier, sqrtPriceLimitX96: 0 },
  ]);
  return QUOTER.decodeFunctionResult('quoteExactInputSingle', await call(rpc, quoter, data, block))[0] as bigint;
}
