import { PLATFORM_FAMILIES, type PlatformFamily } from '@tokensvc/domain';
import { PROTOCOLS, type ProtocolAdapter } from '@tokensvc/protocols';

/** Each family's indexer facet, from its protocol module (libs/protocols). */
export const ADAPTERS: { readonly [F in PlatformFamily]: ProtocolAdapter } = Object.fromEntries(
  PLATFORM_FAMILIES.map((f) => [f, PROTOCOLS[f].indexer]),
) as { [F in PlatformFamily]: ProtocolAdapter };
