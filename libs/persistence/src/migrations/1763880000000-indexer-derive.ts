import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the indexer's derivation stage needs on top of the indexer schema:
 * - price_points becomes the per-block history of a token's whole derived state (one row per
 *   token and block where its price or any state field changed): candles, the 1d/7d metrics and
 *   a reorg rollback all read it back instead of recomputing from historical eth_call (which a
 *   pruned node cannot answer). `aux` holds the bookkeeping the next batch continues from
 *   (supply locked at zero/dead, vault assets, Aave scaled supply/debt, indexes and rates) as
 *   decimal strings;
 * - indexes by block for the rollback deletes of price_points and candles.
 */
export class IndexerDerive1763880000000 implements MigrationInterface {
  name = 'IndexerDerive1763880000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE price_points
      ADD COLUMN total_supply numeric(78,0) NOT NULL DEFAULT 0,
      ADD COLUMN circulating_supply numeric(78,0) NOT NULL DEFAULT 0,
      ADD COLUMN total_borrow numeric(78,0) NOT NULL DEFAULT 0,
      ADD COLUMN reserves numeric(78,0)[] NOT NULL DEFAULT '{}',
      ADD COLUMN price_per_share text NOT NULL DEFAULT '0',
      ADD COLUMN apy double precision NOT NULL DEFAULT 0,
      ADD COLUMN base_apy double precision NOT NULL DEFAULT 0,
      ADD COLUMN reward_apy double precision NOT NULL DEFAULT 0,
      ADD COLUMN borrow_apy double precision NOT NULL DEFAULT 0,
      ADD COLUMN base_borrow_apy double precision NOT NULL DEFAULT 0,
      ADD COLUMN aux jsonb NOT NULL DEFAULT '{}'::jsonb`);
    await q.query(`CREATE INDEX price_points_block_idx ON price_points (block_number)`);
    await q.query(`CREATE INDEX candles_block_idx ON candles (block_number)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX candles_block_idx`);
    await q.query(`DROP INDEX price_points_block_idx`);
    await q.query(`ALTER TABLE price_points
      DROP COLUMN total_supply, DROP COLUMN circulating_supply, DROP COLUMN total_borrow, DROP COLUMN reserves,
      DROP COLUMN price_per_share, DROP COLUMN apy, DROP COLUMN base_apy, DROP COLUMN reward_apy,
      DROP COLUMN borrow_apy, DROP COLUMN base_borrow_apy, DROP COLUMN aux`);
  }
}
