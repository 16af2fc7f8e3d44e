/**
 * ERC-4626 conversions as OpenZeppelin 5's ERC4626 computes them (virtual shares and assets:
 * `10 ** decimalsOffset` shares and 1 asset), so previews match such vaults to the unit. Vaults
 * with entry/exit fees or other maths need their own previews.
 */
import { mulDiv, mulDivRoundingUp } from '../math/big';

export interface VaultState {
  totalAssets: bigint;
  totalSupply: bigint;
  /** OpenZeppelin `_decimalsOffset()`, 0 unless the vault overrides it */
  decimalsOffset?: number;
}

type Rounding = 'floor' | 'ceil';

function virtualShares(v: VaultState): bigint {
  return v.totalSupply + 10n ** BigInt(v.decimalsOffset ?? 0);
}

export function convertToShares(v: VaultState, assets: bigint, rounding: Rounding = 'floor'): bigint {
  return (rounding === 'floor' ? mulDiv : mulDivRoundingUp)(assets, virtualShares(v), v.totalAssets + 1n);
}

export function convertToAssets(v: VaultState, shares: bigint, rounding: Rounding = 'floor'): bigint {
  return (rounding === 'floor' ? mulDiv : mulDivRoundingUp)(shares, v.totalAssets + 1n, virtualShares(v));
}

/** Shares minted by deposit(assets). */
export const previewDeposit = (v: VaultState, assets: bigint): bigint => convertToShares(v, assets, 'floor');
/** Assets pulled by mint(shares). */
export const previewMint = (v: VaultState, shares: bigint): bigint => convertToAssets(v, shares, 'ceil');
/** Shares burned by withdraw(assets). */
export const previewWithdraw = (v: VaultState, assets: bigint): bigint => convertToShares(v, assets, 'ceil');
/** Assets paid by redeem(shares). */
export const previewRedeem = (v: VaultState, shares: bigint): bigint => convertToAssets(v, shares, 'floor');
