import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Same-chain orders and their relaying.
 *
 * - `orders`: every quote of `GET /v2/portal`, kept a week (`keep_until`), with what a later POST
 *   needs to relay its signed variant (`signed_order`: the typed data; `calls`: the executor calls,
 *   which spend shares of balances, so they fit the signed variant's smaller input too).
 * - `relay_submissions`: at most one per order (the primary key is what makes POST idempotent).
 * - `relay_transactions`: every transaction ever signed for a submission (the first and each fee
 *   bump), raw bytes included, written in the same transaction that took its nonce, so a crash
 *   can always re-broadcast or find which one was mined.
 * - `relayer_nonces`: the next nonce per relayer wallet, taken under a row lock.
 */
export class Orders1764300000000 implements MigrationInterface {
  name = 'Orders1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE orders (
      order_id uuid PRIMARY KEY,
      network text NOT NULL,
      chain_id integer NOT NULL,
      sender text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      -- the Router deadline of the quote (context.expiry)
      expires_at timestamptz NOT NULL,
      keep_until timestamptz NOT NULL,
      context jsonb NOT NULL,
      tx jsonb NOT NULL,
      signed_order jsonb,
      calls jsonb NOT NULL
    )`);
    await q.query(`CREATE INDEX orders_keep_until_idx ON orders (keep_until)`);
    await q.query(`CREATE TABLE relay_submissions (
      order_id uuid PRIMARY KEY REFERENCES orders(order_id) ON DELETE CASCADE,
      network text NOT NULL,
      sender text NOT NULL,
      signature text NOT NULL,
      relayer text NOT NULL,
      nonce bigint NOT NULL,
      state text NOT NULL CHECK (state IN ('pending', 'mined', 'reverted', 'expired', 'dropped')),
      status_reason text,
      mined_tx_hash text,
      block_number bigint,
      gas_used numeric(78,0),
      output_amount numeric(78,0),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (network, relayer, nonce)
    )`);
    await q.query(`CREATE INDEX relay_submissions_open_idx ON relay_submissions (network) WHERE state = 'pending'`);
    await q.query(`CREATE INDEX relay_submissions_sender_idx ON relay_submissions (sender, created_at)`);
    await q.query(`CREATE TABLE relay_transactions (
      tx_hash text PRIMARY KEY,
      order_id uuid NOT NULL REFERENCES relay_submissions(order_id) ON DELETE CASCADE,
      -- 0 for the first transaction, then 1, 2, ... for each fee bump (same nonce)
      attempt integer NOT NULL,
      raw text NOT NULL,
      max_fee_per_gas numeric(78,0) NOT NULL,
      max_priority_fee_per_gas numeric(78,0) NOT NULL,
      -- a cancellation sends nothing to the Router (the order expired while pending)
      kind text NOT NULL CHECK (kind IN ('order', 'cancel')),
      created_at timestamptz NOT NULL DEFAULT now(),
      broadcast_at timestamptz,
      UNIQUE (order_id, attempt)
    )`);
    await q.query(`CREATE TABLE relayer_nonces (
      network text NOT NULL,
      relayer text NOT NULL,
      next_nonce bigint NOT NULL CHECK (next_nonce >= 0),
      PRIMARY KEY (network, relayer)
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE relayer_nonces`);
    await q.query(`DROP TABLE relay_transactions`);
    await q.query(`DROP TABLE relay_submissions`);
    await q.query(`DROP TABLE orders`);
  }
}
