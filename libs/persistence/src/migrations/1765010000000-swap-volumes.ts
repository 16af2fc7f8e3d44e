import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `swap_volumes` (issue 32): the DEX swap volume of basic and native tokens, one row per token and
 * block with swaps (every indexed pool's swaps, V2 and V3 alike; a swap counts for both its
 * tokens, valued at its input side). Per block rather than per swap: the rows a block adds are
 * summed over all pools (WETH is in most swaps of a block), and a reorg deletes exactly the rows
 * above the common ancestor, as it does activities and price points. A coarser bucket (a minute,
 * 15 minutes) would mix blocks on both sides of an ancestor and could not be rolled back without
 * the swaps themselves, which are not stored.
 */
export class SwapVolumes1765010000000 implements MigrationInterface {
  name = 'SwapVolumes1765010000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE swap_volumes (
      token_key text NOT NULL,
      block_number bigint NOT NULL,
      network text NOT NULL,
      time timestamptz NOT NULL,
      swaps integer NOT NULL,
      volume_cents bigint NOT NULL,
      PRIMARY KEY (token_key, block_number)
    )`);
    await q.query(`CREATE INDEX swap_volumes_token_time_idx ON swap_volumes (token_key, time) INCLUDE (volume_cents)`);
    await q.query(`CREATE INDEX swap_volumes_network_block_idx ON swap_volumes (network, block_number)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE swap_volumes`);
  }
}
