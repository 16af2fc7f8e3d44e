/**
 * Uniswap V2 swap maths (UniswapV2Library), generalised to any fee in hundredths of a bip. With
 * fee 3000 the results equal the library's 997/1000 formulas exactly (same fraction, scaled).
 */
const FEE_DENOMINATOR = 1_000_000n;

function checkReserves(reserveIn: bigint, reserveOut: bigint): void {
  if (reserveIn <= 0n || reserveOut <= 0n) throw new RangeError('INSUFFICIENT_LIQUIDITY');
}

/** Output of selling `amountIn` (UniswapV2Library.getAmountOut). 0 means the pair would revert. */
export function getAmountOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint, fee = 3000): bigint {
  if (amountIn <= 0n) throw new RangeError('INSUFFICIENT_INPUT_AMOUNT');
  checkReserves(reserveIn, reserveOut);
  const amountInWithFee = amountIn * (FEE_DENOMINATOR - BigInt(fee));
  return (amountInWithFee * reserveOut) / (reserveIn * FEE_DENOMINATOR + amountInWithFee);
}

/** Input needed to receive `amountOut` (UniswapV2Library.getAmountIn); undefined when the pool cannot pay it. */
export function getAmountIn(amountOut: bigint, reserveIn: bigint, reserveOut: bigint, fee = 3000): bigint | undefined {
  if (amountOut <= 0n) throw new RangeError('INSUFFICIENT_OUTPUT_AMOUNT');
  checkReserves(reserveIn, reserveOut);
  if (amountOut >= reserveOut) return undefined;
  const numerator = reserveIn * amountOut * FEE_DENOMINATOR;
  const denominator = (reserveOut - amountOut) * (FEE_DENOMINATOR - BigInt(fee));
  return numerator / denominator + 1n;
}

/** amountB worth amountA at the pool's ratio, no fee (UniswapV2Library.quote). */
export function quote(amountA: bigint, reserveA: bigint, reserveB: bigint): bigint {
  if (amountA <= 0n) throw new RangeError('INSUFFICIENT_AMOUNT');
  checkReserves(reserveA, reserveB);
  return (amountA * reserveB) / reserveA;
}
