/**
 * The `cross_chain_orders` rows (one per order id and origin transaction) and the stored quotes of
 * `orders` (written by the quote service, kept a week). Plain SQL over a pg Pool. Terminal states
 * are written with `WHERE terminal_at IS NULL`, so whichever worker gets there first writes it and
 * every later attempt (a second worker after a lock takeover, a replay) changes nothing.
 */
import type { Pool, PoolClient } from 'pg';
import type { Network } from '@tokensvc/domain';
import { inTransaction } from '@tokensvc/persistence';
import { appendStatusEvent } from './status-outbox';
import type { CrossChainOrder, StoredQuote } from './cross-chain-order';
import type { CrossChainStatus, SeenDeposit, TerminalStatus } from './transition';

export type { CrossChainOrder, StoredQuote } from './cross-chain-order';

interface Row {
  order_id: string;
  tx_hash: string;
  status: CrossChainStatus;
  status_reason: string | null;
  provider: string;
  request_id: string | null;
  from_network: string;
  from_chain_id: string;
  to_network: string | null;
  to_chain_id: string | null;
  origin_tx_hashes: string[];
  destination_tx_hashes: string[];
  deposit_block: string | null;
  fill_deadline: string | null;
  created_at: Date;
  updated_at: Date;
  terminal_at: Date | null;
  event_seq: number;
}

const num = (v: string | null): number | undefined => (v === null ? undefined : Number(v));

function fromRow(r: Row): CrossChainOrder {
  return {
    orderId: r.order_id,
    txHash: r.tx_hash,
    status: r.status,
    statusReason: r.status_reason ?? undefined,
    provider: r.provider,
    requestId: r.request_id ?? undefined,
    fromNetwork: r.from_network as Network,
    fromChainId: Number(r.from_chain_id),
    toNetwork: (r.to_network ?? undefined) as Network | undefined,
    toChainId: num(r.to_chain_id),
    originTxHashes: r.origin_tx_hashes,
    destinationTxHashes: r.destination_tx_hashes,
    depositBlock: num(r.deposit_block),
    fillDeadline: num(r.fill_deadline),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    terminalAt: r.terminal_at ?? undefined,
    eventSeq: r.event_seq,
  };
}

export interface NewCrossChainOrder {
  orderId: string;
  txHash: string;
  provider: string;
  fromNetwork: Network;
  fromChainId: number;
  toNetwork: Network | undefined;
  toChainId: number | undefined;
}

/** `createBounded`: the row, or why none was created (the order has its most rows; the transaction is another order's). */
export type CreateOutcome = { row: CrossChainOrder } | { refused: 'order-full' | 'tx-taken'; count: number };

export class CrossChainOrderStore {
  constructor(private readonly pool: Pool) {}

  /** Creates the PENDING row unless it exists; returns the row either way. */
  async create(o: NewCrossChainOrder): Promise<CrossChainOrder> {
    await this.pool.query(
      `INSERT INTO cross_chain_orders (order_id, tx_hash, status, provider, from_network, from_chain_id, to_network, to_chain_id, origin_tx_hashes)
       VALUES ($1, $2, 'PENDING', $3, $4, $5, $6, $7, $8)
       ON CONFLICT (order_id, tx_hash) DO NOTHING`,
      [o.orderId, o.txHash, o.provider, o.fromNetwork, o.fromChainId, o.toNetwork ?? null, o.toChainId ?? null, [o.txHash]],
    );
    const row = await this.get(o.orderId, o.txHash);
    if (!row) throw new Error(`cross-chain order ${o.orderId}/${o.txHash} vanished after its insert`);
    return row;
  }

  /**
   * A status request's row, bounded (issue 16): created only while the order has fewer than
   * `maxPerOrder` rows and, with `txUnclaimed` (no stored quote vouches for the order id), only
   * while no other order tracks the transaction. The checks and the insert hold transaction
   * advisory locks on the order (then the transaction), so concurrent requests cannot pass a
   * bound together. An existing (order, tx) row is returned as it is, also one the bridge
   * follower inserted meanwhile (it does not take these locks; its insert and this one both
   * leave the row as the first wrote it).
   */
  async createBounded(o: NewCrossChainOrder, maxPerOrder: number, opts: { txUnclaimed?: boolean } = {}): Promise<CreateOutcome> {
    const refused = await inTransaction(this.pool, async (client): Promise<CreateOutcome | undefined> => {
      await client.query(`SELECT pg_advisory_xact_lock(hashtextextended('cross_chain_orders:order:' || $1, 0))`, [o.orderId]);
      if (opts.txUnclaimed)
        await client.query(`SELECT pg_advisory_xact_lock(hashtextextended('cross_chain_orders:tx:' || $1, 0))`, [o.txHash]);
      const { rows } = await client.query<{ n: string; mine: boolean; other: boolean }>(
        `SELECT count(*) FILTER (WHERE order_id = $1) AS n,
                bool_or(order_id = $1 AND tx_hash = $2) AS mine,
                bool_or(order_id <> $1 AND tx_hash = $2) AS other
           FROM cross_chain_orders WHERE order_id = $1 OR tx_hash = $2`,
        [o.orderId, o.txHash],
      );
      const seen = rows[0]!;
      let outcome: CreateOutcome | undefined;
      if (!seen.mine) {
        if (Number(seen.n) >= maxPerOrder) outcome = { refused: 'order-full', count: Number(seen.n) };
        else if (opts.txUnclaimed && seen.other) outcome = { refused: 'tx-taken', count: Number(seen.n) };
        else
          await client.query(
            `INSERT INTO cross_chain_orders (order_id, tx_hash, status, provider, from_network, from_chain_id, to_network, to_chain_id, origin_tx_hashes)
             VALUES ($1, $2, 'PENDING', $3, $4, $5, $6, $7, $8)
             ON CONFLICT (order_id, tx_hash) DO NOTHING`,
            [o.orderId, o.txHash, o.provider, o.fromNetwork, o.fromChainId, o.toNetwork ?? null, o.toChainId ?? null, [o.txHash]],
          );
      }
      return outcome;
    });
    if (refused) return refused;
    const row = await this.get(o.orderId, o.txHash);
    if (!row) throw new Error(`cross-chain order ${o.orderId}/${o.txHash} vanished after its insert`);
    return { row };
  }

  async get(orderId: string, txHash: string): Promise<CrossChainOrder | undefined> {
    const { rows } = await this.pool.query<Row>(`SELECT * FROM cross_chain_orders WHERE order_id = $1 AND tx_hash = $2`, [orderId, txHash]);
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

  /**
   * Creates the PENDING rows among `orders` that do not exist yet, on `db` (the bridge follower
   * writes them in its batch transaction); returns the ones it created.
   */
  async createMany(
    orders: readonly NewCrossChainOrder[],
    db: Pick<PoolClient, 'query'> = this.pool,
  ): Promise<Array<{ orderId: string; txHash: string }>> {
    if (orders.length === 0) return [];
    const { rows } = await db.query<{ order_id: string; tx_hash: string }>(
      `INSERT INTO cross_chain_orders (order_id, tx_hash, status, provider, from_network, from_chain_id, to_network, to_chain_id, origin_tx_hashes)
       SELECT o, t, 'PENDING', p, fn, fc, tn, tc, ARRAY[t]
         FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::bigint[]) AS x(o, t, p, fn, fc, tn, tc)
       ON CONFLICT (order_id, tx_hash) DO NOTHING
       RETURNING order_id, tx_hash`,
      [
        orders.map((o) => o.orderId),
        orders.map((o) => o.txHash),
        orders.map((o) => o.provider),
        orders.map((o) => o.fromNetwork),
        orders.map((o) => o.fromChainId),
        orders.map((o) => o.toNetwork ?? null),
        orders.map((o) => o.toChainId ?? null),
      ],
    );
    return rows.map((r) => ({ orderId: r.order_id, txHash: r.tx_hash }));
  }

  /**
   * An ONGOING order whose origin transaction now makes another deposit than `fromRequestId` (it
   * was mined again after a reorg): the order follows that deposit. The status does not change (no
   * transition, no status event); false when the row moved on meanwhile.
   */
  async rebindDeposit(orderId: string, txHash: string, fromRequestId: string, d: SeenDeposit): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE cross_chain_orders
          SET request_id = $4, to_network = COALESCE($5, to_network), to_chain_id = $6, deposit_block = $7, fill_deadline = $8, updated_at = now()
        WHERE order_id = $1 AND tx_hash = $2 AND status = 'ONGOING' AND terminal_at IS NULL AND request_id = $3`,
      [orderId, txHash, fromRequestId, d.requestId, d.destinationNetwork ?? null, d.destinationChainId, d.blockNumber, d.fillDeadline],
    );
    return (r.rowCount ?? 0) === 1;
  }

  /**
   * The kept cross-chain quotes of `network` whose `tx.data` has one of the md5 digests `dataMd5s`
   * (of the lowercase hex; `orders_cross_chain_tx_data_idx`). The caller compares the data itself.
   */
  async crossChainQuotesByTxData(
    network: Network,
    dataMd5s: readonly string[],
    limit = 1_000,
  ): Promise<Array<StoredQuote & { orderId: string }>> {
    if (dataMd5s.length === 0) return [];
    const { rows } = await this.pool.query<{ order_id: string; network: string; chain_id: number; context: unknown; tx: unknown }>(
      `SELECT order_id, network, chain_id, context, tx FROM orders
        WHERE md5(lower(tx->>'data')) = ANY($2::text[]) AND split_part(context->>'outputToken', ':', 1) <> network
          AND network = $1 AND keep_until > now()
        ORDER BY created_at LIMIT $3`,
      [network, dataMd5s, limit],
    );
    return rows.map((r) => ({ orderId: r.order_id, network: r.network as Network, chainId: r.chain_id, context: r.context, tx: r.tx }));
  }

  /**
   * PENDING -> ONGOING with what the deposit says; false when the row had moved on already.
   * The status event (outbox) is written in the same transaction.
   */
  async markOngoing(orderId: string, txHash: string, d: SeenDeposit): Promise<boolean> {
    return this.transition(
      `UPDATE cross_chain_orders
          SET status = 'ONGOING', request_id = $3, to_network = COALESCE($4, to_network), to_chain_id = $5, deposit_block = $6, fill_deadline = $7, updated_at = now(), event_seq = event_seq + 1
        WHERE order_id = $1 AND tx_hash = $2 AND status = 'PENDING' AND terminal_at IS NULL
        RETURNING *`,
      [orderId, txHash, d.requestId, d.destinationNetwork ?? null, d.destinationChainId, d.blockNumber, d.fillDeadline],
    );
  }

  /** Writes the terminal state once, with its status event; true only for the call that wrote it. */
  async finish(
    orderId: string,
    txHash: string,
    status: TerminalStatus,
    statusReason: string | undefined,
    destinationTxHashes: readonly string[],
  ): Promise<boolean> {
    return this.transition(
      `UPDATE cross_chain_orders
          SET status = $3, status_reason = $4, destination_tx_hashes = $5, terminal_at = now(), updated_at = now(), event_seq = event_seq + 1
        WHERE order_id = $1 AND tx_hash = $2 AND terminal_at IS NULL
        RETURNING *`,
      [orderId, txHash, status, statusReason ?? null, destinationTxHashes],
    );
  }

  /**
   * One guarded state change (`UPDATE ... RETURNING *` that bumps `event_seq`) and its row in the
   * `status_events` outbox, in one transaction: a transition is never written without its event,
   * nor an event without its transition. The row lock taken by the UPDATE orders two writers of
   * the same order, so the second sees the first's seq (or, guarded, changes nothing).
   */
  private transition(sql: string, params: unknown[]): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<Row>(sql, params);
      if (rows[0]) await appendStatusEvent(client, fromRow(rows[0]));
      return rows.length === 1;
    });
  }

  /** Every order not yet terminal (the queue is re-filled from these). */
  async open(limit = 100_000): Promise<Array<{ orderId: string; txHash: string }>> {
    const { rows } = await this.pool.query<{ order_id: string; tx_hash: string }>(
      `SELECT order_id, tx_hash FROM cross_chain_orders WHERE terminal_at IS NULL ORDER BY created_at LIMIT $1`,
      [limit],
    );
    return rows.map((r) => ({ orderId: r.order_id, txHash: r.tx_hash }));
  }

  /** The stored quote, or undefined when it was never stored or is past its week. */
  async quote(orderId: string): Promise<StoredQuote | undefined> {
    const { rows } = await this.pool.query<{ network: string; chain_id: number; context: unknown; tx: unknown }>(
      `SELECT network, chain_id, context, tx FROM orders WHERE order_id = $1 AND keep_until > now()`,
      [orderId],
    );
    const r = rows[0];
    return r ? { network: r.network as Network, chainId: r.chain_id, context: r.context, tx: r.tx } : undefined;
  }
}
