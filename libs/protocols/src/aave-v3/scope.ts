/** Start-block state of Aave V3-style markets: the aTokens of the listed reserves of the Pool. */
import type { PlatformDefinition } from '@tokensvc/domain';
import { roleAddress } from '../indexing/adapter-helpers';
import { type ScopeReadContext, type ScopeSnapshot, ZERO, abiReader, lower } from '../indexing/scope-read';

const { call, decode } = abiReader([
  'function getReservesList() view returns (address[])',
  'function getReserveData(address) view returns (tuple(uint256 configuration, uint128 liquidityIndex, uint128 currentLiquidityRate, uint128 variableBorrowIndex, uint128 currentVariableBorrowRate, uint128 currentStableBorrowRate, uint40 lastUpdateTimestamp, uint16 id, address aTokenAddress, address stableDebtTokenAddress, address variableDebtTokenAddress, address interestRateStrategyAddress, uint128 accruedToTreasury, uint128 unbacked, uint128 isolationModeTotalDebt))',
]);

export async function readAaveV3Scope(p: PlatformDefinition, ctx: ScopeReadContext): Promise<ScopeSnapshot> {
  const out: ScopeSnapshot = { pools: [], ticks: [], tokens: [] };
  const pool = roleAddress(p, 'pool');
  if (!pool) return out;
  const list = decode('getReservesList', (await ctx.multicall([call(pool, 'getReservesList')]))[0]);
  const listedSet = new Set(ctx.listed.map(lower));
  const assets = ((list?.[0] as string[] | undefined) ?? []).map(lower).filter((a) => listedSet.has(a));
  const data = await ctx.multicall(assets.map((a) => call(pool, 'getReserveData', [a])));
  assets.forEach((asset, i) => {
    const d = decode('getReserveData', data[i])?.[0] as
      | { aTokenAddress: string; stableDebtTokenAddress: string; variableDebtTokenAddress: string; interestRateStrategyAddress: string }
      | undefined;
    if (!d || lower(d.aTokenAddress) === lower(ZERO)) return;
    out.tokens.push({
      address: lower(d.aTokenAddress),
      platform: p.slug,
      family: 'aave-v3',
      underlying: [asset],
      poolAddress: lower(pool),
      listed: false,
      metadata: {
        asset,
        stableDebtToken: lower(d.stableDebtTokenAddress),
        variableDebtToken: lower(d.variableDebtTokenAddress),
        interestRateStrategy: lower(d.interestRateStrategyAddress),
      },
    });
  });
  return out;
}
