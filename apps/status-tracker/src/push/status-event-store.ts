/**
 * Reads and bookkeeping over the push tables (see migration 1764500000000-status-push): the
 * recorded status events, the relay's publish and dispatch marks, webhooks and their deliveries.
 * Plain SQL over the tracker's pg Pool.
 */
import type { Pool, PoolClient } from 'pg';
import { CrossChainStatusEvent, CrossChainStatusReply } from '@tokensvc/messages';
import { inTransaction, Rollback } from '@tokensvc/persistence';

interface EventRow {
  id: string;
  order_id: string;
  tx_hash: string;
  seq: number;
  status: string;
  record: unknown;
  created_at: Date;
}

export interface StoredStatusEvent {
  /** outbox row id (relay bookkeeping) */
  id: string;
  event: CrossChainStatusEvent;
}

const toEvent = (r: EventRow): StoredStatusEvent => ({
  id: r.id,
  event: {
    orderId: r.order_id,
    txHash: r.tx_hash,
    seq: String(r.seq),
    status: r.status,
    createdAt: r.created_at.toISOString(),
    record: CrossChainStatusReply.fromJSON(r.record),
  },
});

export interface Webhook {
  id: string;
  /** who registered it ("key:<api key id>" or "ip:<address>"); only that owner lists, replaces or deletes it */
  owner: string;
  orderId: string;
  txHash: string;
  url: string;
  secret: string;
  state: 'active' | 'done' | 'failed';
  deliveredSeq: number;
  failedAttempts: number;
  lastError: string | undefined;
  createdAt: Date;
}

interface WebhookRow {
  id: string;
  owner: string;
  order_id: string;
  tx_hash: string;
  url: string;
  secret: string;
  state: 'active' | 'done' | 'failed';
  delivered_seq: number;
  failed_attempts: number;
  last_error: string | null;
  created_at: Date;
}

const toWebhook = (r: WebhookRow): Webhook => ({
  id: r.id,
  owner: r.owner,
  orderId: r.order_id,
  txHash: r.tx_hash,
  url: r.url,
  secret: r.secret,
  state: r.state,
  deliveredSeq: r.delivered_seq,
  failedAttempts: r.failed_attempts,
  lastError: r.last_error ?? undefined,
  createdAt: r.created_at,
});

/** One relay at a time publishes (so the stream holds each order's events in seq order). */
const RELAY_LOCK = 746_501_001;

export class StatusEventStore {
  constructor(private readonly pool: Pool) {}

  /** Recorded events of (order, tx) with seq > afterSeq, ascending. */
  async eventsAfter(orderId: string, txHash: string, afterSeq: number, limit = 100): Promise<CrossChainStatusEvent[]> {
    const { rows } = await this.pool.query<EventRow>(
      `SELECT id, order_id, tx_hash, seq, status, record, created_at FROM status_events WHERE order_id = $1 AND tx_hash = $2 AND seq > $3 ORDER BY seq LIMIT $4`,
      [orderId, txHash, afterSeq, limit],
    );
    return rows.map((r) => toEvent(r).event);
  }

  /**
   * Hands the oldest unpublished events (up to `limit`) to `publish` and marks them published
   * once it resolved, all in one transaction holding the relay lock: a failure or a crash leaves
   * them unpublished (published again later; JetStream drops the duplicates by message id).
   * Returns how many were published; 0 also when another replica's relay holds the lock.
   */
  async publishBatch(limit: number, publish: (events: StoredStatusEvent[]) => Promise<void>): Promise<number> {
    return this.tx(async (c) => {
      const { rows: lock } = await c.query<{ ok: boolean }>(`SELECT pg_try_advisory_xact_lock($1) AS ok`, [RELAY_LOCK]);
      if (!lock[0]?.ok) return 0;
      const { rows } = await c.query<EventRow>(
        `SELECT id, order_id, tx_hash, seq, status, record, created_at FROM status_events WHERE published_at IS NULL ORDER BY id LIMIT $1`,
        [limit],
      );
      if (rows.length === 0) return 0;
      await publish(rows.map(toEvent));
      await c.query(`UPDATE status_events SET published_at = now() WHERE id = ANY($1::bigint[])`, [rows.map((r) => r.id)]);
      return rows.length;
    });
  }

  /**
   * The active webhooks of the oldest undispatched events (up to `limit`), handed to `dispatch`
   * (queueing their delivery), then the events are marked dispatched. Returns how many events.
   */
  async dispatchBatch(limit: number, dispatch: (webhookIds: string[]) => Promise<void>): Promise<number> {
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT id FROM status_events WHERE dispatched_at IS NULL ORDER BY id LIMIT $1`,
      [limit],
    );
    if (rows.length === 0) return 0;
    const ids = rows.map((r) => r.id);
    const hooks = await this.pool.query<{ id: string }>(
      `SELECT DISTINCT w.id FROM status_events e JOIN webhooks w ON w.order_id = e.order_id AND w.tx_hash = e.tx_hash
        WHERE e.id = ANY($1::bigint[]) AND w.state = 'active'`,
      [ids],
    );
    if (hooks.rows.length) await dispatch(hooks.rows.map((r) => r.id));
    await this.pool.query(`UPDATE status_events SET dispatched_at = now() WHERE id = ANY($1::bigint[])`, [ids]);
    return ids.length;
  }

  /**
   * Creates `owner`'s webhook unless the order (all its transactions) has `maxPerOrder` already
   * ('full'); with `replaces`, that webhook of the same owner and (order, tx) is deleted in the
   * same transaction and does not count ('not-found' when there is no such webhook). A
   * transaction-scoped advisory lock on the order serializes registrations, so concurrent ones
   * cannot pass the bound together (a bare `INSERT ... WHERE (SELECT count(*)) < n` can: each
   * statement counts without the others' uncommitted rows).
   */
  async insertWebhook(
    w: { id: string; owner: string; orderId: string; txHash: string; url: string; secret: string; replaces?: string },
    maxPerOrder: number,
  ): Promise<Webhook | 'full' | 'not-found'> {
    return inTransaction(this.pool, async (client) => {
      await client.query(`SELECT pg_advisory_xact_lock(hashtextextended('webhooks:order:' || $1, 0))`, [w.orderId]);
      let outcome: Webhook | 'full' | 'not-found';
      const replaced =
        w.replaces === undefined
          ? 1
          : (
              await client.query(`DELETE FROM webhooks WHERE id = $1 AND owner = $2 AND order_id = $3 AND tx_hash = $4`, [
                w.replaces,
                w.owner,
                w.orderId,
                w.txHash,
              ])
            ).rowCount;
      if (replaced !== 1) outcome = 'not-found';
      else {
        const { rows } = await client.query<WebhookRow>(
          `INSERT INTO webhooks (id, owner, order_id, tx_hash, url, secret)
           SELECT $1, $2, $3, $4, $5, $6 WHERE (SELECT count(*) FROM webhooks WHERE order_id = $3) < $7
           RETURNING *`,
          [w.id, w.owner, w.orderId, w.txHash, w.url, w.secret, maxPerOrder],
        );
        outcome = rows[0] ? toWebhook(rows[0]) : 'full';
      }
      // Nothing half done: a refused replacement keeps the old webhook.
      if (typeof outcome === 'string') throw new Rollback(outcome);
      return outcome;
    });
  }

  /** `owner`'s webhooks of (order, tx), oldest first (another owner's are not returned). */
  async ownedWebhooks(owner: string, orderId: string, txHash: string): Promise<Webhook[]> {
    const { rows } = await this.pool.query<WebhookRow>(
      `SELECT * FROM webhooks WHERE owner = $1 AND order_id = $2 AND tx_hash = $3 ORDER BY created_at, id LIMIT 100`,
      [owner, orderId, txHash],
    );
    return rows.map(toWebhook);
  }

  /** Deletes the webhook if it is `owner`'s; false otherwise (unknown, or another owner's). */
  async deleteOwnedWebhook(owner: string, id: string): Promise<boolean> {
    const r = await this.pool.query(`DELETE FROM webhooks WHERE id = $1 AND owner = $2`, [id, owner]);
    return (r.rowCount ?? 0) === 1;
  }

  async webhook(id: string): Promise<Webhook | undefined> {
    const { rows } = await this.pool.query<WebhookRow>(`SELECT * FROM webhooks WHERE id = $1`, [id]);
    return rows[0] ? toWebhook(rows[0]) : undefined;
  }

  /**
   * A successful delivery of `seq`: recorded once per (webhook, seq) (the primary key) and the
   * webhook moved past it (done after the terminal event), in one transaction. False when it was
   * recorded already.
   */
  async recordDelivery(webhookId: string, seq: number, statusCode: number, terminal: boolean): Promise<boolean> {
    return this.tx(async (c) => {
      const r = await c.query(
        `INSERT INTO webhook_deliveries (webhook_id, seq, status_code, attempts)
         SELECT id, $2, $3, failed_attempts + 1 FROM webhooks WHERE id = $1
         ON CONFLICT (webhook_id, seq) DO NOTHING`,
        [webhookId, seq, statusCode],
      );
      await c.query(
        `UPDATE webhooks SET delivered_seq = GREATEST(delivered_seq, $2), failed_attempts = 0, last_error = NULL, last_attempt_at = now(),
                state = CASE WHEN $3::boolean AND state = 'active' THEN 'done' ELSE state END
          WHERE id = $1`,
        [webhookId, seq, terminal],
      );
      return (r.rowCount ?? 0) === 1;
    });
  }

  /** A failed attempt; returns the webhook's consecutive failures so far. `giveUp` marks it failed. */
  async recordFailure(webhookId: string, error: string, maxAttempts: number): Promise<{ failedAttempts: number; gaveUp: boolean }> {
    const { rows } = await this.pool.query<{ failed_attempts: number; state: string }>(
      `UPDATE webhooks SET failed_attempts = failed_attempts + 1, last_error = $2, last_attempt_at = now(),
              state = CASE WHEN failed_attempts + 1 >= $3 THEN 'failed' ELSE state END
        WHERE id = $1 RETURNING failed_attempts, state`,
      [webhookId, error.slice(0, 500), maxAttempts],
    );
    const r = rows[0];
    return { failedAttempts: r?.failed_attempts ?? 0, gaveUp: r?.state === 'failed' };
  }

  /** Active webhooks whose order has events they have not had yet (the sweep re-queues them). */
  async behind(limit = 10_000): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT w.id FROM webhooks w JOIN cross_chain_orders o ON o.order_id = w.order_id AND o.tx_hash = w.tx_hash
        WHERE w.state = 'active' AND w.delivered_seq < o.event_seq LIMIT $1`,
      [limit],
    );
    return rows.map((r) => r.id);
  }

  private tx<T>(run: (c: PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, run);
  }
}
