/** What the bench tells this Ponder project (through the file named by PONDER_BENCH_SPEC). */
export interface PonderBenchSpec {
  rpcUrl: string;
  /** Ponder's own request budget (default 1000: loopback anvil; through the emulator: the plan's) */
  maxRequestsPerSecond?: number;
  chainId: number;
  startBlock: number;
  tokens: `0x${string}`[];
  pairs: `0x${string}`[];
  vaults: `0x${string}`[];
}
