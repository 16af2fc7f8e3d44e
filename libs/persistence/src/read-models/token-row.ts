/**
 * A row of the `tokens` read model as pg returns it (numeric(78,0), numeric[] and bigint as strings,
 * timestamps as Dates), shared by its writer (indexer) and its readers (token-data's Token records,
 * quote's liquidity graph, the indexer's own registry). A reader types the columns it selects as a
 * Pick of it.
 */
export interface TokenTableRow {
  key: string;
  network: string;
  address: string;
  platform: string;
  family: string;
  name: string;
  symbol: string;
  decimals: number;
  /** token keys or bare addresses of the tokens it is composed of */
  underlying: string[];
  pool_address: string | null;
  image: string;
  images: string[];
  tags: string[];
  metadata: Record<string, unknown>;
  is_portable: boolean;
  is_verified: boolean;
  created_at: Date;
  created_block: string;
  updated_at: Date;
  verified_at: Date | null;
  price: number;
  liquidity: number;
  total_supply: string;
  total_borrow: string;
  circulating_supply: string;
  reserves: string[];
  price_per_share: string;
  apy: number;
  base_apy: number;
  reward_apy: number;
  borrow_apy: number;
  base_borrow_apy: number;
  volume_usd_1d: number;
  volume_usd_7d: number;
  paid_metrics: Record<string, unknown>;
  state_block: string;
  /** first block of the token's indexed events when not its creation (migration 1764990000000); null: complete */
  history_from_block: string | null;
}
