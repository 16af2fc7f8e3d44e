/** The state an order runs against: pools from the graph plus what composed tokens need. */
import type { Pool, V2Pair, VaultState } from '@tokensvc/routing';

export interface PairSupply {
  totalSupply: bigint;
  /** only when the factory's protocol fee is on */
  kLast?: bigint;
}

export interface VaultInfo extends VaultState {
  asset: string;
}

export interface LendingMarket {
  asset: string;
  pool: string;
  /** underlying the market holds: the most a withdrawal can take */
  available: bigint;
}

export interface SimWorld {
  pools: ReadonlyMap<string, Pool>;
  /** LP supply of V2 pairs (by pair address) that the order mints or burns */
  pairs: ReadonlyMap<string, PairSupply>;
  vaults: ReadonlyMap<string, VaultInfo>;
  /** by aToken address */
  lending: ReadonlyMap<string, LendingMarket>;
}

export function pairOf(pool: Pool | undefined, supply: PairSupply | undefined): V2Pair | undefined {
  if (!pool || pool.shape !== 'constant-product' || !supply) return undefined;
  return { ...pool, totalSupply: supply.totalSupply, kLast: supply.kLast };
}
