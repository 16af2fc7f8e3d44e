import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Catalog1763769600000 implements MigrationInterface {
  name = 'Catalog1763769600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE networks (
      network text PRIMARY KEY,
      chain_id integer NOT NULL UNIQUE,
      name text NOT NULL,
      enabled boolean NOT NULL DEFAULT true,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE TABLE platforms (
      network text NOT NULL REFERENCES networks(network) ON DELETE CASCADE,
      platform text NOT NULL,
      name text NOT NULL,
      image text NOT NULL,
      family text NOT NULL,
      category text NOT NULL,
      addresses jsonb NOT NULL DEFAULT '{}'::jsonb,
      enabled boolean NOT NULL DEFAULT true,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (network, platform)
    )`);
    await q.query(`CREATE INDEX platforms_family_idx ON platforms (family)`);
    await q.query(`CREATE INDEX platforms_category_idx ON platforms (category)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE platforms`);
    await q.query(`DROP TABLE networks`);
  }
}
