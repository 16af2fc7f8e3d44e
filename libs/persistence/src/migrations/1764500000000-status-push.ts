import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Push delivery of cross-chain order status (webhooks and the gateway's Server-Sent Events).
 *
 * - `cross_chain_orders.event_seq`: how many transitions the order has been through. It is bumped
 *   by the same UPDATE that changes the status, so a read of the row gives its record and the
 *   sequence of that record together (the SSE stream starts from it).
 * - `status_events`: the transactional outbox. Every transition the tracker writes appends its row
 *   in the same transaction as the state change: (order, tx, seq) and the full status record right
 *   after it (proto3 JSON of CrossChainStatusReply). A relay publishes unpublished rows to
 *   JetStream (message id `<orderId>:<txHash>:<seq>`) and marks them; webhook jobs are queued for
 *   undispatched ones. Both marks are set only after the work is done, so a crash repeats it
 *   (JetStream drops the duplicate publish; a webhook skips what it delivered).
 * - `webhooks`: one URL registered for one order and transaction, its signing secret, how far it
 *   has been delivered (`delivered_seq`, events go out in order), and its state: active, done
 *   (the terminal event was delivered) or failed (given up after its retries).
 * - `webhook_deliveries`: one row per (webhook, seq) delivered successfully: the primary key is
 *   what makes a delivery happen at most once successfully, whatever retries and takeovers do.
 */
export class StatusPush1764500000000 implements MigrationInterface {
  name = 'StatusPush1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE cross_chain_orders ADD COLUMN event_seq integer NOT NULL DEFAULT 0`);
    await q.query(`CREATE TABLE status_events (
      id bigserial PRIMARY KEY,
      order_id uuid NOT NULL,
      tx_hash text NOT NULL,
      seq integer NOT NULL CHECK (seq > 0),
      -- the status entered (ONGOING, SUCCESS, REFUND_STATUS, FAILED)
      status text NOT NULL,
      record jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      published_at timestamptz,
      dispatched_at timestamptz,
      UNIQUE (order_id, tx_hash, seq),
      FOREIGN KEY (order_id, tx_hash) REFERENCES cross_chain_orders (order_id, tx_hash) ON DELETE CASCADE
    )`);
    await q.query(`CREATE INDEX status_events_unpublished_idx ON status_events (id) WHERE published_at IS NULL`);
    await q.query(`CREATE INDEX status_events_undispatched_idx ON status_events (id) WHERE dispatched_at IS NULL`);
    await q.query(`CREATE TABLE webhooks (
      id uuid PRIMARY KEY,
      order_id uuid NOT NULL,
      tx_hash text NOT NULL,
      url text NOT NULL,
      secret text NOT NULL,
      -- active until the terminal event is delivered (done) or it is given up (failed)
      state text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'done', 'failed')),
      delivered_seq integer NOT NULL DEFAULT 0,
      failed_attempts integer NOT NULL DEFAULT 0,
      last_error text,
      last_attempt_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      FOREIGN KEY (order_id, tx_hash) REFERENCES cross_chain_orders (order_id, tx_hash) ON DELETE CASCADE
    )`);
    await q.query(`CREATE INDEX webhooks_order_idx ON webhooks (order_id, tx_hash)`);
    await q.query(`CREATE INDEX webhooks_active_idx ON webhooks (order_id, tx_hash) WHERE state = 'active'`);
    await q.query(`CREATE TABLE webhook_deliveries (
      webhook_id uuid NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
      seq integer NOT NULL,
      status_code integer NOT NULL,
      attempts integer NOT NULL,
      delivered_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (webhook_id, seq)
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE webhook_deliveries`);
    await q.query(`DROP TABLE webhooks`);
    await q.query(`DROP TABLE status_events`);
    await q.query(`ALTER TABLE cross_chain_orders DROP COLUMN event_seq`);
  }
}
