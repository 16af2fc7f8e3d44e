/**
 * Prices of composed tokens from their underlying state:
 * - V2 LP token: pool value (r0 * p0 + r1 * p1) / totalSupply; when only one side has a price the
 *   pool is valued at twice that side. pricePerShare is the pool invariant per LP token,
 *   sqrt(r0 * r1) / totalSupply in human units: the amount that grows with collected fees.
 * - ERC-4626 share: pricePerShare = convertToAssets(one share) with OpenZeppelin's virtual
 *   shares rounding, price = pricePerShare * asset price.
 * - Aave aToken: 1:1 with its asset.
 */
import { toUnits } from '@tokensvc/domain';
import { decimalString } from '@tokensvc/domain';
import { formatRatio } from './decimal';

export interface LpInput {
  reserve0: bigint;
  reserve1: bigint;
  decimals0: number;
  decimals1: number;
  price0: number;
  price1: number;
  totalSupply: bigint;
  decimals: number;
}

export interface Valuation {
  price: number;
  /** USD value of what backs the token (TVL) */
  liquidity: number;
  pricePerShare: string;
}

export function lpValuation(i: LpInput): Valuation {
  const h0 = toUnits(i.reserve0, i.decimals0);
  const h1 = toUnits(i.reserve1, i.decimals1);
  const v0 = h0 * i.price0;
  const v1 = h1 * i.price1;
  const liquidity = i.price0 > 0 && i.price1 > 0 ? v0 + v1 : 2 * Math.max(v0, v1);
  const supply = toUnits(i.totalSupply, i.decimals);
  if (!(supply > 0)) return { price: 0, liquidity, pricePerShare: '0' };
  return { price: liquidity / supply, liquidity, pricePerShare: decimalString(Math.sqrt(h0 * h1) / supply) };
}

/**
 * convertToAssets(10^shareDecimals) of an OpenZeppelin ERC-4626 vault:
 * shares * (totalAssets + 1) / (totalSupply + 10^offset), rounded down, offset = share - asset decimals.
 */
export function vaultSharePriceRaw(totalAssets: bigint, totalSupply: bigint, shareDecimals: number, assetDecimals: number): bigint {
  const offset = BigInt(Math.max(0, shareDecimals - assetDecimals));
  return (10n ** BigInt(shareDecimals) * (totalAssets + 1n)) / (totalSupply + 10n ** offset);
}

export interface VaultInput {
  totalAssets: bigint;
  totalSupply: bigint;
  decimals: number;
  assetDecimals: number;
  assetPrice: number;
  /** convertToAssets(one share) when read at head; computed from assets and supply otherwise */
  sharePriceRaw?: bigint;
}

export function vaultValuation(i: VaultInput): Valuation & { sharePriceRaw: bigint } {
  const sharePriceRaw = i.sharePriceRaw ?? vaultSharePriceRaw(i.totalAssets, i.totalSupply, i.decimals, i.assetDecimals);
  const pps = toUnits(sharePriceRaw, i.assetDecimals);
  return {
    price: pps * i.assetPrice,
    liquidity: toUnits(i.totalAssets, i.assetDecimals) * i.assetPrice,
    pricePerShare: formatRatio(sharePriceRaw, 10n ** BigInt(i.assetDecimals), i.assetDecimals),
    sharePriceRaw,
  };
}

export function aTokenValuation(totalSupply: bigint, decimals: number, assetPrice: number): Valuation {
  return { price: assetPrice, liquidity: toUnits(totalSupply, decimals) * assetPrice, pricePerShare: '1' };
}
