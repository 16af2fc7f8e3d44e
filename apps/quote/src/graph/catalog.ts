/**
 * Tokens of one network as the planner sees them: metadata for responses, USD prices for values
 * and gas, and what a composed token is made of (its zap edges).
 */

/** How the planner enters and leaves a token. */
export type TokenKind = 'native' | 'basic' | 'v2-lp' | 'vault' | 'lending';

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

export function tokenKind(t: Pick<CatalogToken, 'family' | 'underlying'>): TokenKind {
  switch (t.family) {
    case 'native':
      return 'native';
    case 'uniswap-v2':
      return t.underlying.length === 2 ? 'v2-lp' : 'basic';
    case 'erc4626':
      return t.underlying.length === 1 ? 'vault' : 'basic';
    case 'aave-v3':
      return t.underlying.length === 1 ? 'lending' : 'basic';
    default:
      return 'basic';
  }
}

/** Value in USD of a base-unit amount (display and gas maths only). */
export function usdValue(token: Pick<CatalogToken, 'priceUsd' | 'decimals'>, amount: bigint): number {
  if (token.priceUsd <= 0) return 0;
  return (Number(amount) / 10 ** token.decimals) * token.priceUsd;
}
