import type { Pool, PoolClient } from 'pg';
import { displayPrefix, generateApiKey, hashApiKey, isTier, type Tier } from '@tokensvc/api';
import { inTransaction } from '../pg-pool';

export interface ApiKeyRecord {
  id: string;
  displayPrefix: string;
  tier: Tier;
  label: string;
  /** custom data rate per minute (enterprise keys only) */
  rateLimitPerMinute: number | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  rotatedFrom: string | null;
}

export interface NewApiKey {
  tier: Tier;
  label: string;
  expiresAt?: Date | null;
  rateLimitPerMinute?: number | null;
}

/** A freshly issued key: `key` is the only time the secret exists outside the caller's hands. */
export interface IssuedApiKey {
  key: string;
  record: ApiKeyRecord;
}

export interface UsageRow {
  keyId: string;
  /** UTC day, YYYY-MM-DD */
  day: string;
  calls: number;
}

interface Row {
  id: string;
  display_prefix: string;
  tier: string;
  label: string;
  rate_limit_per_minute: number | null;
  created_at: Date;
  last_used_at: Date | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  rotated_from: string | null;
}

const COLUMNS = 'id, display_prefix, tier, label, rate_limit_per_minute, created_at, last_used_at, expires_at, revoked_at, rotated_from';
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function toRecord(r: Row): ApiKeyRecord {
  if (!isTier(r.tier)) throw new Error(`api_keys row ${r.id} has unknown tier "${r.tier}"`);
  return {
    id: r.id,
    displayPrefix: r.display_prefix,
    tier: r.tier,
    label: r.label,
    rateLimitPerMinute: r.rate_limit_per_minute,
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
    expiresAt: r.expires_at,
    revokedAt: r.revoked_at,
    rotatedFrom: r.rotated_from,
  };
}

export class ApiKeyNotFoundError extends Error {}

/** API keys and their daily usage. Keys are looked up by SHA-256; the secret is never stored. */
export class ApiKeysRepository {
  constructor(private readonly pool: Pool) {}

  issue(input: NewApiKey): Promise<IssuedApiKey> {
    return this.insert(this.pool, input, null);
  }

  private async insert(db: Pool | PoolClient, input: NewApiKey, rotatedFrom: string | null): Promise<IssuedApiKey> {
    const key = generateApiKey();
    const { rows } = await db.query<Row>(
      `INSERT INTO api_keys (key_hash, display_prefix, tier, label, rate_limit_per_minute, expires_at, rotated_from)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
      [
        hashApiKey(key),
        displayPrefix(key),
        input.tier,
        input.label,
        input.rateLimitPerMinute ?? null,
        input.expiresAt ?? null,
        rotatedFrom,
      ],
    );
    return { key, record: toRecord(rows[0]!) };
  }

  /** The key with this SHA-256, whatever its state (the caller tells revoked and expired apart). */
  async findByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const { rows } = await this.pool.query<Row>(`SELECT ${COLUMNS} FROM api_keys WHERE key_hash = $1`, [keyHash]);
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  async list(includeRevoked = false): Promise<ApiKeyRecord[]> {
    const { rows } = await this.pool.query<Row>(
      `SELECT ${COLUMNS} FROM api_keys ${includeRevoked ? '' : 'WHERE revoked_at IS NULL'} ORDER BY created_at, id`,
    );
    return rows.map(toRecord);
  }

  /** A key by its id or its display prefix (`tsk_live_abc123`); an ambiguous prefix is refused. */
  async resolve(idOrPrefix: string): Promise<ApiKeyRecord> {
    const byId = UUID_RE.test(idOrPrefix);
    const { rows } = await this.pool.query<Row>(
      `SELECT ${COLUMNS} FROM api_keys WHERE ${byId ? 'id = $1::uuid' : 'display_prefix = $1'} LIMIT 2`,
      [idOrPrefix],
    );
    if (rows.length === 0) throw new ApiKeyNotFoundError(`no API key with ${byId ? 'id' : 'prefix'} "${idOrPrefix}"`);
    if (rows.length > 1) throw new ApiKeyNotFoundError(`prefix "${idOrPrefix}" matches several keys; use the id`);
    return toRecord(rows[0]!);
  }

  /** Revokes at once (idempotent: an already revoked key keeps its first revocation time). */
  async revoke(id: string): Promise<ApiKeyRecord> {
    const { rows } = await this.pool.query<Row>(
      `UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1 RETURNING ${COLUMNS}`,
      [id],
    );
    if (!rows[0]) throw new ApiKeyNotFoundError(`no API key with id "${id}"`);
    return toRecord(rows[0]);
  }

  /**
   * Issues a replacement with the same tier, label, rate and expiry. The old key is revoked now,
   * or, with `graceSeconds`, expires after that grace period so clients can switch over.
   */
  rotate(id: string, graceSeconds = 0): Promise<IssuedApiKey> {
    return inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<Row>(`SELECT ${COLUMNS} FROM api_keys WHERE id = $1 FOR UPDATE`, [id]);
      const old = rows[0];
      if (!old) throw new ApiKeyNotFoundError(`no API key with id "${id}"`);
      if (old.revoked_at) throw new ApiKeyNotFoundError(`API key ${id} is revoked; issue a new one instead`);
      const issued = await this.insert(
        client,
        { tier: toRecord(old).tier, label: old.label, rateLimitPerMinute: old.rate_limit_per_minute, expiresAt: old.expires_at },
        id,
      );
      if (graceSeconds > 0) {
        await client.query(
          `UPDATE api_keys SET expires_at = least(coalesce(expires_at, 'infinity'), now() + make_interval(secs => $2)) WHERE id = $1`,
          [id, graceSeconds],
        );
      } else {
        await client.query(`UPDATE api_keys SET revoked_at = now() WHERE id = $1`, [id]);
      }
      return issued;
    });
  }

  /** Adds call counts per key and day in one statement, and marks the keys as used. */
  async recordUsage(rows: readonly UsageRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.pool.query(
      `WITH batch AS (
         SELECT key_id, day, sum(calls) AS calls FROM unnest($1::uuid[], $2::date[], $3::bigint[]) AS b(key_id, day, calls) GROUP BY key_id, day
       ), upsert AS (
         INSERT INTO api_key_usage (key_id, day, calls)
         SELECT b.key_id, b.day, b.calls FROM batch b JOIN api_keys k ON k.id = b.key_id
         ON CONFLICT (key_id, day) DO UPDATE SET calls = api_key_usage.calls + EXCLUDED.calls
       )
       UPDATE api_keys SET last_used_at = now() WHERE id IN (SELECT key_id FROM batch)`,
      [rows.map((r) => r.keyId), rows.map((r) => r.day), rows.map((r) => r.calls)],
    );
  }

  /** Calls per UTC day since `fromDay` (inclusive), oldest first. */
  async usage(keyId: string, fromDay: string): Promise<{ day: string; calls: number }[]> {
    const { rows } = await this.pool.query<{ day: string; calls: string }>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, calls::text AS calls FROM api_key_usage WHERE key_id = $1 AND day >= $2::date ORDER BY day`,
      [keyId, fromDay],
    );
    return rows.map((r) => ({ day: r.day, calls: Number(r.calls) }));
  }
}
