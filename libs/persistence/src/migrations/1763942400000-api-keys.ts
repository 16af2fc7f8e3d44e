import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * API keys (stored as SHA-256 of the key plus a short display prefix; the key itself is shown once
 * and never stored) and their usage per UTC day, written in batches by the gateway.
 */
export class ApiKeys1763942400000 implements MigrationInterface {
  name = 'ApiKeys1763942400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE api_keys (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      key_hash text NOT NULL UNIQUE CHECK (key_hash ~ '^[0-9a-f]{64}$'),
      display_prefix text NOT NULL,
      tier text NOT NULL CHECK (tier IN ('free', 'paid', 'enterprise')),
      label text NOT NULL,
      -- custom data-surface rate (enterprise only), requests per minute
      rate_limit_per_minute integer CHECK (rate_limit_per_minute BETWEEN 1 AND 3000),
      created_at timestamptz NOT NULL DEFAULT now(),
      last_used_at timestamptz,
      expires_at timestamptz,
      revoked_at timestamptz,
      -- the key this one replaced (rotation)
      rotated_from uuid REFERENCES api_keys(id) ON DELETE SET NULL,
      CHECK (rate_limit_per_minute IS NULL OR tier = 'enterprise')
    )`);
    await q.query(`CREATE INDEX api_keys_display_prefix_idx ON api_keys (display_prefix)`);
    await q.query(`CREATE TABLE api_key_usage (
      key_id uuid NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
      day date NOT NULL,
      calls bigint NOT NULL CHECK (calls >= 0),
      PRIMARY KEY (key_id, day)
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE api_key_usage`);
    await q.query(`DROP TABLE api_keys`);
  }
}
