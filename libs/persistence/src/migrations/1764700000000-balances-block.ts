import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `index_cursors.balances_block`: NULL while `balances` holds every stored Transfer of the network
 * (always, once it is caught up); during a backfill, the block up to which it does. A backfill
 * keeps the balance changes of its batches in memory and writes them every so many (token,
 * holder) pairs and when it reaches its target, instead of upserting every holder's row in every
 * batch (half of Postgres' work in a backfill). Transfers above it (up to the cursor) are folded
 * into the balances from the `transfers` table after a stop, a crash or a failed batch, and before
 * a rollback. Nullable with no default, so an indexer of the previous version, which keeps the
 * balances up to date in every batch, runs unchanged against this schema.
 */
export class BalancesBlock1764700000000 implements MigrationInterface {
  name = 'BalancesBlock1764700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE index_cursors ADD COLUMN balances_block bigint`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE index_cursors DROP COLUMN balances_block`);
  }
}
