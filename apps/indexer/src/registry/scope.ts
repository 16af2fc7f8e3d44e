import { isNativeAddress } from '@tokensvc/domain';
import { tokenRoleOf } from '@tokensvc/protocols';
import type { Discovery } from '../model/registry.types';

/**
 * Which pools and lending positions a network's index covers (INDEXER_POOLS): `listed` registers a
 * pool only when both of its tokens are listed, and an Aave aToken only when its reserve's asset
 * is; `all` registers whatever the platforms' factories and configurators create.
 */
export type PoolScopeMode = 'listed' | 'all';

export interface PoolScope {
  mode: PoolScopeMode;
  /** listed ERC-20 tokens of the network (lowercase) */
  listed: ReadonlySet<string>;
}

/** Whether a token address is in a scope's token set (the native coin and every token under `all`). */
export function tokenInScope(scope: PoolScope, token: string): boolean {
  return scope.mode === 'all' || scope.listed.has(token);
}

/**
 * The entities one discovery event creates, or none when the event is out of scope: a pool with an
 * unlisted token, or an aToken of an unlisted asset, takes its LP token and underlyings with it.
 */
export function discoveriesInScope(scope: PoolScope, found: readonly Discovery[]): readonly Discovery[] {
  if (scope.mode === 'all') return found;
  for (const d of found) {
    // The native coin (a pool currency of Uniswap V4) is every network's own token: always listed.
    const listed = (t: string): boolean => isNativeAddress(t) || scope.listed.has(t);
    if (d.kind === 'pool' && !(listed(d.pool.token0) && listed(d.pool.token1))) return [];
    if (d.kind === 'token' && tokenRoleOf(d.token.family) === 'atoken' && !d.token.underlying.every((u) => scope.listed.has(u))) return [];
  }
  return found;
}
