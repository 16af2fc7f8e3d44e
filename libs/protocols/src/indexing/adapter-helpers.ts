import type { PlatformDefinition } from '@tokensvc/domain';
import type { Discovery } from './registry-types';

/** Address of a platform contract by role (`factory`, `pool`, ...), or undefined. */
export function roleAddress(platform: PlatformDefinition, role: string): string | undefined {
  return platform.addresses[role];
}

/** Values of `role.0`, `role.1`, ... (lists in the manifest are flattened that way). */
export function roleList(platform: PlatformDefinition, role: string): string[] {
  const out: string[] = [];
  for (let i = 0; platform.addresses[`${role}.${i}`] !== undefined; i++) out.push(platform.addresses[`${role}.${i}`]!);
  return out;
}

/** A token found as the underlying of a pool/vault/market: registered as a basic token if new. */
export function underlyingToken(address: string): Discovery {
  return {
    kind: 'token',
    token: { address, platform: 'basic', family: 'basic', underlying: [], poolAddress: null, listed: false, metadata: {} },
  };
}
