import type { Network } from './networks';

/** Adapter families: the closed set of protocol kinds the indexer and router understand. */
export const PLATFORM_FAMILIES = ['native', 'basic', 'uniswap-v2', 'uniswap-v3', 'uniswap-v4', 'erc4626', 'aave-v3'] as const;
export type PlatformFamily = (typeof PLATFORM_FAMILIES)[number];

export const PLATFORM_CATEGORIES = ['native', 'basic', 'dex', 'vault', 'lending'] as const;
export type PlatformCategory = (typeof PLATFORM_CATEGORIES)[number];

export const CATEGORY_BY_FAMILY: Record<PlatformFamily, PlatformCategory> = {
  native: 'native',
  basic: 'basic',
  'uniswap-v2': 'dex',
  'uniswap-v3': 'dex',
  'uniswap-v4': 'dex',
  erc4626: 'vault',
  'aave-v3': 'lending',
};

export function isPlatformFamily(value: unknown): value is PlatformFamily {
  return typeof value === 'string' && (PLATFORM_FAMILIES as readonly string[]).includes(value);
}

/** Deterministic placeholder image for a slug (no external fetch needed to render something). */
export function placeholderImage(slug: string): string {
  return `/images/platforms/${encodeURIComponent(slug)}.svg`;
}

/**
 * Platforms are data: a slug maps to an adapter family plus its contract addresses on one network,
 * so a fork of a supported protocol is a config entry, not code.
 */
export interface PlatformDefinition {
  readonly network: Network;
  readonly slug: string;
  readonly name: string;
  readonly image: string;
  readonly family: PlatformFamily;
  readonly category: PlatformCategory;
  readonly addresses: Readonly<Record<string, string>>;
  /** the family's settings for this platform (a near-fork's fee, ...), checked by its protocol module; none: the family's defaults */
  readonly options?: Readonly<Record<string, PlatformOption>>;
}

/** A value of a platform option (JSON scalars). */
export type PlatformOption = string | number | boolean;

/** What a pool is: the columns the `pools` row names as camelCase records do (the protocol modules' PoolRow and the `pools` table row extend it). */
export interface PoolDescription {
  address: string;
  platform: string;
  family: string;
  token0: string;
  token1: string;
  fee: number;
}
