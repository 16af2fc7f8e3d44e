import Fastify, { type FastifyInstance } from 'fastify';
import type { Pool } from 'pg';
import { ACCOUNT_SQL, HISTORY_SQL, LIST_COUNT_SQL, LIST_PAGE_SQL, TOKEN_BY_KEY_SQL } from './sql';

type Query = Record<string, string | string[] | undefined>;
const one = (q: Query, name: string): string => {
  const v = q[name];
  return (Array.isArray(v) ? v[0] : v) ?? '';
};
const many = (q: Query, name: string): string[] => {
  const v = q[name];
  return (Array.isArray(v) ? v : v === undefined ? [] : [v]).flatMap((x) => x.split(','));
};

/**
 * The lower bound: the same SQL per request as token-data, rows straight to JSON (no gateway,
 * no NATS, no validation, no Token mapping). Handles exactly the query strings the bench sends.
 */
export function bareServer(pool: Pool): FastifyInstance {
  const app = Fastify();
  app.get('/v2/tokens', async (req) => {
    const q = req.query as Query;
    const limit = Number(one(q, 'limit'));
    const params = [many(q, 'networks'), Number(one(q, 'minLiquidity')), 1e6];
    const [page, count] = await Promise.all([
      pool.query(LIST_PAGE_SQL, [...params, limit, Number(one(q, 'page')) * limit]),
      pool.query<{ total: number }>(LIST_COUNT_SQL, params),
    ]);
    return { totalItems: count.rows[0]?.total ?? 0, tokens: page.rows };
  });
  app.get('/v2/tokens/history', async (req) => {
    const q = req.query as Query;
    const token = (await pool.query<{ key: string }>(TOKEN_BY_KEY_SQL, [one(q, 'id').toLowerCase()])).rows[0];
    if (!token) throw new Error('unknown token');
    const from = Math.floor(Number(one(q, 'from')) / 3600) * 3600;
    const rows = (await pool.query<{ total: string }>(HISTORY_SQL, [token.key, one(q, 'resolution'), from, 100, 0])).rows;
    return { totalItems: Number(rows[0]?.total ?? 0), history: rows };
  });
  app.get('/v2/account', async (req) => {
    const q = req.query as Query;
    return { balances: (await pool.query(ACCOUNT_SQL, [one(q, 'owner').toLowerCase(), many(q, 'networks')])).rows };
  });
  return app;
}
