import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `orders.client` (issue 30): who asked for the quote (`key:<api key id>`, or `ip:<address or IPv6
 * /64>` for an anonymous caller), set by the gateway. The quote service keeps at most a bounded
 * number of a client's orders that were neither submitted nor tracked (OrderStore), so keyless
 * quotes cannot fill the disk. NULL: built without a client (internal callers, earlier rows):
 * not bounded.
 * `orders.calls` may be NULL: the quote service no longer writes the executor calls beside the
 * transaction that carries them (it reads them back from `tx.data`); earlier rows keep theirs.
 */
export class OrdersClient1765000000000 implements MigrationInterface {
  name = 'OrdersClient1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE orders ADD COLUMN client text`);
    await q.query(`CREATE INDEX orders_client_created_idx ON orders (client, created_at DESC) WHERE client IS NOT NULL`);
    await q.query(`ALTER TABLE orders ALTER COLUMN calls DROP NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    // rows written without their calls cannot be relayed by an earlier version: they go
    await q.query(`DELETE FROM orders WHERE calls IS NULL`);
    await q.query(`ALTER TABLE orders ALTER COLUMN calls SET NOT NULL`);
    await q.query(`DROP INDEX orders_client_created_idx`);
    await q.query(`ALTER TABLE orders DROP COLUMN client`);
  }
}
