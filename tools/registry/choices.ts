/**
 * What a person chose for the registry (tools/registry/derive.ts): which networks map to which
 * package entries, the listed symbols, the curated vaults; each table with its reason. The
 * addresses themselves are always read from a package.
 */
import { NETWORK_INFO, type Network } from '@tokensvc/domain';
import { PACKAGES, type AaveMarket, type Sources } from './sources';

/**
 * Which entry of each package is the network: the viem chain export (checked against the spec's
 * chain id) and the core Aave V3 market of the network in the aave address book (the Lido, EtherFi
 * and Horizon markets on Ethereum are separate instances, not included).
 */
export const NETWORK_ENTRIES: Record<Network, { viemChain: string; aaveMarket?: string }> = {
  ethereum: { viemChain: 'mainnet', aaveMarket: 'AaveV3Ethereum' },
  optimism: { viemChain: 'optimism', aaveMarket: 'AaveV3Optimism' },
  arbitrum: { viemChain: 'arbitrum', aaveMarket: 'AaveV3Arbitrum' },
  polygon: { viemChain: 'polygon', aaveMarket: 'AaveV3Polygon' },
  avalanche: { viemChain: 'avalanche', aaveMarket: 'AaveV3Avalanche' },
  bsc: { viemChain: 'bsc', aaveMarket: 'AaveV3BNB' },
  base: { viemChain: 'base', aaveMarket: 'AaveV3Base' },
  sonic: { viemChain: 'sonic', aaveMarket: 'AaveV3Sonic' },
  hyperevm: { viemChain: 'hyperEvm' },
  plasma: { viemChain: 'plasma', aaveMarket: 'AaveV3Plasma' },
  flare: { viemChain: 'flare' },
  robinhood: { viemChain: 'robinhood' },
};

/**
 * The listed (verified) tokens: a bounded set of the most traded symbols, taken per network from
 * the Uniswap default token list, else Across's token map, else the network's Aave reserves (the
 * first that has the symbol on the chain); plus the wrapped native token. `USDT0` before `USDT`:
 * on Arbitrum both names lead to one contract and the token list calls it USDT0.
 */
export const LISTED_SYMBOLS = [
  'WETH',
  'USDC',
  'USDC.e',
  'USDT0',
  'USDT',
  'DAI',
  'WBTC',
  'cbBTC',
  'LINK',
  'UNI',
  'AAVE',
  'ARB',
  'OP',
] as const;

/**
 * ERC-4626 vaults beyond Aave's static aTokens, chosen by hand. Each address is read from the aave
 * address book (the vault share is itself an Aave reserve there); what makes it an ERC-4626 vault
 * is the curation note. Only native deployments: bridged copies of these shares on other chains
 * (e.g. sUSDe on Avalanche or Plasma) are plain ERC-20s, not vaults.
 */
export const CURATED_VAULTS: ReadonlyArray<{ network: Network; asset: string; curation: string }> = [
  {
    network: 'ethereum',
    asset: 'sDAI',
    curation: 'Savings DAI (Maker DSR, ERC-4626 over DAI); the address is the sDAI reserve asset of the Aave V3 Ethereum market',
  },
  {
    network: 'ethereum',
    asset: 'sUSDe',
    curation:
      'Ethena staked USDe (StakedUSDeV2, ERC-4626 over USDe) on Ethereum; the address is the sUSDe reserve asset of the Aave V3 Ethereum market',
  },
];

/** The Aave V3 market chosen for `network` (NETWORK_ENTRIES), checked against the spec's chain id; undefined when none is. */
export function aaveMarket(s: Sources, network: Network): { name: string; market: AaveMarket } | undefined {
  const name = NETWORK_ENTRIES[network].aaveMarket;
  if (name === undefined) return undefined;
  const market = s.aave[name];
  if (market === undefined) throw new Error(`${PACKAGES.aave} has no ${name} (the market chosen for ${network})`);
  if (market.CHAIN_ID !== NETWORK_INFO[network].chainId)
    throw new Error(`${name}.CHAIN_ID is ${market.CHAIN_ID}, the spec says ${network} is ${NETWORK_INFO[network].chainId}`);
  return { name, market };
}
