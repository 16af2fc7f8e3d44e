import { DataSource } from 'typeorm';
import type { ActivityPosition } from './cursor';

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

  /** gross volume (deposits, withdrawals, swaps) and debt flow (borrows, repays) per UTC day */
  daily(tokenKey: string, since: Date): Promise<DailyRow[]> {
    return this.ds.query(
      `SELECT to_char(time AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
              CASE WHEN type IN ('borrow', 'repay') THEN 'debt' ELSE 'volume' END AS kind,
              sum(volume_raw)::text AS raw, sum(volume_usd) AS usd, count(*)::int AS events
         FROM activities WHERE token_key = $1 AND time >= $2
        GROUP BY 1, 2 ORDER BY 1`,
      [tokenKey, since],
    );
  }

  flows(tokenKey: string, since: Date): Promise<Array<{ type: string; direction: number; time: Date; volume_usd: number }>> {
    return this.ds.query(
      `SELECT type, direction, time, volume_usd FROM activities
        WHERE token_key = $1 AND time >= $2 AND type IN ('swap', 'deposit', 'withdraw')`,
      [tokenKey, since],
    );
  }
}
