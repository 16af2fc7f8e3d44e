/**
 * The in-memory liquidity graph of one network: every pool's latest state, the token catalog and
 * which platform each pool belongs to, and the block that state is (`head`). Filled from Postgres
 * at start (pools and the indexer's cursor in one snapshot), then kept fresh by the indexer's
 * PoolStateChanged events, which wait in `pending` until the IndexedHead that follows them: then
 * they are applied together (each only when newer than what is held, or when a reorg rollback
 * restored an older state) and the head moves, in one synchronous step. Quotes take `snapshot()`
 * and never wait for I/O, so the block they report is the block of the state they used.
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

/** The block the graph's pool states are: the indexer's committed cursor when it published them. */
export interface GraphHead {
  blockNumber: number;
  /** '' until the graph has seen a block with its hash */
  blockHash: string;
  /** the indexer's rollback count: a head of a higher epoch may be lower */
  reorgEpoch: number;
}

/** What a quote computes from: the pools as of `head`, taken in one synchronous step. */
export interface GraphSnapshot {
  pools: Map<string, Pool>;
  head: GraphHead;
}

function newer(a: PoolPosition, b: PoolPosition): boolean {
  return a.block > b.block || (a.block === b.block && a.logIndex > b.logIndex);
}

export class NetworkGraph {
  private readonly pools = new Map<string, GraphPool>();
  private tokens = new Map<string, CatalogToken>();
  /** bumped on every change; lets callers cache derived structures */
  version = 0;
  private currentHead: GraphHead = { blockNumber: 0, blockHash: '', reorgEpoch: 0 };
  /** pool states received since the last head: applied when the next head arrives */
  private pending: PoolUpdate[] = [];

  constructor(readonly network: string) {}

  applyPool(update: PoolUpdate): UpdateOutcome {
    const address = update.pool.address;
    const held = this.pools.get(address);
    if (held && !update.restored && !newer(update.position, held.position)) return 'stale';
    // Events carry no tick lists: a concentrated-liquidity pool keeps its ticks until they are re-read.
    const pool =
      update.pool.shape === 'concentrated' && held?.pool.shape === 'concentrated' && update.pool.ticks.length === 0
        ? { ...update.pool, ticks: held.pool.ticks }
        : update.pool;
    this.pools.set(address, { pool, platform: update.platform, position: update.position });
    this.version++;
    return held ? 'updated' : 'added';
  }

  /** A pool state from the event stream: held back until the head that closes its batch. */
  queuePool(update: PoolUpdate): void {
    this.pending.push(update);
  }

  get pendingCount(): number {
    return this.pending.length;
  }

  get head(): GraphHead {
    return this.currentHead;
  }

  /** The state loaded from the database is at this block. */
  setHead(head: GraphHead): void {
    this.currentHead = { ...head };
  }

  /**
   * Applies the pool states queued since the last head and moves to `head`, unless it is older
   * than the one held in the same reorg epoch (a replay): then the states are applied by their
   * own positions (replays are stale) and the head stays. Returns the updates that changed a pool.
   */
  applyHead(head: GraphHead): PoolUpdate[] {
    const changed = this.pending.filter((u) => this.applyPool(u) !== 'stale');
    this.pending = [];
    const held = this.currentHead;
    if (head.reorgEpoch > held.reorgEpoch || (head.reorgEpoch === held.reorgEpoch && head.blockNumber >= held.blockNumber)) {
      this.currentHead = { ...head };
      this.version++;
    }
    return changed;
  }

  /** Every pool as of `head` (one synchronous copy: later events do not reach it). */
  snapshot(): GraphSnapshot {
    return { pools: new Map([...this.pools.values()].map((p) => [p.pool.address, p.pool])), head: { ...this.currentHead } };
  }

  setTicks(address: string, ticks: readonly V3Tick[]): boolean {
    const held = this.pools.get(address);
    if (!held || held.pool.shape !== 'concentrated') return false;
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
