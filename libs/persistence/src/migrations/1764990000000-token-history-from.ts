import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `tokens.history_from_block` (issue 18): the first block whose events a token's transfers,
 * balances, holders, activity and history include, when that is not the token's creation: the
 * network was started at a later block (START_BLOCK_<NETWORK> / START_DAYS_<NETWORK>, the
 * start-block bootstrap), or the token was found, or listed, mid-history. NULL: read since its
 * creation (complete). Existing rows are complete or as before (NULL).
 */
export class TokenHistoryFrom1764990000000 implements MigrationInterface {
  name = 'TokenHistoryFrom1764990000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tokens ADD COLUMN history_from_block bigint`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tokens DROP COLUMN history_from_block`);
  }
}
