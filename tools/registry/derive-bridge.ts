/** The registry's Across bridge entry of a network (tools/registry/derive.ts). */
import { NETWORK_INFO, type Network } from '@tokensvc/domain';
import type { RegistryBridge, RegistryToken, SourcedAddress } from '@tokensvc/chain';
import { LISTED_SYMBOLS } from './choices';
import { ACROSS_DEPLOYMENTS_FILE, checksum, PACKAGES, sourced, type Sources } from './sources';

/** A contract of Across's deployment book on a chain, or undefined when the book has none there. */
function acrossContract(s: Sources, chainId: number, name: string): { address: SourcedAddress; fromBlock?: number } | undefined {
  const entry = s.acrossDeployments.chains[String(chainId)]?.contracts[name];
  if (entry === undefined) return undefined;
  return {
    address: sourced(s, 'acrossContracts', `${ACROSS_DEPLOYMENTS_FILE}: chains["${chainId}"].contracts.${name}.address`, entry.address),
    fromBlock: entry.block_number,
  };
}

/**
 * Across: the networks and bridged tokens from `@across-protocol/constants`, the SpokePool (with
 * the block it was deployed at, where a status scan can start) and the MulticallHandler (which runs
 * a deposit's message on the destination) from `@across-protocol/contracts`' deployment book.
 */
export function bridge(s: Sources, network: Network, listed: readonly RegistryToken[], wrapped: RegistryToken | undefined): RegistryBridge {
  const chainId = NETWORK_INFO[network].chainId;
  const map = s.across.TOKEN_SYMBOLS_MAP as Record<
    string,
    { name: string; symbol: string; decimals: number; addresses: Record<number, string> } | undefined
  >;
  const symbols = [...new Set([...LISTED_SYMBOLS, ...listed.map((t) => t.symbol), ...(wrapped ? [wrapped.symbol] : [])])];
  const tokens: RegistryToken[] = [];
  for (const symbol of symbols) {
    const a = map[symbol];
    const address = a?.addresses[chainId];
    if (a === undefined || address === undefined || tokens.some((t) => t.address === checksum(address))) continue;
    tokens.push({
      symbol: a.symbol,
      name: a.name,
      decimals: a.decimals,
      ...sourced(s, 'across', `TOKEN_SYMBOLS_MAP["${symbol}"].addresses[${chainId}]`, address),
    });
  }
  const spokePool = acrossContract(s, chainId, 'SpokePool');
  const handler = acrossContract(s, chainId, 'MulticallHandler');
  const book = `${PACKAGES.acrossContracts} ${s.versions.acrossContracts} (${ACROSS_DEPLOYMENTS_FILE})`;
  const missing = [
    ...(spokePool ? [] : [`${book} has no SpokePool on chain ${chainId}`]),
    ...(handler ? [] : [`${book} has no MulticallHandler on chain ${chainId}`]),
  ];
  return {
    protocol: 'across',
    supported: Object.prototype.hasOwnProperty.call(s.across.PRODUCTION_NETWORKS, chainId),
    spokePool: spokePool?.address ?? null,
    ...(spokePool?.fromBlock !== undefined ? { spokePoolFromBlock: spokePool.fromBlock } : {}),
    multicallHandler: handler?.address ?? null,
    ...(missing.length > 0 ? { missing: missing.join('; ') } : {}),
    tokens,
  };
}
