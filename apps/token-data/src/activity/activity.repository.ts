import { DataSource } from 'typeorm';
import type { ActivityPosition } from './cursor';
import type { FlowEvent } from './interval-metrics';

export interface ActivityRow {
  block_number: string;
  log_index: number;
  tx_hash: string;
  time: Date;
  type: string;
  account: string;
  direction: number;
  input_token: string | null;
  input_amount: string | null;
  input_usd: number | null;
  output_token: string | null;
  output_amount: string | null;
  output_usd: number | null;
  amounts: Array<Record<string, unknown>>;
  volume_usd: number;
}

export interface DailyRow {
  day: string;
  kind: 'volume' | 'debt';
  raw: string;
  usd: number;
  events: number;
}

/** Reads of `activities`, newest first, keyset-paged on (time, block, log index). */
export class ActivityRepository {
  constructor(private readonly ds: DataSource) {}

  page(tokenKey: string, since: Date, after: ActivityPosition | undefined, limit: number): Promise<ActivityRow[]> {
    const params: unknown[] = [tokenKey, since, limit];
    let keyset = '';
    if (after) {
      params.push(new Date(after.timeMs), after.block, after.logIndex);
      keyset = 'AND (time, block_number, log_index) < ($4, $5, $6)';
    }
    return this.ds.query(
      `SELECT block_number::text AS block_number, log_index, tx_hash, time, type, account, direction, input_token,
              input_amount::text AS input_amount, input_usd, output_token, output_amount::text AS output_amount, output_usd,
              amounts, volume_usd
         FROM activities WHERE token_key = $1 AND time >= $2 ${keyset}
        ORDER BY time DESC, block_number DESC, log_index DESC LIMIT $3`,
      params,
    );
  }

  /**
   * gross volume (deposits, withdrawals, swaps) and debt flow (borrows, repays) per UTC day. USD
   * sums add in chain order: a float sum depends on the order of its terms, and the rows' physical
   * order differs between two indexings of the same chain (the golden check saw the last digit move).
   */
  daily(tokenKey: string, since: Date): Promise<DailyRow[]> {
    return this.ds.query(
      `SELECT to_char(time AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
              CASE WHEN type IN ('borrow', 'repay') THEN 'debt' ELSE 'volume' END AS kind,
              sum(volume_raw)::text AS raw, sum(volume_usd ORDER BY block_number, log_index, volume_usd) AS usd, count(*)::int AS events
         FROM activities WHERE token_key = $1 AND time >= $2
        GROUP BY 1, 2 ORDER BY 1`,
      [tokenKey, since],
    );
  }

  /**
   * The deposits, withdrawals and swaps of `tokenKey` in [edgesMs[0], toMs), aggregated per (type,
   * direction) and per interval between consecutive `edgesMs` (ascending): at most a few dozen
   * rows however many events the token has (issue 16: no unbounded read). Each bucket is a
   * FlowEvent at its interval's start carrying its count.
   */
  async flowBuckets(tokenKey: string, edgesMs: readonly number[], toMs: number): Promise<FlowEvent[]> {
    const edges = edgesMs.map((ms) => new Date(ms));
    const rows: Array<{ type: string; direction: number; bucket: number; n: number; usd: number | string | null }> = await this.ds.query(
      `SELECT type, direction, width_bucket(time, $2::timestamptz[]) AS bucket, count(*)::int AS n, sum(volume_usd ORDER BY block_number, log_index, volume_usd) AS usd
         FROM activities
        WHERE token_key = $1 AND time >= $3 AND time < $4 AND type IN ('swap', 'deposit', 'withdraw')
        GROUP BY 1, 2, 3`,
      [tokenKey, edges, edges[0], new Date(toMs)],
    );
    return rows.map((r) => ({
      type: r.type,
      direction: r.direction,
      timeMs: edgesMs[r.bucket - 1]!,
      volumeUsd: Number(r.usd ?? 0),
      count: r.n,
    }));
  }
}
