import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A webhook belongs to the caller that registered it (issue 16): `webhooks.owner` is what the
 * gateway says the caller is ("key:<api key id>", or "ip:<address>" for an anonymous caller).
 * Only that owner lists, replaces or deletes it. Webhooks registered before this column have
 * the empty owner: nobody can list or delete them through the API (they still deliver).
 */
export class WebhookOwner1764950000000 implements MigrationInterface {
  name = 'WebhookOwner1764950000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhooks ADD COLUMN owner text NOT NULL DEFAULT ''`);
    await q.query(`CREATE INDEX webhooks_owner_idx ON webhooks (owner, order_id, tx_hash)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX webhooks_owner_idx`);
    await q.query(`ALTER TABLE webhooks DROP COLUMN owner`);
  }
}
