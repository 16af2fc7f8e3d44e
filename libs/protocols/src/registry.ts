/**
 * The one list of protocol modules. A family named in libs/domain's PLATFORM_FAMILIES without a
 * module here (or the reverse) does not compile.
 */
import type { PlatformFamily } from '@tokensvc/domain';
import { isPlatformFamily, type PlatformDefinition } from '@tokensvc/domain';
import type { PoolShape } from '@tokensvc/routing';
import { aaveV3 } from './aave-v3';
import { basic } from './basic';
import { erc4626 } from './erc4626';
import { native } from './native';
import { COMPOSED_ACTION_SIDE, type ComposedAction, type ComposedKind } from './actions';
import type { ActionFacet, DexFacet, IssuerFacet, ProtocolModule } from './protocol-module';
import { uniswapV2 } from './uniswap-v2';
import { uniswapV3 } from './uniswap-v3';
import { uniswapV4 } from './uniswap-v4';

export const PROTOCOLS = {
  native,
  basic,
  'uniswap-v2': uniswapV2,
  'uniswap-v3': uniswapV3,
  'uniswap-v4': uniswapV4,
  erc4626,
  'aave-v3': aaveV3,
} as const satisfies { readonly [F in PlatformFamily]: ProtocolModule<F> };

/** The invariant of a pool family's pools: throws for a family that routes no swaps. */
export function shapeOf(family: PlatformFamily): PoolShape {
  return dexFacet(family).shape;
}

/** The module of a family read from storage or the bus; undefined for a name no module has. */
export function protocolOf(family: string): ProtocolModule | undefined {
  return isPlatformFamily(family) ? (PROTOCOLS[family] as ProtocolModule) : undefined;
}

/** The DEX facet of a family; undefined when the family routes no swaps (or is unknown). */
export function dexOf(family: string): DexFacet | undefined {
  return protocolOf(family)?.dex ?? undefined;
}

/** The DEX facet of a family known to route swaps (a pool's family): throws when it has none. */
export function dexFacet(family: PlatformFamily): DexFacet {
  const dex = (PROTOCOLS[family] as ProtocolModule).dex;
  if (!dex) throw new Error(`protocol ${family} routes no swaps`);
  return dex;
}

/** The issuer facet of a family for tokens of kind `kind`: throws when the family issues none of that kind. */
export function issuerFacet<K extends ComposedKind>(family: string, kind: K): IssuerFacet<K> {
  const issuer = protocolOf(family)?.issuer;
  if (!issuer || issuer.kind !== kind) throw new Error(`protocol ${family} issues no ${kind} token`);
  return issuer as IssuerFacet<K>;
}

/** How the indexer's derivation values a token: from what its family's module issues. */
export type TokenRole = 'native' | 'basic' | 'lp' | 'vault' | 'atoken' | 'other';

const ROLE_OF_KIND: Record<ComposedKind, TokenRole> = { 'v2-lp': 'lp', vault: 'vault', lending: 'atoken' };

/**
 * A family's composed token is valued by its kind; native and basic tokens from pools; a DEX
 * family that issues no token, and a family no module has (a row written by a newer indexer), as
 * `other` (valued like a basic token, never through a protocol it does not have).
 */
export function tokenRoleOf(family: string): TokenRole {
  const module = protocolOf(family);
  if (!module) return 'other';
  if (module.issuer) return ROLE_OF_KIND[module.issuer.kind];
  switch (module.category) {
    case 'native':
      return 'native';
    case 'basic':
      return 'basic';
    case 'dex':
    case 'vault':
    case 'lending':
      return 'other';
  }
}

/** Families whose token balances are read live (protocol-module.ts `balances`), from the modules. */
export const LIVE_BALANCE_FAMILIES: ReadonlySet<string> = new Set(
  Object.values<ProtocolModule>(PROTOCOLS)
    .filter((m) => m.balances === 'live')
    .map((m) => m.family),
);

/** The calls and gas of a composed action, from the module of its family (throws when that family issues no such token). */
export function composedActionFacet<A extends ComposedAction>(a: A): ActionFacet<A> {
  const { kind, side } = COMPOSED_ACTION_SIDE[a.kind];
  return issuerFacet(a.family, kind)[side] as ActionFacet<A>;
}

/**
 * Checks every platform's options against its family's module: throws naming the platform, the
 * option and what is wrong (an unknown option, or a value its check refuses). Run at start.
 */
export function checkPlatformOptions(platforms: readonly PlatformDefinition[]): void {
  for (const p of platforms) {
    const specs = (PROTOCOLS[p.family] as ProtocolModule).options;
    for (const [name, value] of Object.entries(p.options ?? {})) {
      const spec = specs[name];
      const known = Object.keys(specs);
      if (!spec)
        throw new Error(
          `platform ${p.slug} on ${p.network}: ${p.family} has no option ${name} (${known.length > 0 ? `its options: ${known.join(', ')}` : 'it takes none'})`,
        );
      const problem = spec.check(value);
      if (problem)
        throw new Error(`platform ${p.slug} on ${p.network}: option ${name} (${spec.describe}) ${problem}; got ${JSON.stringify(value)}`);
    }
  }
}
