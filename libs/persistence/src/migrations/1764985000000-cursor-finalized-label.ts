import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `index_cursors.finalized_hash` and `finalized_time`: the hash and time of the network's finalized
 * block (`finalized_block`: the cursor minus the finality depth), written by the indexer with the
 * cursor in each batch's transaction (NULL when that block's header is not stored). token-data
 * labels its answers with the block they are as of (issue 23) and answers `finality=finalized`
 * as of this block: the hash is its label, the time is the "now" of its 1d/7d figures.
 * Existing rows are filled from `blocks`.
 */
export class CursorFinalizedLabel1764985000000 implements MigrationInterface {
  name = 'CursorFinalizedLabel1764985000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE index_cursors ADD COLUMN finalized_hash text, ADD COLUMN finalized_time timestamptz`);
    await q.query(
      `UPDATE index_cursors c SET finalized_hash = b.hash, finalized_time = b.time FROM blocks b WHERE b.network = c.network AND b.number = c.finalized_block`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE index_cursors DROP COLUMN finalized_hash, DROP COLUMN finalized_time`);
  }
}
