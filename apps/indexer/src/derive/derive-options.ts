/** Tunables of the derivation stage; defaults suit real networks and the devnet alike. */
export interface DeriveOptions {
  /** basic tokens with these symbols (case-insensitive) are the $1 anchors of the price graph */
  readonly stablecoinSymbols: readonly string[];
  /** pools whose USD depth (2 x the priced side) is below this do not price anything */
  readonly minPoolLiquidityUsd: number;
  /** a pool quote further than this from the weighted median of a token's quotes is ignored */
  readonly maxPriceDeviation: number;
  /** refinement rounds of the price graph */
  readonly graphIterations: number;
  /** supply held by these addresses (besides the zero address) is not circulating */
  readonly deadAddresses: readonly string[];
  /** during a backfill, volumes and paid metrics are refreshed at most this often (and at its end) */
  readonly backfillMetricsEveryMs: number;
}

export const DEFAULT_DERIVE_OPTIONS: DeriveOptions = {
  stablecoinSymbols: [
    'USDC',
    'USDT',
    'DAI',
    'USDC.E',
    'USDBC',
    'USDT0',
    'USDS',
    'FRAX',
    'LUSD',
    'PYUSD',
    'FDUSD',
    'TUSD',
    'GHO',
    'CRVUSD',
    'USDE',
  ],
  minPoolLiquidityUsd: 10_000,
  maxPriceDeviation: 0.2,
  graphIterations: 3,
  deadAddresses: ['0x000000000000000000000000000000000000dead'],
  backfillMetricsEveryMs: 60_000,
};

/** Optional DI token to override the defaults. */
export const DERIVE_OPTIONS = Symbol('DERIVE_OPTIONS');
