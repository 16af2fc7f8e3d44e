/** Parsing helpers for pool rows (numeric columns arrive as decimal strings, null or empty when unset). */
import type { PoolRow } from './protocol-module';

export const bigOf = (v: string | null | undefined): bigint => (v === null || v === undefined || v === '' ? 0n : BigInt(v));

/** The addresses and fee every two-token pool has, lowercase. */
export function pairBase(row: PoolRow): { address: string; token0: string; token1: string; fee: number } {
  return { address: row.address.toLowerCase(), token0: row.token0.toLowerCase(), token1: row.token1.toLowerCase(), fee: row.fee };
}
