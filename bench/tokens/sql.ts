/**
 * The SQL token-data runs for the benchmarked requests (tokens.repository.ts, history.usecase.ts;
 * account.usecase.ts: see ACCOUNT_SQL), for the bare Fastify + pg baseline. The bench checks before measuring that
 * both sides return the same keys, totals and order, so a drift between the two shows up.
 */
export const TOKEN_COLUMNS = `t.key, t.network, t.address, t.platform, t.family, t.name, t.symbol, t.decimals, t.underlying,
  t.pool_address, t.image, t.images, t.tags, t.metadata, t.is_portable, t.is_verified, t.created_at, t.updated_at,
  t.verified_at, t.price, t.liquidity, t.total_supply::text AS total_supply, t.total_borrow::text AS total_borrow,
  t.circulating_supply::text AS circulating_supply, t.reserves::text[] AS reserves, t.price_per_share, t.apy, t.base_apy,
  t.reward_apy, t.borrow_apy, t.base_borrow_apy, t.volume_usd_1d, t.volume_usd_7d, t.paid_metrics`;

/** networks=$1, minLiquidity=$2, maxApy=$3 (default 1e6), sortBy=liquidity desc, limit $4 offset $5 */
const LIST_WHERE = `t.network = ANY($1::text[]) AND t.liquidity >= $2 AND t.apy <= $3`;
const LIST_ORDER = `t.liquidity DESC, t.key DESC`;
export const LIST_PAGE_SQL = `SELECT ${TOKEN_COLUMNS} FROM (SELECT t.key FROM tokens t WHERE ${LIST_WHERE} ORDER BY ${LIST_ORDER} LIMIT $4 OFFSET $5) p
        JOIN tokens t ON t.key = p.key ORDER BY ${LIST_ORDER}`;
export const LIST_COUNT_SQL = `SELECT count(*)::int AS total FROM tokens t WHERE ${LIST_WHERE}`;

export const TOKEN_BY_KEY_SQL = `SELECT ${TOKEN_COLUMNS} FROM tokens t WHERE t.key = $1`;
export const HISTORY_SQL = `SELECT bucket, open, high, low, close, liquidity, reserves::text[] AS reserves, total_supply::text AS total_supply,
              total_borrow::text AS total_borrow, circulating_supply::text AS circulating_supply, price_per_share,
              volume_1d_usd, apy, base_apy, reward_apy, borrow_apy, base_borrow_apy, trending_score, count(*) OVER () AS total
         FROM candles WHERE token_key = $1 AND resolution = $2 AND bucket >= to_timestamp($3)
        ORDER BY bucket LIMIT $4 OFFSET $5`;

/**
 * /v2/account as one join reading every token column per request. token-data splits it (account.usecase.ts):
 * the same join per request for the balances with each token's key and row version only, and the token
 * columns only for records it has not built for that version yet (TokenRecordCache). The bare handler
 * keeps the straightforward join: what a server without a record cache reads to answer.
 */
export const ACCOUNT_SQL = `SELECT ${TOKEN_COLUMNS}, b.balance::text AS raw_balance FROM balances b
         JOIN tokens t ON t.network = b.network AND t.address = b.token
        WHERE b.holder = $1 AND b.network = ANY($2::text[]) AND b.balance > 0
        ORDER BY b.network, t.key`;
