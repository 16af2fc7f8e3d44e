/**
 * Orders of `GET /v2/portal`, stored under their `orderId` for a week so that POST can relay the
 * signed variant and `GET /v2/portal/status` can return them. Plain SQL over a pg Pool (the relayer
 * locks an order's row in its own claim transaction, relay-records.ts).
 */
import type { Pool } from 'pg';
import type { ExecutorCall } from '@tokensvc/contracts';
import type { Network } from '@tokensvc/domain';
import { OrderReply } from '@tokensvc/messages';

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
  calls: Array<{ target: string; value: string; data: string; inputs: Array<{ token: string; bps: number; amount: string; offset: number; approve: boolean }> }>;
}

const RETENTION_MS = 7 * 24 * 3600 * 1000;

function callsJson(calls: readonly ExecutorCall[]): OrderRow['calls'] {
  return calls.map((c) => ({ target: c.target, value: c.value.toString(), data: c.data, inputs: c.inputs.map((i) => ({ ...i, amount: i.amount.toString() })) }));
}

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
    calls: r.calls.map((c) => ({ target: c.target, value: BigInt(c.value), data: c.data, inputs: c.inputs.map((i) => ({ ...i, amount: BigInt(i.amount) })) })),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export class OrderStore {
  constructor(private readonly pool: Pool) {}

  async save(o: { orderId: string; network: Network; chainId: number; sender: string; expiresAt: Date; reply: OrderReply; calls: readonly ExecutorCall[] }, now = new Date()): Promise<void> {
    const json = OrderReply.toJSON(o.reply) as { context?: unknown; tx?: unknown; signedOrder?: unknown };
    await this.pool.query(
      `INSERT INTO orders (order_id, network, chain_id, sender, created_at, expires_at, keep_until, context, tx, signed_order, calls)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [o.orderId, o.network, o.chainId, o.sender.toLowerCase(), now, o.expiresAt, new Date(now.getTime() + RETENTION_MS), json.context, json.tx, json.signedOrder ?? null, JSON.stringify(callsJson(o.calls))],
    );
  }

  /** The order, or undefined when it was never stored or is past its week. */
  async find(orderId: string): Promise<StoredOrder | undefined> {
    if (!UUID.test(orderId)) return undefined;
    const { rows } = await this.pool.query<OrderRow>(`SELECT * FROM orders WHERE order_id = $1 AND keep_until > now()`, [orderId]);
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

  /** Deletes orders past their week that were never submitted; returns how many. */
  async purgeExpired(): Promise<number> {
    const r = await this.pool.query(`DELETE FROM orders o WHERE keep_until < now() AND NOT EXISTS (SELECT 1 FROM relay_submissions s WHERE s.order_id = o.order_id AND s.state = 'pending')`);
    return r.rowCount ?? 0;
  }
}
