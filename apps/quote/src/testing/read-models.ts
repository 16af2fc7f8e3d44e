/**
 * Test helper: fills a migrated test database's `pools`, `pool_ticks` and `tokens` the way the
 * indexer would (composition and USD prices included) from the chain state of a devnet network.
 */
import { Client } from 'pg';
import type { JsonRpcClient } from '@tokensvc/chain';
import { ZERO_ADDRESS } from '@tokensvc/domain';
import type { TokenDescription } from '@tokensvc/persistence';
import { type ChainPool, type DevnetNetworkLike, headBlock, readChainPools, readVaultTotals } from './chain-pools';

interface TokenRow extends TokenDescription {
  poolAddress: string | null;
  price: number;
}

const units = (v: bigint, decimals: number): number => Number(v) / 10 ** decimals;

export function composedTokens(
  net: DevnetNetworkLike,
  pools: readonly ChainPool[],
  vaults: Map<string, { totalAssets: bigint; totalSupply: bigint }>,
): TokenRow[] {
  const basic = new Map(net.tokens.map((t) => [t.address.toLowerCase(), t]));
  const price = (a: string): number => basic.get(a)?.priceUsd ?? 0;
  const decimals = (a: string): number => basic.get(a)?.decimals ?? 18;
  const rows: TokenRow[] = net.tokens.map((t) => ({
    address: t.address.toLowerCase(),
    platform: 'basic',
    family: 'basic',
    name: t.name,
    symbol: t.symbol,
    decimals: t.decimals,
    underlying: [],
    poolAddress: null,
    price: t.priceUsd,
  }));
  rows.push({
    address: ZERO_ADDRESS,
    platform: 'native',
    family: 'native',
    name: 'Ether',
    symbol: 'ETH',
    decimals: 18,
    underlying: [],
    poolAddress: null,
    price: price(net.weth.toLowerCase()),
  });
  for (const p of pools.filter((x) => x.family === 'uniswap-v2')) {
    const tvl = units(p.reserve0, decimals(p.token0)) * price(p.token0) + units(p.reserve1, decimals(p.token1)) * price(p.token1);
    const symbol = `${basic.get(p.token0)?.symbol}/${basic.get(p.token1)?.symbol}`;
    rows.push({
      address: p.address,
      platform: p.platform,
      family: 'uniswap-v2',
      name: `${p.platform} ${symbol}`,
      symbol: `LP-${symbol}`,
      decimals: 18,
      underlying: [p.token0, p.token1],
      poolAddress: p.address,
      price: tvl / units(p.totalSupply, 18),
    });
  }
  for (const platform of net.platforms) {
    for (const v of platform.vaults) {
      const t = vaults.get(v.address.toLowerCase())!;
      const asset = v.asset.toLowerCase();
      rows.push({
        address: v.address.toLowerCase(),
        platform: platform.slug,
        family: 'erc4626',
        name: v.name,
        symbol: v.symbol,
        decimals: v.decimals,
        underlying: [asset],
        poolAddress: v.address.toLowerCase(),
        price: (units(t.totalAssets, decimals(asset)) / units(t.totalSupply, v.decimals)) * price(asset),
      });
    }
    const pool = platform.addresses['pool'];
    for (const m of platform.markets) {
      const asset = m.asset.toLowerCase();
      rows.push({
        address: m.aToken.toLowerCase(),
        platform: platform.slug,
        family: 'aave-v3',
        name: `Aave ${m.symbol}`,
        symbol: `a${m.symbol}`,
        decimals: decimals(asset),
        underlying: [asset],
        poolAddress: typeof pool === 'string' ? pool.toLowerCase() : null,
        price: price(asset),
      });
    }
  }
  return rows;
}

/** Writes pools, ticks, tokens and the cursor (block and hash) of `net` (current chain state) into `databaseUrl`. */
/** `ticks: false`: V3 pools without their ticks (the tick scan is slow on a busy machine; fine for tests that only need answers, not exact V3 amounts). */
export async function seedReadModels(
  databaseUrl: string,
  client: JsonRpcClient,
  net: DevnetNetworkLike,
  opts: { ticks?: boolean } = {},
): Promise<{ pools: ChainPool[]; block: number }> {
  const block = await headBlock(client);
  const pools = await readChainPools(client, net, opts);
  const vaults = await readVaultTotals(
    client,
    net.platforms.flatMap((p) => p.vaults.map((v) => v.address)),
  );
  const { hash } = await client.call<{ hash: string }>('eth_getBlockByNumber', [`0x${block.toString(16)}`, false]);
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    // The indexer's cursor: the graph loads this block (and hash) as the state's.
    await db.query(`INSERT INTO index_cursors (network, block_number, block_hash) VALUES ($1, $2, $3)`, [net.network, block, hash]);
    for (const p of pools) {
      await db.query(
        `INSERT INTO pools (network, address, platform, family, token0, token1, fee, tick_spacing, reserve0, reserve1, sqrt_price_x96, liquidity, tick, block_number, log_index)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,0)`,
        [
          net.network,
          p.address,
          p.platform,
          p.family,
          p.token0,
          p.token1,
          p.fee,
          p.tickSpacing,
          p.reserve0.toString(),
          p.reserve1.toString(),
          p.sqrtPriceX96?.toString() ?? null,
          p.liquidity?.toString() ?? null,
          p.tick,
          block,
        ],
      );
      for (const [tick, net_, gross] of p.ticks) {
        await db.query(
          `INSERT INTO pool_ticks (network, pool, tick, liquidity_net, liquidity_gross, block_number) VALUES ($1,$2,$3,$4,$5,$6)`,
          [net.network, p.address, tick, net_.toString(), gross.toString(), block],
        );
      }
    }
    for (const t of composedTokens(net, pools, vaults)) {
      await db.query(
        `INSERT INTO tokens (key, network, address, platform, family, name, symbol, decimals, underlying, pool_address, created_at, price) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,now(),$11)`,
        [
          `${net.network}:${t.address}`,
          net.network,
          t.address,
          t.platform,
          t.family,
          t.name,
          t.symbol,
          t.decimals,
          t.underlying,
          t.poolAddress,
          t.price,
        ],
      );
    }
  } finally {
    await db.end();
  }
  return { pools, block };
}
