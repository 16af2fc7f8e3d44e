/** A change of a V3 pool's liquidity at one tick in one block (net and gross deltas). */
export interface TickDelta {
  pool: string;
  tick: number;
  blockNumber: number;
  net: bigint;
  gross: bigint;
}
