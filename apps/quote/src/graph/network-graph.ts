/**
 * The in-memory liquidity graph of one network: every pool's latest state, the token catalog and
 * which platform each pool belongs to. Filled from Postgres at start, then kept fresh by the
 * indexer's PoolStateChanged events (applied only when newer than what is held, or when a reorg
 * rollback restored an older state). Quotes read snapshots and never wait for I/O.
 */
import type { Pool, V3Tick } from '@tokensvc/routing';
import type { CatalogToken } from './catalog';

export interface PoolPosition {
  block: number;
  logIndex: number;
}

export interface GraphPool {
  pool: Pool;
  platform: string;
  position: PoolPosition;
}

/** A pool state as events and rows carry it (ticks travel separately). */
export interface PoolUpdate {
  pool: Pool;
  platform: string;
  position: PoolPosition;
  /** a reorg rollback set the pool back: replace whatever is held */
  restored: boolean;
}

export type UpdateOutcome = 'added' | 'updated' | 'stale';

function newer(a: PoolPosition, b: PoolPosition): boolean {
  return a.block > b.block || (a.block === b.block && a.logIndex > b.logIndex);
}

export class NetworkGraph {
  private readonly pools = new Map<string, GraphPool>();
  private tokens = new Map<string, CatalogToken>();
  /** bumped on every change; lets callers cache derived structures */
  version = 0;

  constructor(readonly network: string) {}

  applyPool(update: PoolUpdate): UpdateOutcome {
    const address = update.pool.address;
    const held = this.pools.get(address);
    if (held && !update.restored && !newer(update.position, held.position)) return 'stale';
    // Events carry no tick lists: a V3 pool keeps its ticks until they are re-read.
    const pool = update.pool.family === 'uniswap-v3' && held?.pool.family === 'uniswap-v3' && update.pool.ticks.length === 0 ? { ...update.pool, ticks: held.pool.ticks } : update.pool;
    this.pools.set(address, { pool, platform: update.platform, position: update.position });
    this.version++;
    return held ? 'updated' : 'added';
  }

  setTicks(address: string, ticks: readonly V3Tick[]): boolean {
    const held = this.pools.get(address);
    if (!held || held.pool.family !== 'uniswap-v3') return false;
    this.pools.set(address, { ...held, pool: { ...held.pool, ticks: [...ticks].sort((a, b) => a.index - b.index) } });
    this.version++;
    return true;
  }

  replaceTokens(tokens: Iterable<CatalogToken>): void {
    this.tokens = new Map([...tokens].map((t) => [t.address, t]));
    this.version++;
  }

  token(address: string): CatalogToken | undefined {
    return this.tokens.get(address);
  }

  allTokens(): CatalogToken[] {
    return [...this.tokens.values()];
  }

  pool(address: string): GraphPool | undefined {
    return this.pools.get(address);
  }

  poolList(): GraphPool[] {
    return [...this.pools.values()];
  }

  get poolCount(): number {
    return this.pools.size;
  }
}
