import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Read models built by the indexer and read by token-data and quote.
 *
 * Rules every table follows:
 * - every unique key carries the network (token keys `<network>:<address>` already do);
 * - amounts are numeric(78,0) base units; USD figures are double precision;
 * - every derived row says which block it comes from (`block_number`), so a reorg can delete
 *   what is above the common ancestor and re-apply, and a crash resumes from `index_cursors`
 *   (raw rows are keyed by (network, block_number, log_index): re-applying a batch is a no-op).
 *
 * Hot writes go through multi-row INSERT / COPY in plain SQL; these tables have no TypeORM entities.
 */
export class Indexer1763856000000 implements MigrationInterface {
  name = 'Indexer1763856000000';

  async up(q: QueryRunner): Promise<void> {
    // ---- chain position -------------------------------------------------------------------
    await q.query(`CREATE TABLE blocks (
      network text NOT NULL,
      number bigint NOT NULL,
      hash text NOT NULL,
      parent_hash text NOT NULL,
      time timestamptz NOT NULL,
      PRIMARY KEY (network, number)
    )`);
    await q.query(`CREATE TABLE index_cursors (
      network text PRIMARY KEY,
      block_number bigint NOT NULL,
      block_hash text NOT NULL,
      finalized_block bigint NOT NULL DEFAULT 0,
      backfill_target bigint,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE TABLE indexer_leases (
      network text PRIMARY KEY,
      holder text NOT NULL,
      expires_at timestamptz NOT NULL
    )`);

    // ---- token registry + current state (one row per token; the /v2/tokens read model) -------
    await q.query(`CREATE TABLE tokens (
      key text PRIMARY KEY,
      network text NOT NULL,
      address text NOT NULL,
      platform text NOT NULL,
      family text NOT NULL,
      name text NOT NULL,
      symbol text NOT NULL,
      decimals integer NOT NULL,
      underlying text[] NOT NULL DEFAULT '{}',
      pool_address text,
      image text NOT NULL DEFAULT '',
      images text[] NOT NULL DEFAULT '{}',
      tags text[] NOT NULL DEFAULT '{}',
      metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
      is_portable boolean NOT NULL DEFAULT false,
      is_verified boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL,
      created_block bigint NOT NULL DEFAULT 0,
      updated_at timestamptz NOT NULL DEFAULT now(),
      verified_at timestamptz,
      price double precision NOT NULL DEFAULT 0,
      liquidity double precision NOT NULL DEFAULT 0,
      total_supply numeric(78,0) NOT NULL DEFAULT 0,
      total_borrow numeric(78,0) NOT NULL DEFAULT 0,
      circulating_supply numeric(78,0) NOT NULL DEFAULT 0,
      reserves numeric(78,0)[] NOT NULL DEFAULT '{}',
      price_per_share text NOT NULL DEFAULT '0',
      apy double precision NOT NULL DEFAULT 0,
      base_apy double precision NOT NULL DEFAULT 0,
      reward_apy double precision NOT NULL DEFAULT 0,
      borrow_apy double precision NOT NULL DEFAULT 0,
      base_borrow_apy double precision NOT NULL DEFAULT 0,
      volume_usd_1d double precision NOT NULL DEFAULT 0,
      volume_usd_7d double precision NOT NULL DEFAULT 0,
      paid_metrics jsonb NOT NULL DEFAULT '{}'::jsonb,
      state_block bigint NOT NULL DEFAULT 0,
      UNIQUE (network, address)
    )`);
    await q.query(`CREATE INDEX tokens_platform_idx ON tokens (platform, key)`);
    await q.query(`CREATE INDEX tokens_network_idx ON tokens (network, key)`);
    await q.query(`CREATE INDEX tokens_liquidity_idx ON tokens (liquidity, key)`);
    await q.query(`CREATE INDEX tokens_apy_idx ON tokens (apy, key)`);
    await q.query(`CREATE INDEX tokens_volume1d_idx ON tokens (volume_usd_1d, key)`);
    await q.query(`CREATE INDEX tokens_name_lower_idx ON tokens (lower(name) text_pattern_ops)`);
    await q.query(`CREATE INDEX tokens_underlying_idx ON tokens USING gin (underlying)`);

    // ---- pools (the quote service's liquidity graph) -----------------------------------------
    await q.query(`CREATE TABLE pools (
      network text NOT NULL,
      address text NOT NULL,
      platform text NOT NULL,
      family text NOT NULL,
      token0 text NOT NULL,
      token1 text NOT NULL,
      fee integer NOT NULL,
      tick_spacing integer,
      reserve0 numeric(78,0) NOT NULL DEFAULT 0,
      reserve1 numeric(78,0) NOT NULL DEFAULT 0,
      sqrt_price_x96 numeric(78,0),
      liquidity numeric(78,0),
      tick integer,
      block_number bigint NOT NULL,
      log_index integer NOT NULL DEFAULT 0,
      PRIMARY KEY (network, address)
    )`);
    await q.query(`CREATE INDEX pools_token0_idx ON pools (network, token0)`);
    await q.query(`CREATE INDEX pools_token1_idx ON pools (network, token1)`);
    await q.query(`CREATE TABLE pool_ticks (
      network text NOT NULL,
      pool text NOT NULL,
      tick integer NOT NULL,
      liquidity_net numeric(78,0) NOT NULL,
      liquidity_gross numeric(78,0) NOT NULL,
      block_number bigint NOT NULL,
      PRIMARY KEY (network, pool, tick)
    )`);

    // ---- raw decoded events (append-only, keyed by position in the chain) ---------------------
    await q.query(`CREATE TABLE transfers (
      network text NOT NULL,
      block_number bigint NOT NULL,
      log_index integer NOT NULL,
      tx_hash text NOT NULL,
      token text NOT NULL,
      from_address text NOT NULL,
      to_address text NOT NULL,
      value numeric(78,0) NOT NULL,
      PRIMARY KEY (network, block_number, log_index)
    )`);
    await q.query(`CREATE INDEX transfers_token_idx ON transfers (network, token, block_number)`);

    // ---- balances (holders and /v2/account), maintained from transfers -----------------------
    await q.query(`CREATE TABLE balances (
      network text NOT NULL,
      token text NOT NULL,
      holder text NOT NULL,
      balance numeric(78,0) NOT NULL,
      block_number bigint NOT NULL,
      PRIMARY KEY (network, token, holder)
    )`);
    await q.query(`CREATE INDEX balances_holder_idx ON balances (holder, network) WHERE balance > 0`);
    await q.query(`CREATE INDEX balances_top_idx ON balances (network, token, balance DESC, holder) WHERE balance > 0`);

    // ---- activities: swaps, deposits, withdrawals, borrows, repays of platform tokens --------
    await q.query(`CREATE TABLE activities (
      network text NOT NULL,
      block_number bigint NOT NULL,
      log_index integer NOT NULL,
      token_key text NOT NULL,
      tx_hash text NOT NULL,
      time timestamptz NOT NULL,
      type text NOT NULL CHECK (type IN ('swap','deposit','withdraw','borrow','repay')),
      account text NOT NULL DEFAULT '',
      direction smallint NOT NULL DEFAULT 0,
      input_token text,
      input_amount numeric(78,0),
      input_usd double precision,
      output_token text,
      output_amount numeric(78,0),
      output_usd double precision,
      amounts jsonb NOT NULL DEFAULT '[]'::jsonb,
      volume_raw numeric(78,0) NOT NULL DEFAULT 0,
      volume_usd double precision NOT NULL DEFAULT 0,
      PRIMARY KEY (network, block_number, log_index, token_key)
    )`);
    await q.query(`CREATE INDEX activities_token_time_idx ON activities (token_key, time DESC, block_number DESC, log_index DESC)`);

    // ---- price points and candles -------------------------------------------------------------
    await q.query(`CREATE TABLE price_points (
      token_key text NOT NULL,
      block_number bigint NOT NULL,
      time timestamptz NOT NULL,
      price double precision NOT NULL,
      liquidity double precision NOT NULL DEFAULT 0,
      PRIMARY KEY (token_key, block_number)
    )`);
    await q.query(`CREATE INDEX price_points_time_idx ON price_points (token_key, time)`);
    await q.query(`CREATE TABLE candles (
      token_key text NOT NULL,
      resolution text NOT NULL CHECK (resolution IN ('15m','30m','1h','4h','1d')),
      bucket timestamptz NOT NULL,
      open double precision NOT NULL,
      high double precision NOT NULL,
      low double precision NOT NULL,
      close double precision NOT NULL,
      liquidity double precision NOT NULL DEFAULT 0,
      reserves numeric(78,0)[] NOT NULL DEFAULT '{}',
      total_supply numeric(78,0) NOT NULL DEFAULT 0,
      total_borrow numeric(78,0) NOT NULL DEFAULT 0,
      circulating_supply numeric(78,0) NOT NULL DEFAULT 0,
      price_per_share text NOT NULL DEFAULT '0',
      volume_usd double precision NOT NULL DEFAULT 0,
      volume_1d_usd double precision NOT NULL DEFAULT 0,
      apy double precision NOT NULL DEFAULT 0,
      base_apy double precision NOT NULL DEFAULT 0,
      reward_apy double precision NOT NULL DEFAULT 0,
      borrow_apy double precision NOT NULL DEFAULT 0,
      base_borrow_apy double precision NOT NULL DEFAULT 0,
      trending_score double precision NOT NULL DEFAULT 0,
      block_number bigint NOT NULL,
      PRIMARY KEY (token_key, resolution, bucket)
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'candles',
      'price_points',
      'activities',
      'balances',
      'transfers',
      'pool_ticks',
      'pools',
      'tokens',
      'indexer_leases',
      'index_cursors',
      'blocks',
    ]) {
      await q.query(`DROP TABLE ${table}`);
    }
  }
}
