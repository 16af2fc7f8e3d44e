/**
 * Test helper standing in for the ingest pipeline's writes that the derivation reads: the token
 * registry and pools (from the devnet manifest), blocks, pool state history and pools' current
 * state per batch, and their rollback.
 */
import { ZERO_ADDRESS, tokenKey } from '@tokensvc/domain';
import type { TokenDescription } from '@tokensvc/persistence';
import type { DecodedBatch, PoolStateEvent } from '../../model/decoded-batch';
import type { SqlTx } from '../repo/sql';
import { aavePoolAddress, lower, platformsOf, type World } from './devnet-world';

interface TokenSeed extends TokenDescription {
  poolAddress: string | null;
}

export function registryOf(world: World): TokenSeed[] {
  const basic = world.tokens.map((t) => ({
    address: lower(t.address),
    platform: 'basic',
    family: 'basic',
    name: t.name,
    symbol: t.symbol,
    decimals: t.decimals,
    underlying: [],
    poolAddress: null,
  }));
  const native = {
    address: ZERO_ADDRESS,
    platform: 'native',
    family: 'native',
    name: 'Ether',
    symbol: 'ETH',
    decimals: 18,
    underlying: [],
    poolAddress: null,
  };
  const lps = platformsOf(world, 'uniswap-v2').flatMap((p) =>
    p.pools.map((pool) => ({
      address: lower(pool.address),
      platform: p.slug,
      family: 'uniswap-v2',
      name: `${p.slug} LP`,
      symbol: 'UNI-V2',
      decimals: 18,
      underlying: [lower(pool.token0), lower(pool.token1)],
      poolAddress: lower(pool.address),
    })),
  );
  const vaults = platformsOf(world, 'erc4626').flatMap((p) =>
    p.vaults.map((v) => ({
      address: lower(v.address),
      platform: p.slug,
      family: 'erc4626',
      name: v.name,
      symbol: v.symbol,
      decimals: v.decimals,
      underlying: [lower(v.asset)],
      poolAddress: null,
    })),
  );
  const aavePool = aavePoolAddress(world);
  const decimalsOf = (a: string): number => world.tokens.find((t) => lower(t.address) === lower(a))?.decimals ?? 18;
  const aTokens = platformsOf(world, 'aave-v3').flatMap((p) =>
    p.markets.map((m) => ({
      address: lower(m.aToken),
      platform: p.slug,
      family: 'aave-v3',
      name: `Aave ${m.symbol}`,
      symbol: `a${m.symbol}`,
      decimals: decimalsOf(m.asset),
      underlying: [lower(m.asset)],
      poolAddress: aavePool,
    })),
  );
  return [native, ...basic, ...lps, ...vaults, ...aTokens];
}

export async function seedRegistry(tx: SqlTx, world: World): Promise<void> {
  const tokens = registryOf(world);
  for (const t of tokens) {
    await tx.query(
      `INSERT INTO tokens (key, network, address, platform, family, name, symbol, decimals, underlying, pool_address, created_at, created_block)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, to_timestamp($11), $12)`,
      [
        tokenKey(world.network, t.address),
        world.network,
        t.address,
        t.platform,
        t.family,
        t.name,
        t.symbol,
        t.decimals,
        t.underlying,
        t.poolAddress,
        world.history.deployTimestamp,
        world.history.deployBlock,
      ],
    );
  }
  for (const family of ['uniswap-v2', 'uniswap-v3'] as const) {
    for (const p of platformsOf(world, family)) {
      for (const pool of p.pools) {
        await tx.query(
          `INSERT INTO pools (network, address, platform, family, token0, token1, fee, tick_spacing, block_number) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [
            world.network,
            lower(pool.address),
            p.slug,
            family,
            lower(pool.token0),
            lower(pool.token1),
            pool.fee,
            pool.tickSpacing ?? null,
            world.history.deployBlock,
          ],
        );
      }
    }
  }
}

const num = (x: bigint | undefined): string | null => (x === undefined ? null : x.toString());

/** What ingest writes before calling the derivation: blocks, pool state history, pools. */
export async function writeIngestRows(tx: SqlTx, batch: DecodedBatch): Promise<void> {
  for (const b of batch.blocks) {
    await tx.query(`INSERT INTO blocks (network, number, hash, parent_hash, time) VALUES ($1, $2, $3, $4, to_timestamp($5))`, [
      batch.network,
      b.number,
      b.hash,
      b.parentHash,
      b.timestamp,
    ]);
  }
  const lastPerBlock = new Map<string, PoolStateEvent>();
  for (const s of batch.poolStates) lastPerBlock.set(`${s.pool}|${s.blockNumber}`, s);
  for (const s of lastPerBlock.values()) {
    const values = [
      batch.network,
      s.pool,
      s.blockNumber,
      s.logIndex,
      s.reserve0.toString(),
      s.reserve1.toString(),
      num(s.sqrtPriceX96),
      num(s.liquidity),
      s.tick ?? null,
    ];
    await tx.query(
      `INSERT INTO pool_state_history (network, pool, block_number, log_index, reserve0, reserve1, sqrt_price_x96, liquidity, tick) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      values,
    );
    await tx.query(
      `UPDATE pools SET reserve0 = $5, reserve1 = $6, sqrt_price_x96 = $7, liquidity = $8, tick = $9, block_number = $3, log_index = $4 WHERE network = $1 AND address = $2`,
      values,
    );
  }
}

/** What ingest does on a reorg before calling the derivation's rollback. */
export async function rollbackIngestRows(tx: SqlTx, network: string, ancestor: number): Promise<void> {
  await tx.query(`DELETE FROM blocks WHERE network = $1 AND number > $2`, [network, ancestor]);
  await tx.query(`DELETE FROM pool_state_history WHERE network = $1 AND block_number > $2`, [network, ancestor]);
  await tx.query(
    `UPDATE pools p SET reserve0 = h.reserve0, reserve1 = h.reserve1, sqrt_price_x96 = h.sqrt_price_x96, liquidity = h.liquidity, tick = h.tick, block_number = h.block_number
     FROM (SELECT DISTINCT ON (pool) * FROM pool_state_history WHERE network = $1 ORDER BY pool, block_number DESC) h
     WHERE p.network = $1 AND p.address = h.pool`,
    [network],
  );
}
