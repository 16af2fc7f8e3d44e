/**
 * Tokens of one network as the planner sees them: metadata for responses, USD prices for values
 * and gas, and what a composed token is made of (its zap edges).
 */

import { type TokenKind, protocolOf } from '@tokensvc/protocols';

export type { TokenKind } from '@tokensvc/protocols';

export interface CatalogToken {
  /** lowercase; the zero address is the native token */
  address: string;
  symbol: string;
  name: string;
  decimals: number;
  /** adapter family of the indexer (`basic`, `native`, `uniswap-v2`, `erc4626`, `aave-v3`, ...) */
  family: string;
  platform: string;
  /** lowercase underlying token addresses (pair tokens, vault asset, lending asset) */
  underlying: readonly string[];
  /** the pair (LP), the vault, or the lending pool; lowercase */
  poolAddress: string | null;
  /** USD per whole token, 0 when unknown */
  priceUsd: number;
}

/**
 * How the planner enters and leaves a token: its protocol module's rule. A family no module has
 * (a row written by a newer indexer) is traded as a plain token, said here rather than defaulted.
 */
export function tokenKind(t: Pick<CatalogToken, 'family' | 'underlying'>): TokenKind {
  const module = protocolOf(t.family);
  return module ? module.tokenKind(t.underlying) : 'basic';
}

/** Value in USD of a base-unit amount (display and gas maths only). */
export function usdValue(token: Pick<CatalogToken, 'priceUsd' | 'decimals'>, amount: bigint): number {
  if (token.priceUsd <= 0) return 0;
  return (Number(amount) / 10 ** token.decimals) * token.priceUsd;
}
