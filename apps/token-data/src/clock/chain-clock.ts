import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/**
 * "Now" for the rolling windows of a network (24 h of transactions, 48 h of metrics, default
 * history start) is the time of the latest block the indexer has applied, not the wall clock: on a
 * live chain the two agree within a block, and on a back-dated devnet the windows still hold the
 * seeded activity. A network nobody has indexed yet falls back to the wall clock.
 */
@Injectable()
export class ChainClock {
  constructor(private readonly ds: DataSource) {}

  async now(network: string): Promise<Date> {
    const rows: Array<{ time: Date | null }> = await this.ds.query(
      `SELECT coalesce(
         (SELECT b.time FROM index_cursors c JOIN blocks b ON b.network = c.network AND b.number = c.block_number WHERE c.network = $1),
         (SELECT max(time) FROM blocks WHERE network = $1)) AS time`,
      [network],
    );
    return rows[0]?.time ?? new Date();
  }
}
