/**
 * What the bridge followers persist (plain SQL over the tracker's pg Pool): per network the cursor
 * (last block read, with its hash), the recent batch ends (to find the common ancestor after a
 * reorg), and the deposits, fills and refunds read. A batch (its events, the tracking rows of the
 * deposits it matched to stored quotes, the new cursor) is written in one transaction, and only if
 * the cursor is still where the follower read it from, so a second follower (another replica that
 * briefly thought it led) or a crash can never leave half a batch or move the cursor backwards.
 */
import type { Pool, PoolClient } from 'pg';
import type { Network } from '@tokensvc/domain';
import { inTransaction } from '@tokensvc/persistence';
import type { CrossChainOrderStore, NewCrossChainOrder } from '../tracking/cross-chain-order-store';

export interface BlockRef {
  number: number;
  hash: string;
}

export type StoredEventKind = 'deposit' | 'fill' | 'refund';

export interface StoredBridgeEvent {
  network: Network;
  kind: StoredEventKind;
  requestId: string;
  /** the chain the request was deposited on */
  originChainId: number;
  txHash: string;
  blockNumber: number;
  blockHash: string;
  logIndex: number;
  /** deposits: a tracked order has this transaction */
  matched?: boolean;
}

export interface OrderKey {
  orderId: string;
  txHash: string;
}

/** How many batch ends per network are kept for the ancestor search (a reorg deeper than that re-reads from the oldest). */
export const KEPT_BATCH_ENDS = 256;
/** Events older than this are deleted (the tracker searches the chains for anything older). */
export const EVENT_RETENTION_MS = 7 * 24 * 3600_000;

interface EventRow {
  network: string;
  kind: StoredEventKind;
  request_id: string;
  origin_chain_id: string;
  tx_hash: string;
  block_number: string;
  block_hash: string;
  log_index: number;
  matched: boolean | null;
}

const fromRow = (r: EventRow): StoredBridgeEvent => ({
  network: r.network as Network,
  kind: r.kind,
  requestId: r.request_id,
  originChainId: Number(r.origin_chain_id),
  txHash: r.tx_hash,
  blockNumber: Number(r.block_number),
  blockHash: r.block_hash,
  logIndex: r.log_index,
  matched: r.matched ?? undefined,
});

export class BridgeEventStore {
  constructor(
    private readonly pool: Pool,
    private readonly orders: CrossChainOrderStore,
  ) {}

  async cursor(network: Network): Promise<BlockRef | undefined> {
    const { rows } = await this.pool.query<{ block_number: string; block_hash: string }>(
      `SELECT block_number, block_hash FROM tracker_follow_cursors WHERE network = $1`,
      [network],
    );
    return rows[0] && { number: Number(rows[0].block_number), hash: rows[0].block_hash };
  }

  /** Sets the first cursor of a network unless one exists; returns the cursor either way. */
  async initCursor(network: Network, start: BlockRef): Promise<BlockRef> {
    await this.pool.query(
      `WITH c AS (INSERT INTO tracker_follow_cursors (network, block_number, block_hash) VALUES ($1, $2, $3) ON CONFLICT (network) DO NOTHING RETURNING 1)
       INSERT INTO tracker_follow_blocks (network, block_number, block_hash) SELECT $1, $2, $3 FROM c ON CONFLICT DO NOTHING`,
      [network, start.number, start.hash],
    );
    return (await this.cursor(network))!;
  }

  /** The kept batch ends of a network, newest first (the cursor among them). */
  async recentBlocks(network: Network): Promise<BlockRef[]> {
    const { rows } = await this.pool.query<{ block_number: string; block_hash: string }>(
      `SELECT block_number, block_hash FROM tracker_follow_blocks WHERE network = $1 ORDER BY block_number DESC LIMIT $2`,
      [network, KEPT_BATCH_ENDS],
    );
    return rows.map((r) => ({ number: Number(r.block_number), hash: r.block_hash }));
  }

  /**
   * Writes one batch read from `from` (the cursor it was read after) up to `to`: its events, the
   * tracking rows of newly matched orders, and the cursor. False (nothing written) when the cursor
   * is no longer `from`. Returns the rows actually created (an order may have been created by a
   * status request meanwhile).
   */
  async commit(
    network: Network,
    from: BlockRef,
    to: BlockRef,
    events: readonly StoredBridgeEvent[],
    newOrders: readonly NewCrossChainOrder[],
  ): Promise<{ ok: boolean; created: OrderKey[] }> {
    return this.transaction(async (db) => {
      if (!(await this.lockCursor(db, network, from))) return { ok: false, created: [] };
      if (events.length > 0) {
        await db.query(
          `INSERT INTO tracker_bridge_events (network, block_number, log_index, block_hash, tx_hash, kind, request_id, origin_chain_id, matched)
           SELECT $1, * FROM unnest($2::bigint[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::bigint[], $9::boolean[])
           ON CONFLICT (network, block_number, log_index) DO UPDATE
             SET block_hash = EXCLUDED.block_hash, tx_hash = EXCLUDED.tx_hash, kind = EXCLUDED.kind, request_id = EXCLUDED.request_id,
                 origin_chain_id = EXCLUDED.origin_chain_id, matched = EXCLUDED.matched, seen_at = now()`,
          [
            network,
            events.map((e) => e.blockNumber),
            events.map((e) => e.logIndex),
            events.map((e) => e.blockHash),
            events.map((e) => e.txHash),
            events.map((e) => e.kind),
            events.map((e) => e.requestId),
            events.map((e) => e.originChainId),
            events.map((e) => e.matched ?? null),
          ],
        );
      }
      const created = await this.orders.createMany(newOrders, db);
      await db.query(`UPDATE tracker_follow_cursors SET block_number = $2, block_hash = $3, updated_at = now() WHERE network = $1`, [
        network,
        to.number,
        to.hash,
      ]);
      await db.query(
        `INSERT INTO tracker_follow_blocks (network, block_number, block_hash) VALUES ($1, $2, $3) ON CONFLICT (network, block_number) DO UPDATE SET block_hash = EXCLUDED.block_hash`,
        [network, to.number, to.hash],
      );
      await db.query(
        `DELETE FROM tracker_follow_blocks WHERE network = $1 AND block_number <= (SELECT block_number FROM tracker_follow_blocks WHERE network = $1 ORDER BY block_number DESC OFFSET $2 LIMIT 1)`,
        [network, KEPT_BATCH_ENDS],
      );
      return { ok: true, created };
    });
  }

  /**
   * After a reorg: forgets everything read above `ancestor` (events and batch ends) and moves the
   * cursor back to it. False when the cursor is no longer `from`. Returns how many events went.
   */
  async rewind(network: Network, from: BlockRef, ancestor: BlockRef): Promise<{ ok: boolean; removedEvents: number }> {
    return this.transaction(async (db) => {
      if (!(await this.lockCursor(db, network, from))) return { ok: false, removedEvents: 0 };
      const removed = await db.query(`DELETE FROM tracker_bridge_events WHERE network = $1 AND block_number > $2`, [
        network,
        ancestor.number,
      ]);
      await db.query(`DELETE FROM tracker_follow_blocks WHERE network = $1 AND block_number > $2`, [network, ancestor.number]);
      await db.query(
        `INSERT INTO tracker_follow_blocks (network, block_number, block_hash) VALUES ($1, $2, $3) ON CONFLICT (network, block_number) DO UPDATE SET block_hash = EXCLUDED.block_hash`,
        [network, ancestor.number, ancestor.hash],
      );
      await db.query(`UPDATE tracker_follow_cursors SET block_number = $2, block_hash = $3, updated_at = now() WHERE network = $1`, [
        network,
        ancestor.number,
        ancestor.hash,
      ]);
      return { ok: true, removedEvents: removed.rowCount ?? 0 };
    });
  }

  /** The stored fills and refunds of a request (any network; the caller checks which apply). */
  async settlementEvents(requestId: string): Promise<StoredBridgeEvent[]> {
    const { rows } = await this.pool.query<EventRow>(
      `SELECT * FROM tracker_bridge_events WHERE request_id = $1 AND kind IN ('fill', 'refund') ORDER BY block_number, log_index`,
      [requestId],
    );
    return rows.map(fromRow);
  }

  /** Every stored event of a network (tests and diagnostics). */
  async events(network: Network): Promise<StoredBridgeEvent[]> {
    const { rows } = await this.pool.query<EventRow>(
      `SELECT * FROM tracker_bridge_events WHERE network = $1 ORDER BY block_number, log_index`,
      [network],
    );
    return rows.map(fromRow);
  }

  /** Transaction hashes among `txHashes` that some tracked order (open or not) already has. */
  async trackedTxHashes(txHashes: readonly string[]): Promise<Set<string>> {
    if (txHashes.length === 0) return new Set();
    const { rows } = await this.pool.query<{ tx_hash: string }>(
      `SELECT DISTINCT tx_hash FROM cross_chain_orders WHERE tx_hash = ANY($1::text[])`,
      [txHashes],
    );
    return new Set(rows.map((r) => r.tx_hash));
  }

  /** The open orders the events of one batch concern: deposits by transaction, fills and refunds by request. */
  async openOrdersFor(network: Network, events: readonly StoredBridgeEvent[]): Promise<OrderKey[]> {
    const txHashes = events.filter((e) => e.kind === 'deposit').map((e) => e.txHash);
    const settlements = events.filter((e) => e.kind !== 'deposit');
    if (txHashes.length === 0 && settlements.length === 0) return [];
    const { rows } = await this.pool.query<{
      order_id: string;
      tx_hash: string;
      request_id: string | null;
      from_network: string;
      from_chain_id: string;
      to_network: string | null;
    }>(
      `SELECT order_id, tx_hash, request_id, from_network, from_chain_id, to_network FROM cross_chain_orders
        WHERE terminal_at IS NULL AND (tx_hash = ANY($1::text[]) OR request_id = ANY($2::text[]))`,
      [txHashes, settlements.map((e) => e.requestId)],
    );
    const deposits = new Set(txHashes);
    return rows
      .filter(
        (r) =>
          (deposits.has(r.tx_hash) && r.from_network === network) ||
          settlements.some(
            (e) =>
              e.requestId === r.request_id &&
              (e.kind === 'fill' ? r.to_network === network && e.originChainId === Number(r.from_chain_id) : r.from_network === network),
          ),
      )
      .map((r) => ({ orderId: r.order_id, txHash: r.tx_hash }));
  }

  /** Open orders with a stored event they have not acted on (woken once when a follower starts: wakes lost in a crash). */
  async openOrdersWithEvents(network: Network): Promise<OrderKey[]> {
    const { rows } = await this.pool.query<{ order_id: string; tx_hash: string }>(
      `SELECT o.order_id, o.tx_hash FROM cross_chain_orders o
        WHERE o.terminal_at IS NULL AND o.status = 'PENDING' AND o.from_network = $1
          AND EXISTS (SELECT 1 FROM tracker_bridge_events e WHERE e.network = $1 AND e.kind = 'deposit' AND e.tx_hash = o.tx_hash)
       UNION
       SELECT o.order_id, o.tx_hash FROM cross_chain_orders o
        WHERE o.terminal_at IS NULL AND o.status = 'ONGOING'
          AND EXISTS (SELECT 1 FROM tracker_bridge_events e WHERE e.request_id = o.request_id AND e.network = $1
                        AND ((e.kind = 'fill' AND o.to_network = $1 AND e.origin_chain_id = o.from_chain_id) OR (e.kind = 'refund' AND o.from_network = $1)))`,
      [network],
    );
    return rows.map((r) => ({ orderId: r.order_id, txHash: r.tx_hash }));
  }

  /** Deletes events past their retention; returns how many. */
  async prune(now = Date.now()): Promise<number> {
    const r = await this.pool.query(`DELETE FROM tracker_bridge_events WHERE seen_at < $1`, [new Date(now - EVENT_RETENTION_MS)]);
    return r.rowCount ?? 0;
  }

  private async lockCursor(db: PoolClient, network: Network, expected: BlockRef): Promise<boolean> {
    const { rows } = await db.query<{ block_number: string; block_hash: string }>(
      `SELECT block_number, block_hash FROM tracker_follow_cursors WHERE network = $1 FOR UPDATE`,
      [network],
    );
    const r = rows[0];
    return r !== undefined && Number(r.block_number) === expected.number && r.block_hash === expected.hash;
  }

  private transaction<T>(work: (db: PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, work);
  }
}
