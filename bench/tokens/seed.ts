/**
 * The generated data of `tokens.bench.ts`, written with generate_series in a few statements:
 * a catalogue of `tokens` across the three devnet networks and six platforms (log-spread
 * liquidity, APYs, volumes, paid metrics), 1h candles for tokens 1..candleTokens, and accounts holding
 * many tokens each, plus holders filling the rest of `balances`. Deterministic (setseed).
 */
import type { Pool } from 'pg';

export const SEED = {
  tokens: 60_000,
  networks: ['ethereum', 'arbitrum', 'base'],
  /** platform and family, cycled over the catalogue */
  platforms: [
    ['basic', 'basic'],
    ['uniswap-v2', 'uniswap-v2'],
    ['sushiswap', 'uniswap-v2'],
    ['uniswap-v3', 'uniswap-v3'],
    ['erc4626-vaults', 'erc4626'],
    ['aave-v3', 'aave-v3'],
  ],
  candleTokens: 300,
  candleHours: 24 * 60,
  accounts: 2_000,
  tokensPerAccount: 100,
} as const;

/** token i (1-based) */
export const tokenAddress = (i: number): string => `0x${i.toString(16).padStart(40, '0')}`;
export const tokenKey = (i: number): string => `${SEED.networks[i % SEED.networks.length]}:${tokenAddress(i)}`;
/** account j (0-based) */
export const accountAddress = (j: number): string => `0x${(0xacc0000000 + j).toString(16).padStart(40, '0')}`;

const TOKENS_SQL = `
INSERT INTO tokens (key, network, address, platform, family, name, symbol, decimals, underlying, pool_address, image, tags,
  is_portable, is_verified, created_at, updated_at, verified_at, price, liquidity, total_supply, circulating_supply, reserves,
  price_per_share, apy, base_apy, reward_apy, borrow_apy, volume_usd_1d, volume_usd_7d, paid_metrics, state_block)
SELECT n || ':' || a, n, a, p[1], p[2], 'Token ' || i || ' ' || md5(i::text), 'T' || upper(substr(md5(i::text), 1, 4)),
  (ARRAY[6, 8, 18, 18])[1 + i % 4], CASE WHEN p[2] = 'basic' THEN '{}' ELSE ARRAY[n || ':0x' || lpad(to_hex(i + 1), 40, '0')] END,
  CASE WHEN p[2] IN ('uniswap-v2', 'uniswap-v3') THEN a END, '/img/' || i || '.png', ARRAY[(ARRAY['stable', 'defi', 'meme', 'lsd'])[1 + i % 4]],
  i % 5 = 0, i % 3 <> 0, now() - (i % 700) * interval '1 hour', now() - (i % 50) * interval '1 minute',
  CASE WHEN i % 3 <> 0 THEN now() - interval '2 days' END,
  exp(random() * 12 - 4), exp(random() * 20), (10::numeric ^ 24 * random())::numeric(78,0), (10::numeric ^ 23 * random())::numeric(78,0),
  ARRAY[(10::numeric ^ 21 * random())::numeric(78,0), (10::numeric ^ 21 * random())::numeric(78,0)],
  (1 + random())::text, random() * 40, random() * 30, random() * 10, random() * 15, exp(random() * 16), exp(random() * 18),
  jsonb_build_object('price1d', random(), 'liquidity1d', random() * 1e6, 'apy1d', random() * 20), 1
FROM generate_series(1, $1::int) i,
  LATERAL (SELECT '0x' || lpad(to_hex(i), 40, '0') AS a, ($2::text[])[1 + i % array_length($2::text[], 1)] AS n,
    ARRAY[($3::text[])[1 + i % array_length($3::text[], 1)], ($4::text[])[1 + i % array_length($4::text[], 1)]] AS p) x`;

const CANDLES_SQL = `
INSERT INTO candles (token_key, resolution, bucket, open, high, low, close, liquidity, total_supply, volume_usd, volume_1d_usd, apy, trending_score, block_number)
SELECT t.key, '1h', date_trunc('hour', now()) - h * interval '1 hour', o, o * 1.02, o * 0.98, o * (0.99 + random() * 0.02),
  t.liquidity * (0.9 + random() * 0.2), t.total_supply, random() * 1e5, random() * 1e6, random() * 20, random(), 1
FROM (SELECT key, liquidity, total_supply FROM tokens WHERE address <= '0x' || lpad(to_hex($1::int), 40, '0')) t, generate_series(0, $2::int - 1) h,
  LATERAL (SELECT 1 + random() AS o) r`;

/** account j holds tokens j*k+1 .. (stride over the catalogue), never aave-v3 (those are read live via RPC) */
const BALANCES_SQL = `
INSERT INTO balances (network, token, holder, balance, block_number)
SELECT t.network, t.address, '0x' || lpad(to_hex(x'acc0000000'::bigint + j), 40, '0'), (10::numeric ^ 20 * random())::numeric(78,0), 1
FROM generate_series(0, $1::int - 1) j, generate_series(0, $2::int - 1) k,
  LATERAL (SELECT network, address FROM tokens WHERE key = (ARRAY['ethereum','arbitrum','base'])[1 + (1 + (j * 7 + k * 131) % $3::int) % 3]
    || ':0x' || lpad(to_hex(1 + (j * 7 + k * 131) % $3::int), 40, '0') AND family <> 'aave-v3') t
ON CONFLICT DO NOTHING`;

export async function seedCatalogue(pool: Pool, log: (s: string) => void): Promise<void> {
  const platforms = SEED.platforms.map((p) => p[0]);
  const families = SEED.platforms.map((p) => p[1]);
  const t0 = Date.now();
  const c = await pool.connect();
  try {
    await c.query('SELECT setseed(0.42)');
    await c.query(TOKENS_SQL, [SEED.tokens, SEED.networks, platforms, families]);
    await c.query(CANDLES_SQL, [SEED.candleTokens, SEED.candleHours]);
    await c.query(BALANCES_SQL, [SEED.accounts, SEED.tokensPerAccount, SEED.tokens]);
    for (const table of ['tokens', 'candles', 'balances']) await c.query(`VACUUM ANALYZE ${table}`);
  } finally {
    c.release();
  }
  const { rows } = await pool.query<{ t: number; c: number; b: number }>(
    'SELECT (SELECT count(*)::int FROM tokens) t, (SELECT count(*)::int FROM candles) c, (SELECT count(*)::int FROM balances) b',
  );
  log(`seeded ${rows[0]!.t} tokens, ${rows[0]!.c} candles, ${rows[0]!.b} balances in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
