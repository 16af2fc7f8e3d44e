/**
 * EXPLAIN of the /v2/tokens page statement over a 50,000-token catalogue: a filtered, sorted list,
 * shallow or deep, must walk an index of `tokens`, never a sequential scan. (The separate count may
 * scan the table when the filter matches most of it; that is the cheapest way to count it.)
 */
import { Pool } from 'pg';
import { ListTokensRequest } from '@tokensvc/messages';
import { dropDatabase, migrate } from '@tokensvc/persistence';
import { createTestDatabaseUrl } from '@tokensvc/testing';
import { tokensListSql } from './tokens.repository';

const TOKENS = 50_000;

describe('GET /v2/tokens query plans (50k tokens)', () => {
  const url = createTestDatabaseUrl('td_tokens_plan');
  let pool: Pool;

  beforeAll(async () => {
    await migrate(url);
    pool = new Pool({ connectionString: url, max: 1 });
    await pool.query(
      `INSERT INTO tokens (key, network, address, platform, family, name, symbol, decimals, created_at, liquidity, apy, volume_usd_1d, price, is_verified)
       SELECT n || ':' || a, n, a, (ARRAY['uniswap-v2','aave-v3','basic'])[1 + i % 3], 'basic', 'Token ' || i, 'T' || i, 18, now(),
              (i * 7919) % 100000, (i * 31) % 50, (i * 13) % 9999, (i % 100) / 7.0, i % 2 = 0
         FROM generate_series(1, $1::int) i, LATERAL (SELECT '0x' || lpad(to_hex(i), 40, '0') AS a, (ARRAY['ethereum','arbitrum','base'])[1 + i % 3] AS n) x`,
      [TOKENS],
    );
    await pool.query('VACUUM ANALYZE tokens');
  }, 120_000);
  afterAll(async () => {
    await pool?.end();
    await dropDatabase(url);
  });

  const plan = async (sql: { text: string; params: unknown[] }): Promise<string> => {
    const { rows } = await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql.text}`, sql.params);
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  };

  const cases: Array<[string, Partial<ListTokensRequest>]> = [
    [
      'networks + minLiquidity, by liquidity desc',
      { networks: ['ethereum', 'base'], minLiquidity: 1000, sortBy: 'liquidity', sortDirection: 'desc' },
    ],
    ['platforms + isVerified, by apy asc', { platforms: ['uniswap-v2', 'aave-v3'], isVerified: true, sortBy: 'apy', sortDirection: 'asc' }],
    ['networks, by volumeUsd1d desc', { networks: ['arbitrum'], sortBy: 'volumeUsd1d', sortDirection: 'desc' }],
    ['no filter, default order (key)', {}],
  ];

  it.each(cases)('%s: pages 0 and 400 walk an index of tokens', async (_name, over) => {
    const req = { ...ListTokensRequest.fromJSON({}), ...over };
    for (const page of [0, 400]) {
      const sql = tokensListSql(req, 25, page * 25);
      const pagePlan = await plan(sql.page);
      expect({ page, pagePlan }).toEqual({ page, pagePlan: expect.not.stringMatching(/Seq Scan on tokens/) });
      // the deep page is found in an index, not by sorting every matching row
      expect(pagePlan).toMatch(/Index (Only )?Scan( Backward)? using tokens_sort_\w+_idx/);
    }
  });
});
