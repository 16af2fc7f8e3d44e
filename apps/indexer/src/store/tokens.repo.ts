import type { Network, PlatformFamily } from '@tokensvc/domain';
import type { TokenTableRow } from '@tokensvc/persistence';
import type { TokenSeed } from '../model/registry.types';
import type { SqlTx } from '../model/sql-tx';

/** The static fields of a token row, written once by the batch that registers it. */
export interface TokenRow {
  key: string;
  network: Network;
  address: string;
  platform: string;
  family: PlatformFamily;
  name: string;
  symbol: string;
  decimals: number;
  underlying: string[];
  poolAddress: string | null;
  image: string;
  images: string[];
  metadata: Record<string, unknown>;
  isPortable: boolean;
  isVerified: boolean;
  /** unix seconds of the block it was first seen in */
  createdAt: number;
  createdBlock: number;
  /** the first block whose events are read for it when that is not its creation (see migration 1764990000000); null: complete */
  historyFromBlock: number | null;
}

export async function insertTokens(tx: SqlTx, rows: readonly TokenRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(
    `INSERT INTO tokens (key, network, address, platform, family, name, symbol, decimals, underlying, pool_address, image, images, metadata,
       is_portable, is_verified, created_at, created_block, updated_at, verified_at, history_from_block)
     SELECT key, network, address, platform, family, name, symbol, decimals, underlying, pool_address, image, images, metadata,
       is_portable, is_verified, to_timestamp(created_at), created_block, to_timestamp(created_at), CASE WHEN is_verified THEN to_timestamp(created_at) END, history_from_block
     FROM jsonb_to_recordset($1::jsonb) AS x(key text, network text, address text, platform text, family text, name text, symbol text, decimals int,
       underlying text[], pool_address text, image text, images text[], metadata jsonb, is_portable boolean, is_verified boolean, created_at bigint, created_block bigint, history_from_block bigint)
     ON CONFLICT (key) DO NOTHING`,
    [
      JSON.stringify(
        rows.map((r) => ({
          key: r.key,
          network: r.network,
          address: r.address,
          platform: r.platform,
          family: r.family,
          name: r.name,
          symbol: r.symbol,
          decimals: r.decimals,
          underlying: r.underlying,
          pool_address: r.poolAddress,
          image: r.image,
          images: r.images,
          metadata: r.metadata,
          is_portable: r.isPortable,
          is_verified: r.isVerified,
          created_at: r.createdAt,
          created_block: r.createdBlock,
          history_from_block: r.historyFromBlock,
        })),
      ),
    ],
  );
}

type TokenRegistryRow = Pick<TokenTableRow, 'address' | 'platform' | 'family' | 'underlying' | 'pool_address' | 'is_verified' | 'metadata'>;

/** What the in-memory registry needs of every stored token. */
export async function loadTokenSeeds(q: SqlTx, network: Network): Promise<TokenSeed[]> {
  const rows = await q.query<TokenRegistryRow>(
    `SELECT address, platform, family, underlying, pool_address, is_verified, metadata FROM tokens WHERE network = $1`,
    [network],
  );
  return rows.map((r) => ({
    address: r.address,
    platform: r.platform,
    family: r.family as PlatformFamily,
    underlying: r.underlying,
    poolAddress: r.pool_address,
    listed: r.is_verified,
    metadata: r.metadata,
  }));
}

/** Rollback: tokens first seen above the ancestor are unregistered (re-found when re-applied). */
export async function deleteTokensAbove(tx: SqlTx, network: Network, ancestor: number): Promise<void> {
  await tx.query(`DELETE FROM tokens WHERE network = $1 AND created_block > $2`, [network, ancestor]);
}
