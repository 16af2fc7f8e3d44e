/** Reads of what the ingest pipeline writes: the token registry, pools and their state history, blocks. */
import { isAddress } from '@tokensvc/domain';
import type { TokenTableRow } from '@tokensvc/persistence';
import { shapeOf } from '@tokensvc/protocols';
import { roleOf, type PoolMeta, type TokenMeta } from '../engine/model';
import type { PoolSnapshot } from '../math/pool-price';
import type { SqlTx } from './sql';

type TokenRow = Pick<TokenTableRow, 'key' | 'address' | 'platform' | 'family' | 'symbol' | 'decimals' | 'underlying' | 'pool_address'> & {
  created: number;
};

/** `underlying` may hold addresses or token keys; the derivation works with addresses. */
function underlyingAddress(entry: string): string {
  const address = entry.includes(':') ? entry.slice(entry.indexOf(':') + 1) : entry;
  return address.toLowerCase();
}

export async function loadTokenMeta(tx: SqlTx, network: string, keys?: readonly string[]): Promise<TokenMeta[]> {
  const rows = await tx.query<TokenRow>(
    `SELECT key, address, platform, family, symbol, decimals, underlying, pool_address, extract(epoch from created_at)::float8 AS created
     FROM tokens WHERE network = $1 AND ($2::text[] IS NULL OR key = ANY($2::text[]))`,
    [network, keys ?? null],
  );
  return rows.map((r) => ({
    key: r.key,
    address: r.address.toLowerCase(),
    platform: r.platform,
    family: r.family,
    symbol: r.symbol,
    decimals: r.decimals,
    underlying: r.underlying.map(underlyingAddress).filter(isAddress),
    poolAddress: r.pool_address ? r.pool_address.toLowerCase() : null,
    createdTime: r.created,
    role: roleOf(r.family),
  }));
}

interface PoolRow {
  address: string;
  family: PoolMeta['family'];
  token0: string;
  token1: string;
  fee: number;
  reserve0: string;
  reserve1: string;
  sqrt_price_x96: string | null;
  liquidity: string | null;
  block_number: number;
  h_block: number | null;
  h_reserve0: string | null;
  h_reserve1: string | null;
  h_sqrt: string | null;
  h_liquidity: string | null;
}

export interface LoadedPool {
  meta: PoolMeta;
  /** the state before `block`, or undefined for a pool without one (empty until its first event) */
  state: PoolSnapshot | undefined;
}

const snapshot = (family: PoolMeta['family'], r0: string, r1: string, sqrt: string | null, liq: string | null): PoolSnapshot => ({
  shape: shapeOf(family),
  reserve0: BigInt(r0),
  reserve1: BigInt(r1),
  sqrtPriceX96: sqrt === null ? undefined : BigInt(sqrt),
  liquidity: liq === null ? undefined : BigInt(liq),
});

/**
 * Pools of the network with their state before `block`: the last pool_state_history row below it;
 * without one, the pool's current row if that was written before `block` (derivation started
 * after ingest), else no state.
 */
export async function loadPools(tx: SqlTx, network: string, block: number, addresses?: readonly string[]): Promise<LoadedPool[]> {
  const rows = await tx.query<PoolRow>(
    `SELECT p.address, p.family, p.token0, p.token1, p.fee, p.reserve0::text AS reserve0, p.reserve1::text AS reserve1,
       p.sqrt_price_x96::text AS sqrt_price_x96, p.liquidity::text AS liquidity, p.block_number::float8 AS block_number,
       h.block_number::float8 AS h_block, h.reserve0::text AS h_reserve0, h.reserve1::text AS h_reserve1,
       h.sqrt_price_x96::text AS h_sqrt, h.liquidity::text AS h_liquidity
     FROM pools p LEFT JOIN LATERAL (
       SELECT * FROM pool_state_history s WHERE s.network = p.network AND s.pool = p.address AND s.block_number < $2
       ORDER BY s.block_number DESC LIMIT 1
     ) h ON true
     WHERE p.network = $1 AND ($3::text[] IS NULL OR p.address = ANY($3::text[]))`,
    [network, block, addresses ?? null],
  );
  return rows.map((r) => {
    const meta: PoolMeta = {
      address: r.address.toLowerCase(),
      family: r.family,
      token0: r.token0.toLowerCase(),
      token1: r.token1.toLowerCase(),
      fee: r.fee,
    };
    if (r.h_block !== null) return { meta, state: snapshot(r.family, r.h_reserve0 ?? '0', r.h_reserve1 ?? '0', r.h_sqrt, r.h_liquidity) };
    if (r.block_number < block) return { meta, state: snapshot(r.family, r.reserve0, r.reserve1, r.sqrt_price_x96, r.liquidity) };
    return { meta, state: undefined };
  });
}

/** Unix time of a stored block. */
export async function blockTime(tx: SqlTx, network: string, block: number): Promise<number | undefined> {
  const rows = await tx.query<{ t: number }>(
    `SELECT extract(epoch from time)::float8 AS t FROM blocks WHERE network = $1 AND number = $2`,
    [network, block],
  );
  return rows[0]?.t;
}
