import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Filter columns of GET /v2/tokens carried in the sort indexes, so filtering needs no heap visit. */
const FILTER_COLUMNS = 'network, platform, liquidity, apy, is_portable, is_verified';

/** Sort columns of GET /v2/tokens that get a covering (column, key) index; ties break on key. */
const SORTS: ReadonlyArray<readonly [name: string, column: string, replaces?: string]> = [
  ['key', 'key'],
  ['liquidity', 'liquidity', 'tokens_liquidity_idx'],
  ['apy', 'apy', 'tokens_apy_idx'],
  ['volume1d', 'volume_usd_1d', 'tokens_volume1d_idx'],
  ['volume7d', 'volume_usd_7d'],
  ['price', 'price'],
];

/**
 * Keyset-friendly indexes for deep pages of GET /v2/tokens: each (sort column, key) index includes
 * the filter columns, so the page query (a deferred join, `tokens.repository.ts`) skips `offset`
 * entries with an index-only scan, forwards or backwards, and reads only the rows it returns.
 */
export class TokenReadIndexes1764000000000 implements MigrationInterface {
  name = 'TokenReadIndexes1764000000000';

  async up(q: QueryRunner): Promise<void> {
    for (const [name, column, replaces] of SORTS) {
      if (replaces) await q.query(`DROP INDEX IF EXISTS ${replaces}`);
      const include = FILTER_COLUMNS.split(', ')
        .filter((c) => c !== column)
        .join(', ');
      await q.query(`CREATE INDEX tokens_sort_${name}_idx ON tokens (${column === 'key' ? 'key' : `${column}, key`}) INCLUDE (${include})`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [name, column, replaces] of SORTS) {
      await q.query(`DROP INDEX IF EXISTS tokens_sort_${name}_idx`);
      if (replaces) await q.query(`CREATE INDEX ${replaces} ON tokens (${column}, key)`);
    }
  }
}
