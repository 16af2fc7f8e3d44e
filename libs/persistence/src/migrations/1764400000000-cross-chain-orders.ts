import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Cross-chain order tracking (the status tracker, `GET /v3/portal/status`).
 *
 * One row per (order id, origin transaction hash): a client may submit the same quote twice, and
 * each transaction is tracked on its own. Postgres is the truth: the BullMQ jobs are re-created
 * from the rows where `terminal_at IS NULL`. A terminal state is written once (guarded
 * `UPDATE ... WHERE terminal_at IS NULL`). Rows are not purged with the week-old quotes of
 * `orders`: the record must still answer (without context and tx) after that.
 *
 * What the tracker needs to resume without searching: the origin network (where to read the
 * receipt), the deposit's block (the refund search starts there) and the fill deadline.
 */
export class CrossChainOrders1764400000000 implements MigrationInterface {
  name = 'CrossChainOrders1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE cross_chain_orders (
      order_id uuid NOT NULL,
      tx_hash text NOT NULL CHECK (tx_hash ~ '^0x[0-9a-f]{64}$'),
      status text NOT NULL CHECK (status IN ('PENDING', 'ONGOING', 'SUCCESS', 'REFUND_STATUS', 'FAILED')),
      status_reason text,
      provider text NOT NULL,
      request_id text,
      from_network text NOT NULL,
      from_chain_id bigint NOT NULL,
      -- unknown until the deposit is read when no stored quote names it
      to_network text,
      to_chain_id bigint,
      origin_tx_hashes text[] NOT NULL DEFAULT '{}',
      destination_tx_hashes text[] NOT NULL DEFAULT '{}',
      deposit_block bigint,
      -- unix seconds (chain time)
      fill_deadline bigint,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      terminal_at timestamptz,
      PRIMARY KEY (order_id, tx_hash),
      CHECK ((terminal_at IS NULL) = (status IN ('PENDING', 'ONGOING')))
    )`);
    await q.query(`CREATE INDEX cross_chain_orders_open_idx ON cross_chain_orders (created_at) WHERE terminal_at IS NULL`);
    await q.query(`CREATE INDEX cross_chain_orders_tx_hash_idx ON cross_chain_orders (tx_hash)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE cross_chain_orders`);
  }
}
