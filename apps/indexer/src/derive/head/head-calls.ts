/**
 * What a head refresh reads through Multicall3, per token role, and how the answers correct the
 * ledgers: totalSupply of every ERC-20 (WETH9 and other tokens that mint without a Transfer event
 * are only right after this), ERC-4626 totalAssets and convertToAssets(one share), Aave scaled
 * supply/debt, the asset held by the aToken, the reserve's rates and its indexes normalised to now.
 */
import { Interface } from 'ethers';
import type { ContractCall } from '@tokensvc/chain';
import type { Ledger, TokenMeta } from '../engine/model';

export const HEAD_ABI = new Interface([
  'function totalSupply() view returns (uint256)',
  'function totalAssets() view returns (uint256)',
  'function convertToAssets(uint256 shares) view returns (uint256)',
  'function scaledTotalSupply() view returns (uint256)',
  'function balanceOf(address owner) view returns (uint256)',
  'function getReserveData(address asset) view returns (tuple(uint256 configuration, uint128 liquidityIndex, uint128 currentLiquidityRate, uint128 variableBorrowIndex, uint128 currentVariableBorrowRate, uint128 currentStableBorrowRate, uint40 lastUpdateTimestamp, uint16 id, address aTokenAddress, address stableDebtTokenAddress, address variableDebtTokenAddress, address interestRateStrategyAddress, uint128 accruedToTreasury, uint128 unbacked, uint128 isolationModeTotalDebt))',
  'function getReserveNormalizedIncome(address asset) view returns (uint256)',
  'function getReserveNormalizedVariableDebt(address asset) view returns (uint256)',
]);

type Apply = (ret: string, l: Ledger, learn: (debtToken: string) => void) => void;

export interface HeadCall extends ContractCall {
  token: string;
  apply: Apply;
}

const uint = (fn: string, ret: string): bigint => HEAD_ABI.decodeFunctionResult(fn, ret)[0] as bigint;

function call(token: string, target: string, fn: string, args: unknown[], apply: Apply): HeadCall {
  return { token, target, data: HEAD_ABI.encodeFunctionData(fn, args), apply };
}

/** The reads for one token; `debtToken` is the aToken's variable debt token when already known. */
export function headCalls(meta: TokenMeta, debtToken: string | undefined): HeadCall[] {
  const t = meta.address;
  const asset = meta.underlying[0];
  switch (meta.role) {
    case 'native':
      return [];
    case 'basic':
    case 'other':
    case 'lp':
      return [call(t, t, 'totalSupply', [], (r, l) => (l.totalSupply = uint('totalSupply', r)))];
    case 'vault':
      return [
        call(t, t, 'totalSupply', [], (r, l) => (l.totalSupply = uint('totalSupply', r))),
        call(t, t, 'totalAssets', [], (r, l) => (l.assets = uint('totalAssets', r))),
        call(t, t, 'convertToAssets', [10n ** BigInt(meta.decimals)], (r, l) => (l.sharePriceRaw = uint('convertToAssets', r))),
      ];
    case 'atoken': {
      if (!asset || !meta.poolAddress) return [];
      const pool = meta.poolAddress;
      const calls = [
        call(t, t, 'scaledTotalSupply', [], (r, l) => (l.scaledSupply = uint('scaledTotalSupply', r))),
        call(t, asset, 'balanceOf', [t], (r, l) => (l.assets = uint('balanceOf', r))),
        call(t, pool, 'getReserveData', [asset], (r, l, learn) => {
          const d = HEAD_ABI.decodeFunctionResult('getReserveData', r)[0] as {
            currentLiquidityRate: bigint;
            currentVariableBorrowRate: bigint;
            variableDebtTokenAddress: string;
          };
          l.liquidityRate = d.currentLiquidityRate;
          l.borrowRate = d.currentVariableBorrowRate;
          learn(d.variableDebtTokenAddress.toLowerCase());
        }),
        // Indexes as of now, so scaled x index is exactly totalSupply() / the debt at head.
        call(t, pool, 'getReserveNormalizedIncome', [asset], (r, l) => (l.liquidityIndex = uint('getReserveNormalizedIncome', r))),
        call(t, pool, 'getReserveNormalizedVariableDebt', [asset], (r, l) => (l.borrowIndex = uint('getReserveNormalizedVariableDebt', r))),
      ];
      return debtToken ? [...calls, debtScaledSupplyCall(t, debtToken)] : calls;
    }
  }
}

export function debtScaledSupplyCall(aToken: string, debtToken: string): HeadCall {
  return call(aToken, debtToken, 'scaledTotalSupply', [], (r, l) => (l.scaledDebt = uint('scaledTotalSupply', r)));
}
