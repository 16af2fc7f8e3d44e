import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The status tracker follows the bridge's events per network (apps/status-tracker/src/events).
 *
 * - `tracker_follow_cursors`: per network, the last block whose bridge logs are stored, with its
 *   hash. A follower that finds another hash at that height (a reorg) walks back through
 *   `tracker_follow_blocks` (the recent batch ends it read, with their hashes) to the newest block
 *   the chain still has, deletes the events above it and reads again from there.
 * - `tracker_bridge_events`: the deposits, fills and refunds the followers read (kept 7 days). The
 *   tracker looks a request's fill or refund up here before it searches the chains; an order that
 *   becomes ONGOING after its fill was read finds it here. Deposits that matched no stored quote
 *   stay here too (`matched` false), for diagnostics only.
 * - `cross_chain_orders_request_idx`: a fill or refund wakes the open orders of its request id.
 * - `orders_cross_chain_tx_data_idx`: a deposit on chain is matched to the stored cross-chain quote
 *   whose `tx.data` is the deposit transaction's input (md5 of it; the full data is compared after).
 *   Partial: same-chain quotes are never looked up this way and pay nothing for it on insert.
 */
export class TrackerEvents1764600000000 implements MigrationInterface {
  name = 'TrackerEvents1764600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE tracker_follow_cursors (
      network text PRIMARY KEY,
      block_number bigint NOT NULL,
      block_hash text NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE TABLE tracker_follow_blocks (
      network text NOT NULL,
      block_number bigint NOT NULL,
      block_hash text NOT NULL,
      PRIMARY KEY (network, block_number)
    )`);
    await q.query(`CREATE TABLE tracker_bridge_events (
      network text NOT NULL,
      block_number bigint NOT NULL,
      log_index integer NOT NULL,
      block_hash text NOT NULL,
      tx_hash text NOT NULL,
      kind text NOT NULL CHECK (kind IN ('deposit', 'fill', 'refund')),
      request_id text NOT NULL,
      -- the chain the request was deposited on (the event's own network for deposits and refunds)
      origin_chain_id bigint NOT NULL,
      -- deposits only: a tracked order had, or was given, this transaction
      matched boolean,
      seen_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (network, block_number, log_index)
    )`);
    await q.query(`CREATE INDEX tracker_bridge_events_request_idx ON tracker_bridge_events (request_id)`);
    await q.query(`CREATE INDEX tracker_bridge_events_seen_idx ON tracker_bridge_events (seen_at)`);
    await q.query(`CREATE INDEX cross_chain_orders_request_idx ON cross_chain_orders (request_id) WHERE terminal_at IS NULL`);
    await q.query(
      `CREATE INDEX orders_cross_chain_tx_data_idx ON orders (md5(lower(tx->>'data'))) WHERE split_part(context->>'outputToken', ':', 1) <> network`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX orders_cross_chain_tx_data_idx`);
    await q.query(`DROP INDEX cross_chain_orders_request_idx`);
    await q.query(`DROP TABLE tracker_bridge_events`);
    await q.query(`DROP TABLE tracker_follow_blocks`);
    await q.query(`DROP TABLE tracker_follow_cursors`);
  }
}
