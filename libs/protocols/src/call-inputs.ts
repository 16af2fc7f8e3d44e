/** Helpers for executor calls whose amounts the executor writes into the call data. */
import { ALL_BPS, type CallInput } from '@tokensvc/contracts';

/** Byte offset of static argument `index` in call data (selector, then 32-byte words). */
export const argOffset = (index: number): number => 4 + 32 * index;

/** All of the executor's balance of `token`, written at argument `argIndex`. */
export function allOf(token: string, argIndex: number, approve: boolean): CallInput {
  return { token, bps: ALL_BPS, amount: 0n, offset: argOffset(argIndex), approve };
}
