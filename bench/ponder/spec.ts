/** What the bench tells this Ponder project (through the file named by PONDER_BENCH_SPEC). */
export interface PonderBenchSpec {
  rpcUrl: string;
  chainId: number;
  startBlock: number;
  tokens: `0x${string}`[];
  pairs: `0x${string}`[];
  vaults: `0x${string}`[];
}
