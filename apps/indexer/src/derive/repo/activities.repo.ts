/** activities: swaps, deposits, withdrawals, borrows and repays of platform tokens. */
import { SLICE_CHECK_EVERY, TimeSlice } from '../../model/time-slice';
import type { ActivityRow, AmountRecord } from '../engine/activities';
import { CopyWriter } from '../../store/copy-writer';
import { columns, text, type SqlTx } from './sql';

const ACTIVITIES_COPY = `COPY activities (network, block_number, log_index, token_key, tx_hash, time, type, account, direction, input_token, input_amount,
  input_usd, output_token, output_amount, output_usd, amounts, volume_raw, volume_usd) FROM STDIN`;

/**
 * Activities as a COPY payload (a batch's tens of thousands of rows: COPY is several times
 * cheaper than INSERT ... unnest for both node and Postgres), built in time slices.
 */
export async function activitiesPayload(rows: readonly ActivityRow[], slice: TimeSlice): Promise<Buffer[]> {
  const w = new CopyWriter();
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    // Network, token keys, hashes and types repeat from row to row; amounts are digits only.
    w.textRepeating(0, r.network)
      .plain(r.blockNumber)
      .plain(r.logIndex)
      .textRepeating(1, r.tokenKey)
      .textRepeating(2, r.txHash)
      .time(r.time)
      .textRepeating(3, r.type)
      .text(r.account)
      .plain(r.direction);
    nullable(w, 4, r.inputToken).amount(w, r.inputAmount).float(r.inputUsd);
    nullable(w, 5, r.outputToken).amount(w, r.outputAmount).float(r.outputUsd);
    w.text(amountsJson(r.amounts)).plain(r.volumeRaw).float(r.volumeUsd).endRow();
    if (i % SLICE_CHECK_EVERY === 0) await slice.maybeYield();
  }
  return w.finish();
}

/** JSON text safe without escapes: printable ASCII but quote and backslash */
const JSON_SAFE = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
const jsonString = (s: string): string => (JSON_SAFE.test(s) ? `"${s}"` : JSON.stringify(s));

/**
 * JSON.stringify(amounts), byte for byte, for the records activities make (key, symbol, amount,
 * amountUsd, then account when set; other shapes go through JSON.stringify).
 */
export function amountsJson(amounts: readonly AmountRecord[]): string {
  let out = '[';
  for (let i = 0; i < amounts.length; i++) {
    const a = amounts[i]!;
    const keys = Object.keys(a);
    if (
      keys.length !== (a.account === undefined ? 4 : 5) ||
      keys[0] !== 'key' ||
      keys[1] !== 'symbol' ||
      keys[2] !== 'amount' ||
      keys[3] !== 'amountUsd'
    )
      return JSON.stringify(amounts);
    if (
      typeof a.key !== 'string' ||
      typeof a.symbol !== 'string' ||
      typeof a.amount !== 'string' ||
      typeof a.amountUsd !== 'string' ||
      (a.account !== undefined && typeof a.account !== 'string')
    )
      return JSON.stringify(amounts);
    if (i > 0) out += ',';
    out += `{"key":${jsonString(a.key)},"symbol":${jsonString(a.symbol)},"amount":${jsonString(a.amount)},"amountUsd":${jsonString(a.amountUsd)}`;
    out += a.account === undefined ? '}' : `,"account":${jsonString(a.account)}}`;
  }
  return `${out}]`;
}

/** a token key (or null) of a column whose value often repeats */
function nullable(w: CopyWriter, slot: number, key: string | null): { amount(w: CopyWriter, v: bigint | null): CopyWriter } {
  if (key === null) w.nullField();
  else w.textRepeating(slot, key);
  return AMOUNT;
}

/** a base-unit amount (or null): its digits */
const AMOUNT = { amount: (w: CopyWriter, v: bigint | null): CopyWriter => (v === null ? w.nullField() : w.plain(v)) };

/**
 * Inserts a batch's activities. The pipeline's transaction COPYs them (a position already stored
 * is an error, as for transfers: it would mean the batch was applied twice); a plain SqlTx
 * inserts them through unnest, skipping stored positions.
 */
export async function writeActivities(tx: SqlTx, rows: readonly ActivityRow[], payload?: readonly Buffer[]): Promise<void> {
  if (rows.length === 0) return;
  if (tx.copy) {
    const copied = await tx.copy(ACTIVITIES_COPY, payload ?? (await activitiesPayload(rows, new TimeSlice())));
    if (copied !== rows.length) throw new Error(`COPY stored ${copied} of ${rows.length} activities`);
    return;
  }
  const params = columns(rows, [
    (r) => r.network,
    (r) => r.blockNumber,
    (r) => r.logIndex,
    (r) => r.tokenKey,
    (r) => r.txHash,
    (r) => r.time,
    (r) => r.type,
    (r) => r.account,
    (r) => r.direction,
    (r) => r.inputToken,
    (r) => text(r.inputAmount),
    (r) => r.inputUsd,
    (r) => r.outputToken,
    (r) => text(r.outputAmount),
    (r) => r.outputUsd,
    (r) => JSON.stringify(r.amounts),
    (r) => r.volumeRaw.toString(),
    (r) => r.volumeUsd,
  ]);
  await tx.query(
    `INSERT INTO activities (network, block_number, log_index, token_key, tx_hash, time, type, account, direction, input_token, input_amount,
       input_usd, output_token, output_amount, output_usd, amounts, volume_raw, volume_usd)
     SELECT n, b, li, k, h, to_timestamp(t), ty, acc, d, it, ia::numeric, iu, ot, oa::numeric, ou, am::jsonb, vr::numeric, vu
     FROM unnest($1::text[], $2::bigint[], $3::int[], $4::text[], $5::text[], $6::float8[], $7::text[], $8::text[], $9::smallint[], $10::text[],
       $11::text[], $12::float8[], $13::text[], $14::text[], $15::float8[], $16::text[], $17::text[], $18::float8[])
       AS u(n, b, li, k, h, t, ty, acc, d, it, ia, iu, ot, oa, ou, am, vr, vu)
     ON CONFLICT (network, block_number, log_index, token_key) DO NOTHING`,
    params,
  );
}

export interface ActivityVolume {
  token_key: string;
  time: number;
  type: string;
  volume_usd: number;
}

/** Activity volumes (USD) of some tokens from `from` on (and below a block), in chain order. */
export async function loadActivityVolumesSince(
  tx: SqlTx,
  tokenKeys: readonly string[],
  from: number,
  beforeBlock = Number.MAX_SAFE_INTEGER,
): Promise<ActivityVolume[]> {
  if (tokenKeys.length === 0) return [];
  return tx.query(
    `SELECT token_key, extract(epoch from time)::float8 AS time, type, volume_usd FROM activities
     WHERE token_key = ANY($1::text[]) AND time >= to_timestamp($2) AND block_number < $3
     ORDER BY block_number, log_index`,
    [tokenKeys, from, beforeBlock],
  );
}

export async function deleteActivitiesAbove(tx: SqlTx, network: string, block: number): Promise<void> {
  await tx.query(`DELETE FROM activities WHERE network = $1 AND block_number > $2`, [network, block]);
}
