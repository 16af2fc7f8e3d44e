/**
 * The real addresses the profile reproduces, from the shipped registry (the same file the apps
 * read with REGISTRY=shipped), plus the few facts the registry does not carry: who created a
 * contract at which nonce (checked against the address before use) and the real addresses of the
 * devnet's long-tail tokens that the registry does not list.
 */
import { NETWORK_INFO, type Network } from '@tokensvc/domain';
import { protocolOf } from '@tokensvc/protocols';
import { type TokenSpec, WETH_SPEC, tokenSpecs } from '../config';

/**
 * The parts of a shipped-registry network (`loadRegistry('shipped').networks[n]` of @tokensvc/chain,
 * which the caller passes: the devnet library does not depend on the chain library) the profile reads.
 */
export interface SourcedAddress {
  readonly address: string;
  readonly label?: string;
  /** where the registry read it: a package, the path in it and its version */
  readonly source?: { readonly package?: string; readonly path?: string; readonly version?: string };
}
interface RegistryPlatform {
  readonly slug: string;
  readonly family: string;
  readonly addresses: Readonly<Record<string, SourcedAddress | readonly SourcedAddress[]>>;
  readonly markets?: ReadonlyArray<{
    readonly symbol: string;
    readonly asset: SourcedAddress;
    readonly aToken: SourcedAddress;
    readonly variableDebtToken: SourcedAddress;
  }>;
}
export interface RegistryNetwork {
  readonly multicall3: SourcedAddress;
  readonly tokens: ReadonlyArray<SourcedAddress & { readonly symbol: string; readonly name: string; readonly decimals: number }>;
  readonly platforms: readonly RegistryPlatform[];
  readonly wrappedNative?: SourcedAddress | null;
  /** Across: the SpokePool proxy and the MulticallHandler from its deployment book */
  readonly bridge?: { readonly spokePool: SourcedAddress | null; readonly multicallHandler: SourcedAddress | null };
}

/** Original CREATE of a contract: its deployer and nonce (each checked by placeByCreate). */
export interface CreateOrigin {
  from: string;
  nonce: number;
}

/**
 * Multicall3's keyless deployment and Uniswap's V3 deployer used the same account and nonces on
 * Ethereum and Arbitrum (hence the same addresses there).
 */
const SHARED_ORIGINS: Record<string, CreateOrigin> = {
  multicall3: { from: '0x05f32B3cC3888453ff71B01135B34FF8e41263F2', nonce: 0 },
  'uniswap-v3.factory': { from: '0x6C9FC64A53c1b71FB3f9Af64d1ae3A4931A5f4E9', nonce: 0 },
  'uniswap-v3.quoter': { from: '0x6C9FC64A53c1b71FB3f9Af64d1ae3A4931A5f4E9', nonce: 3 },
  'uniswap-v3.positionManager': { from: '0x6C9FC64A53c1b71FB3f9Af64d1ae3A4931A5f4E9', nonce: 8 },
  'uniswap-v3.swapRouter02': { from: '0x6C9FC64A53c1b71FB3f9Af64d1ae3A4931A5f4E9', nonce: 14 },
};

/**
 * Deployers of the contracts the profile re-creates from the same account and nonce, per network.
 * Base has Multicall3 only: its Uniswap V3 contracts come from another deployer whose nonces are
 * not known here (they are copied, with the factory's self-address immutable rewritten: deploy.ts).
 */
export const ORIGINS: Partial<Record<Network, Record<string, CreateOrigin>>> = {
  ethereum: {
    ...SHARED_ORIGINS,
    WETH: { from: '0x4F26FfBe5F04ED43630fdC30A87638d53D0b0876', nonce: 446 },
    USDC: { from: '0x95Ba4cF87D6723ad9C0Db21737D862bE80e93911', nonce: 20 },
  },
  arbitrum: SHARED_ORIGINS,
  base: { multicall3: SHARED_ORIGINS['multicall3']! },
};

/**
 * Devnet tokens with no real address on a network (neither listed by the registry, nor an Aave
 * reserve there, nor in the Uniswap default token list), played in the profile by a listed token
 * of the same kind under its own symbol: on base, WBTC by cbBTC (the BTC Aave lists there) and
 * LINK by AAVE. The pool, reserve and vault tables are read through these (BuildContext.aliases).
 */
export const STAND_INS: Partial<Record<Network, Record<string, TokenSpec>>> = {
  base: {
    WBTC: { symbol: 'cbBTC', name: 'Coinbase Wrapped BTC', decimals: 8, priceUsd: 60000, dailyVol: 0.025 },
    LINK: { symbol: 'AAVE', name: 'Aave Token', decimals: 18, priceUsd: 150, dailyVol: 0.05 },
  },
};

/** The devnet's trading set on a network, WETH first, with the stand-ins in place. */
export function profileTokenSpecs(network: Network): TokenSpec[] {
  return [WETH_SPEC, ...tokenSpecs(network)].map((s) => STAND_INS[network]?.[s.symbol] ?? s);
}

/** Devnet symbol -> the stand-in's symbol, for BuildContext.aliases. */
export function profileAliases(network: Network): Record<string, string> {
  return Object.fromEntries(Object.entries(STAND_INS[network] ?? {}).map(([from, spec]) => [from, spec.symbol]));
}

/**
 * A token the devnet trades that the registry neither lists nor has as an Aave reserve (PEPE on
 * ethereum, GMX on arbitrum): its real address from the Uniswap default token list (npm).
 */
function tokenListAddress(network: Network, symbol: string): string | undefined {
  const list = require('@uniswap/default-token-list') as { tokens: Array<{ chainId: number; symbol: string; address: string }> };
  return list.tokens.find((t) => t.chainId === NETWORK_INFO[network].chainId && t.symbol === symbol)?.address;
}

/** Whether a registry platform's family (its protocol module) issues tokens of this kind: vault shares, or a lending market's aTokens. */
function issues(p: RegistryPlatform, kind: 'vault' | 'lending'): boolean {
  return protocolOf(p.family)?.issuer?.kind === kind;
}

export class RealBook {
  constructor(
    readonly network: Network,
    readonly net: RegistryNetwork,
  ) {}

  origin(key: string): CreateOrigin | undefined {
    return ORIGINS[this.network]?.[key];
  }

  get multicall3(): string {
    return this.net.multicall3.address;
  }

  /** A token by symbol: listed, else an Aave reserve's asset, else from the Uniswap token list. */
  token(symbol: string): string {
    const listed = this.net.tokens.find((t) => t.symbol === symbol)?.address;
    const reserve = this.aave()?.markets?.find((m) => m.symbol === symbol)?.asset.address;
    const address = listed ?? reserve ?? tokenListAddress(this.network, symbol);
    if (!address) throw new Error(`${this.network}: no real address known for ${symbol}`);
    return address;
  }

  /** Across's SpokePool or MulticallHandler as the registry has it (address and source). */
  across(role: 'spokePool' | 'multicallHandler'): SourcedAddress {
    const a = this.net.bridge?.[role];
    if (!a) throw new Error(`${this.network}: the shipped registry has no Across ${role}`);
    return a;
  }

  platform(slug: string): RegistryPlatform {
    const p = this.net.platforms.find((x) => x.slug === slug);
    if (!p) throw new Error(`${this.network}: the shipped registry has no platform ${slug}`);
    return p;
  }

  address(slug: string, role: string): string {
    const a = this.platform(slug).addresses[role];
    if (!a || Array.isArray(a)) throw new Error(`${this.network}: ${slug} has no single ${role}`);
    return (a as SourcedAddress).address;
  }

  /** Every vault of the registry's vault platforms (their module issues vault shares), with its label (`sDAI`, `static aUSDC`, ...). */
  vaults(): Array<{ slug: string; label: string; address: string }> {
    return this.net.platforms
      .filter((p) => issues(p, 'vault'))
      .flatMap((p) =>
        ((p.addresses['vaults'] ?? []) as readonly SourcedAddress[]).map((v) => ({
          slug: p.slug,
          label: v.label ?? v.address,
          address: v.address,
        })),
      );
  }

  /** Whether the registry's Aave market has a reserve of this asset. */
  hasMarket(asset: string): boolean {
    return this.aave()?.markets?.some((x) => x.asset.address.toLowerCase() === asset.toLowerCase()) ?? false;
  }

  aave(): RegistryPlatform | undefined {
    return this.net.platforms.find((p) => issues(p, 'lending'));
  }

  /** The Aave reserve of an asset, by its address (a symbol can name another reserve: USDC vs USDCn on Arbitrum). */
  market(asset: string): { aToken: string; variableDebtToken: string } {
    const m = this.aave()?.markets?.find((x) => x.asset.address.toLowerCase() === asset.toLowerCase());
    if (!m) throw new Error(`${this.network}: the registry's Aave market has no reserve of ${asset}`);
    return { aToken: m.aToken.address, variableDebtToken: m.variableDebtToken.address };
  }
}
