import { SLIPPAGE_RANGE } from '@tokensvc/domain';
import type { Param } from '../schema/param';
import { q } from '../schema/values';

/** Parameters several endpoints share, built once. */
export const tokenId = (): Param<`${string}:0x${string}`, 'required'> => q.tokenKey().required().describe('token key <network>:<address>');

export const platformSlug = (): Param<string> =>
  q.string({ maxLength: 64, pattern: /^[a-z0-9][a-z0-9._-]*$/, hint: 'a platform slug (lowercase letters, digits, ".", "_", "-")' });

export const orderId = (): Param<string, 'required'> =>
  q.string({ maxLength: 128, pattern: /^[A-Za-z0-9_:-]+$/, hint: 'an order id (context.orderId of a quote)' }).required();

export const slippage = (): Param<number> => q.number(SLIPPAGE_RANGE).describe('percent, 0.1 to 10');
