import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `index_cursors.ahead_of_chain`: true while the network's indexed data holds blocks the node's
 * chain does not have (a reloaded or resynced node, a reorg onto a shorter chain), from the moment
 * the indexer finds it until its rollback to the common ancestor commits. The gateway's public
 * readiness reads it (one row per network), so the API says the data is not the chain's now.
 * Default false: an indexer of the previous version, which never sets it, runs unchanged.
 */
export class CursorAheadOfChain1764970000000 implements MigrationInterface {
  name = 'CursorAheadOfChain1764970000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE index_cursors ADD COLUMN ahead_of_chain boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE index_cursors DROP COLUMN ahead_of_chain`);
  }
}
