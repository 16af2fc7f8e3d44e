import type { Token } from '@tokensvc/messages';
import { toToken, type TokenRow } from './token-row';

/**
 * The version of a `tokens` row: its xmin, the transaction that wrote this row version. Every
 * UPDATE writes a new row version (whatever columns it touches: price, volumes, paid metrics,
 * verification), so an unchanged xmin means an unchanged row, with no reliance on a writer bumping
 * `updated_at`.
 */
export const TOKEN_VERSION = 't.xmin::text AS version';

export interface VersionedTokenRow extends TokenRow {
  version: string;
}

/** A built Token record with what the account use case needs of its row beyond the record. */
export interface TokenRecord {
  readonly token: Token;
  readonly family: string;
}

interface Entry {
  readonly version: string;
  readonly record: TokenRecord;
  readonly at: number;
}

/**
 * Token records built once per row version and shared by every reply that lists the token (they
 * are never mutated). Callers read the versions of the rows they need in their own statement, so a
 * record is never served for a row that has changed since: `get` only answers for the same version.
 * Least recently used entries go first when full; entries older than `maxAgeMs` are rebuilt, which
 * bounds the life of a record past anything a version cannot see (xid wraparound, a restored database).
 */
export class TokenRecordCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly maxEntries: number,
    private readonly maxAgeMs: number,
    private readonly now: () => number = Date.now,
    private readonly imageBase = '',
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string, version: string): TokenRecord | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.version !== version || this.now() - hit.at > this.maxAgeMs) {
      this.entries.delete(key);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.record;
  }

  /** Builds the record of a row read with TOKEN_VERSION and keeps it for that version. */
  put(row: VersionedTokenRow): TokenRecord {
    const record: TokenRecord = { token: toToken(row, this.imageBase), family: row.family };
    this.entries.delete(row.key);
    this.entries.set(row.key, { version: row.version, record, at: this.now() });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
    return record;
  }
}
