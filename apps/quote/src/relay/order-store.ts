/**
 * Orders of `GET /v2/portal`, stored under their `orderId` for a week so that POST can relay the
 * signed variant and `GET /v2/portal/status` can return them. Plain SQL over a pg Pool (the relayer
 * locks an order's row in its own claim transaction, relay-records.ts).
 *
 * Bounded per client (issue 30): a quote needs no key, so every order names the client the
 * gateway saw (`key:<id>`, or `ip:<address or IPv6 /64>`), and a client keeps at most
 * `maxPerClient` (`ip:` clients `maxPerAnonymousClient`) orders that were neither submitted
 * (relay_submissions) nor tracked (cross_chain_orders): each save evicts that client's oldest
 * beyond the bound. The executor calls are not stored twice: they are read back from the stored
 * transaction.
 */
import type { Pool } from 'pg';
import { type ExecutorCall, decodeOrderCalls } from '@tokensvc/contracts';
import type { Network } from '@tokensvc/domain';
import { OrderReply } from '@tokensvc/messages';
import { DEFAULT_ORDER_STORE_BOUNDS, type OrderStoreBounds } from '../config/quote-config';

export interface StoredOrder {
  orderId: string;
  network: Network;
  chainId: number;
  sender: string;
  createdAt: Date;
  expiresAt: Date;
  keepUntil: Date;
  reply: OrderReply;
  calls: ExecutorCall[];
}

interface OrderRow {
  order_id: string;
  network: string;
  chain_id: number;
  sender: string;
  created_at: Date;
  expires_at: Date;
  keep_until: Date;
  context: unknown;
  tx: unknown;
  signed_order: unknown;
  /** written by earlier versions only: the calls are read back from `tx.data` */
  calls: Array<{
    target: string;
    value: string;
    data: string;
    inputs: Array<{ token: string; bps: number; amount: string; offset: number; approve: boolean }>;
  }> | null;
}

const RETENTION_MS = 7 * 24 * 3600 * 1000;

function fromRow(r: OrderRow): StoredOrder {
  const reply = OrderReply.fromJSON({ context: r.context, tx: r.tx, signedOrder: r.signed_order ?? undefined });
  return {
    orderId: r.order_id,
    network: r.network as Network,
    chainId: r.chain_id,
    sender: r.sender,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    keepUntil: r.keep_until,
    reply,
    calls: r.calls
      ? r.calls.map((c) => ({
          target: c.target,
          value: BigInt(c.value),
          data: c.data,
          inputs: c.inputs.map((i) => ({ ...i, amount: BigInt(i.amount) })),
        }))
      : decodeOrderCalls(reply.tx!.data),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export class OrderStore {
  constructor(
    private readonly pool: Pool,
    private readonly bounds: OrderStoreBounds = DEFAULT_ORDER_STORE_BOUNDS,
  ) {}

  /**
   * Stores an order; with a `client`, then evicts that client's oldest open orders beyond its bound.
   * The executor calls are not stored: `reply.tx.data` holds them (read back with decodeOrderCalls
   * when the order is read). Not re-checked here: a decode and two route hashes cost about 2.4 ms,
   * on the quote path; orders.int-spec.ts checks the read-back calls against context.routeHash.
   */
  async save(
    o: { orderId: string; network: Network; chainId: number; sender: string; client?: string; expiresAt: Date; reply: OrderReply },
    now = new Date(),
  ): Promise<void> {
    const json = OrderReply.toJSON(o.reply) as { context?: unknown; tx?: unknown; signedOrder?: unknown };
    const client = o.client || null;
    await this.pool.query(
      `INSERT INTO orders (order_id, network, chain_id, sender, client, created_at, expires_at, keep_until, context, tx, signed_order)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        o.orderId,
        o.network,
        o.chainId,
        o.sender.toLowerCase(),
        client,
        now,
        o.expiresAt,
        new Date(now.getTime() + RETENTION_MS),
        json.context,
        json.tx,
        json.signedOrder ?? null,
      ],
    );
    if (client !== null) await this.evictBeyondBound(client);
  }

  /** The client's bound: anonymous clients (`ip:`) have the smaller one. */
  boundOf(client: string): number {
    return client.startsWith('ip:') ? this.bounds.maxPerAnonymousClient : this.bounds.maxPerClient;
  }

  /** Deletes the client's oldest orders beyond its bound among those neither submitted nor tracked; returns how many. */
  async evictBeyondBound(client: string): Promise<number> {
    const r = await this.pool.query(
      `DELETE FROM orders WHERE order_id IN (
         SELECT o.order_id FROM orders o
          WHERE o.client = $1
            AND NOT EXISTS (SELECT 1 FROM relay_submissions s WHERE s.order_id = o.order_id)
            AND NOT EXISTS (SELECT 1 FROM cross_chain_orders c WHERE c.order_id = o.order_id)
          ORDER BY o.created_at DESC, o.order_id
          OFFSET $2
          -- an order being submitted right now holds its row lock (relay-records.ts): not evicted
          FOR UPDATE OF o SKIP LOCKED)`,
      [client, this.boundOf(client)],
    );
    return r.rowCount ?? 0;
  }

  /** The order, or undefined when it was never stored or is past its week. */
  async find(orderId: string): Promise<StoredOrder | undefined> {
    if (!UUID.test(orderId)) return undefined;
    const { rows } = await this.pool.query<OrderRow>(`SELECT * FROM orders WHERE order_id = $1 AND keep_until > now()`, [orderId]);
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

  /** Deletes orders past their week that were never submitted; returns how many. */
  async purgeExpired(): Promise<number> {
    const r = await this.pool.query(
      `DELETE FROM orders o WHERE keep_until < now() AND NOT EXISTS (SELECT 1 FROM relay_submissions s WHERE s.order_id = o.order_id AND s.state = 'pending')`,
    );
    return r.rowCount ?? 0;
  }
}
