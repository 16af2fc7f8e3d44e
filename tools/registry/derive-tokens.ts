/** The registry's tokens of a network: the listed ones and the wrapped native token (tools/registry/derive.ts). */
import { NETWORK_INFO, type Network } from '@tokensvc/domain';
import type { RegistryToken } from '@tokensvc/chain';
import { aaveMarket, LISTED_SYMBOLS } from './choices';
import { PACKAGES, sourced, type Sources } from './sources';

/** A token of the chain by symbol: token list, else Across, else the Aave market's reserves. */
function tokenBySymbol(s: Sources, network: Network, symbol: string): RegistryToken | undefined {
  const chainId = NETWORK_INFO[network].chainId;
  const listed = s.tokenList.tokens.filter((t) => t.chainId === chainId && t.symbol === symbol);
  const distinct = new Set(listed.map((t) => t.address.toLowerCase()));
  if (distinct.size > 1)
    throw new Error(`${PACKAGES.tokenList} lists ${distinct.size} ${symbol} tokens on chain ${chainId}; choose one in derive.ts`);
  const t = listed[0];
  if (t !== undefined)
    return {
      symbol: t.symbol,
      name: t.name,
      decimals: t.decimals,
      ...sourced(s, 'tokenList', `tokens[chainId=${chainId},symbol=${symbol}]`, t.address),
    };
  const a = (
    s.across.TOKEN_SYMBOLS_MAP as Record<
      string,
      { name: string; symbol: string; decimals: number; addresses: Record<number, string> } | undefined
    >
  )[symbol];
  const acrossAddress = a?.addresses[chainId];
  if (a !== undefined && acrossAddress !== undefined)
    return {
      symbol: a.symbol,
      name: a.name,
      decimals: a.decimals,
      ...sourced(s, 'across', `TOKEN_SYMBOLS_MAP["${symbol}"].addresses[${chainId}]`, acrossAddress),
    };
  const aave = aaveMarket(s, network);
  const reserve = aave?.market.ASSETS[symbol];
  if (aave !== undefined && reserve !== undefined)
    return {
      symbol,
      name: symbol,
      decimals: reserve.decimals,
      ...sourced(s, 'aave', `${aave.name}.ASSETS.${symbol}.UNDERLYING`, reserve.UNDERLYING),
    };
  return undefined;
}

/**
 * The wrapped native token: Uniswap's WETH9 on ETH-native chains, Across's `W<native>`, the Aave
 * market's `W<native>`/`w<native>` reserve. The first found is recorded; every package that names
 * one must agree, or generation fails.
 */
export function wrappedNative(s: Sources, network: Network): RegistryToken | undefined {
  const { chainId, nativeSymbol } = NETWORK_INFO[network];
  const found: RegistryToken[] = [];
  const weth9 = (s.uniswap.WETH9 as Record<number, { address: string; symbol?: string; name?: string; decimals: number } | undefined>)[
    chainId
  ];
  if (nativeSymbol === 'ETH' && weth9 !== undefined)
    found.push({
      symbol: weth9.symbol ?? 'WETH',
      name: weth9.name ?? 'Wrapped Ether',
      decimals: weth9.decimals,
      ...sourced(s, 'uniswap', `WETH9[${chainId}]`, weth9.address),
    });
  for (const symbol of [`W${nativeSymbol}`, `w${nativeSymbol}`]) {
    const a = (
      s.across.TOKEN_SYMBOLS_MAP as Record<
        string,
        { name: string; symbol: string; decimals: number; addresses: Record<number, string> } | undefined
      >
    )[symbol];
    const address = a?.addresses[chainId];
    if (a !== undefined && address !== undefined)
      found.push({
        symbol: a.symbol,
        name: a.name,
        decimals: a.decimals,
        ...sourced(s, 'across', `TOKEN_SYMBOLS_MAP["${symbol}"].addresses[${chainId}]`, address),
      });
    const aave = aaveMarket(s, network);
    const reserve = aave?.market.ASSETS[symbol];
    if (aave !== undefined && reserve !== undefined)
      found.push({
        symbol,
        name: symbol,
        decimals: reserve.decimals,
        ...sourced(s, 'aave', `${aave.name}.ASSETS.${symbol}.UNDERLYING`, reserve.UNDERLYING),
      });
  }
  const addresses = new Set(found.map((f) => f.address));
  if (addresses.size > 1)
    throw new Error(
      `the packages disagree on ${network}'s wrapped native token: ${found.map((f) => `${f.address} (${f.source.package} ${f.source.path})`).join(', ')}`,
    );
  return found[0];
}

/** The tokens of LISTED_SYMBOLS found on the chain, then the wrapped native token, each address once. */
export function listedTokens(s: Sources, network: Network, wrapped: RegistryToken | undefined): RegistryToken[] {
  const out = new Map<string, RegistryToken>();
  for (const symbol of LISTED_SYMBOLS) {
    const t = tokenBySymbol(s, network, symbol);
    if (t !== undefined && !out.has(t.address)) out.set(t.address, t);
  }
  if (wrapped !== undefined && !out.has(wrapped.address)) out.set(wrapped.address, wrapped);
  return [...out.values()];
}
