/**
 * Reads of the indexer's read models that fill the liquidity graph. Only the graph loader and the
 * background refreshers call these; a quote never touches the database.
 */
import type { DataSource, EntityManager } from 'typeorm';
import type { Network } from '@tokensvc/domain';
import type { IndexCursorTableRow, PoolTableRow, TokenTableRow } from '@tokensvc/persistence';
import type { V3Tick } from '@tokensvc/routing';
import type { CatalogToken } from './catalog';
import type { GraphHead, PoolUpdate } from './network-graph';
import { toPool } from './pool-codec';

type PoolRow = PoolTableRow;

interface TickRow {
  pool: string;
  tick: number;
  liquidity_net: string;
}

type TokenRow = Pick<
  TokenTableRow,
  'address' | 'symbol' | 'name' | 'decimals' | 'family' | 'platform' | 'underlying' | 'pool_address' | 'price'
>;

type CursorRow = Pick<IndexCursorTableRow, 'block_number' | 'block_hash' | 'reorg_epoch'>;

/** A network's pools and ticks and the indexer's cursor block, read in one database snapshot. */
export interface GraphLoad {
  pools: PoolUpdate[];
  ticks: Map<string, V3Tick[]>;
  head: GraphHead;
}

export class GraphRepository {
  constructor(private readonly ds: DataSource) {}

  /**
   * One REPEATABLE READ transaction: the indexer moves its cursor in the transaction that writes
   * the batch's pools, so the pools read here are exactly the state at the cursor's block.
   */
  load(network: Network): Promise<GraphLoad> {
    return this.ds.transaction('REPEATABLE READ', async (m) => {
      const pools = await this.pools(network, m);
      const ticks = await this.ticks(network, undefined, m);
      const [c]: CursorRow[] = await m.query(`SELECT block_number::text, block_hash, reorg_epoch FROM index_cursors WHERE network = $1`, [
        network,
      ]);
      // Without a cursor (a database filled by other means) the block is the newest pool change's.
      const head: GraphHead = c
        ? { blockNumber: Number(c.block_number), blockHash: c.block_hash, reorgEpoch: c.reorg_epoch }
        : { blockNumber: Math.max(0, ...pools.map((p) => p.position.block)), blockHash: '', reorgEpoch: 0 };
      return { pools, ticks, head };
    });
  }

  async pools(network: Network, m: DataSource | EntityManager = this.ds): Promise<PoolUpdate[]> {
    const rows: PoolRow[] = await m.query(
      `SELECT address, platform, family, token0, token1, fee, tick_spacing, reserve0::text, reserve1::text, sqrt_price_x96::text, liquidity::text, tick, block_number::text, log_index
       FROM pools WHERE network = $1`,
      [network],
    );
    const out: PoolUpdate[] = [];
    for (const r of rows) {
      const pool = toPool({ ...r, tickSpacing: r.tick_spacing, sqrtPriceX96: r.sqrt_price_x96 });
      if (pool)
        out.push({ pool, platform: r.platform, position: { block: Number(r.block_number), logIndex: r.log_index }, restored: false });
    }
    return out;
  }

  /** Initialized ticks (liquidityGross > 0) by pool, ascending; all V3 pools when `pools` is omitted. */
  async ticks(network: Network, pools?: readonly string[], m: DataSource | EntityManager = this.ds): Promise<Map<string, V3Tick[]>> {
    const rows: TickRow[] = await m.query(
      `SELECT pool, tick, liquidity_net::text FROM pool_ticks
       WHERE network = $1 AND liquidity_gross > 0 ${pools ? 'AND pool = ANY($2::text[])' : ''} ORDER BY pool, tick`,
      pools ? [network, pools] : [network],
    );
    const out = new Map<string, V3Tick[]>((pools ?? []).map((p) => [p, []]));
    for (const r of rows) {
      let list = out.get(r.pool);
      if (!list) out.set(r.pool, (list = []));
      list.push({ index: r.tick, liquidityNet: BigInt(r.liquidity_net) });
    }
    return out;
  }

  async tokens(network: Network): Promise<CatalogToken[]> {
    const rows: TokenRow[] = await this.ds.query(
      `SELECT address, symbol, name, decimals, family, platform, underlying, pool_address, price FROM tokens WHERE network = $1`,
      [network],
    );
    return rows.map((r) => ({
      address: r.address.toLowerCase(),
      symbol: r.symbol,
      name: r.name,
      decimals: r.decimals,
      family: r.family,
      platform: r.platform,
      underlying: r.underlying.map((u) => u.toLowerCase()),
      poolAddress: r.pool_address?.toLowerCase() ?? null,
      priceUsd: Number(r.price) || 0,
    }));
  }
}
