import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the ingest pipeline needs on top of the indexer schema to repair reorgs exactly and to
 * publish pool changes at least once:
 * - pool_state_history: the last state of each pool per block it changed in, so a rollback
 *   restores pools to their state at the common ancestor without historical eth_call (pruned
 *   nodes cannot answer those);
 * - pool_tick_deltas: V3 liquidity added/removed per (pool, tick, block), subtracted on rollback;
 * - pools.created_block (pools created above the ancestor are deleted), pools.change_seq (a
 *   per-write sequence the publisher follows), pools.restored (state set back by a rollback);
 * - index_cursors.published_seq / published_finalized: what has been published to JetStream, so
 *   a crash between commit and publish re-publishes on restart; reorg_epoch (rollbacks so far)
 *   keeps message ids of re-applied states apart from the orphaned ones inside the dedup window.
 */
export class IndexerIngest1763870000000 implements MigrationInterface {
  name = 'IndexerIngest1763870000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SEQUENCE pool_change_seq`);
    await q.query(`ALTER TABLE pools
      ADD COLUMN created_block bigint NOT NULL DEFAULT 0,
      ADD COLUMN change_seq bigint NOT NULL DEFAULT 0,
      ADD COLUMN restored boolean NOT NULL DEFAULT false`);
    await q.query(`CREATE INDEX pools_change_seq_idx ON pools (network, change_seq)`);
    await q.query(`ALTER TABLE index_cursors
      ADD COLUMN published_seq bigint NOT NULL DEFAULT 0,
      ADD COLUMN published_finalized bigint NOT NULL DEFAULT 0,
      ADD COLUMN reorg_epoch integer NOT NULL DEFAULT 0`);
    await q.query(`CREATE TABLE pool_state_history (
      network text NOT NULL,
      pool text NOT NULL,
      block_number bigint NOT NULL,
      log_index integer NOT NULL,
      reserve0 numeric(78,0) NOT NULL,
      reserve1 numeric(78,0) NOT NULL,
      sqrt_price_x96 numeric(78,0),
      liquidity numeric(78,0),
      tick integer,
      PRIMARY KEY (network, pool, block_number)
    )`);
    await q.query(`CREATE INDEX pool_state_history_block_idx ON pool_state_history (network, block_number)`);
    await q.query(`CREATE TABLE pool_tick_deltas (
      network text NOT NULL,
      pool text NOT NULL,
      tick integer NOT NULL,
      block_number bigint NOT NULL,
      net_delta numeric(78,0) NOT NULL,
      gross_delta numeric(78,0) NOT NULL,
      PRIMARY KEY (network, pool, tick, block_number)
    )`);
    await q.query(`CREATE INDEX pool_tick_deltas_block_idx ON pool_tick_deltas (network, block_number)`);
    await q.query(`CREATE INDEX tokens_created_block_idx ON tokens (network, created_block)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX tokens_created_block_idx`);
    await q.query(`DROP TABLE pool_tick_deltas`);
    await q.query(`DROP TABLE pool_state_history`);
    await q.query(`ALTER TABLE index_cursors DROP COLUMN published_seq, DROP COLUMN published_finalized, DROP COLUMN reorg_epoch`);
    await q.query(`DROP INDEX pools_change_seq_idx`);
    await q.query(`ALTER TABLE pools DROP COLUMN created_block, DROP COLUMN change_seq, DROP COLUMN restored`);
    await q.query(`DROP SEQUENCE pool_change_seq`);
  }
}
