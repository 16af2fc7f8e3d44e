/**
 * A row of the `tokens` read model as pg returns it (numeric(78,0), numeric[] and bigint as strings,
 * timestamps as Dates), shared by its writer (indexer) and its readers (token-data's Token records,
 * quote's liquidity graph, the indexer's own registry). A reader types the columns it selects as a
 * Pick of it.
 */
/**
 * What a token is (not its state): the columns the `tokens` row names as camelCase records do, so
 * a record that seeds or describes a row (the apps' test stand-ins) extends this.
 */
export interface TokenDescription {
  address: string;
  platform: string;
  family: string;
  name: string;
  symbol: string;
  decimals: number;
  /** token keys or bare addresses of the tokens it is composed of */
  underlying: string[];
}

/** A token's state at a block: the latest in `tokens`, every block's in the indexer's `price_points`. */
export interface TokenStateColumns {
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
}

export interface TokenTableRow extends TokenDescription, TokenStateColumns {
  key: string;
  network: string;
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
  volume_usd_1d: number;
  volume_usd_7d: number;
  paid_metrics: Record<string, unknown>;
  state_block: string;
  /** first block of the token's indexed events when not its creation (migration 1764990000000); null: complete */
  history_from_block: string | null;
}
