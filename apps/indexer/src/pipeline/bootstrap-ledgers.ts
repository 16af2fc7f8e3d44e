import { tokenRoleOf } from '@tokensvc/protocols';
import { Interface } from 'ethers';
import { multicall, type ContractCall, type JsonRpcClient } from '@tokensvc/chain';
import { ZERO_ADDRESS } from '@tokensvc/domain';
import type { LedgerSeed } from '../model/decoded-batch';
import type { TokenSeed } from '../model/registry.types';

const ABI = new Interface([
  'function totalSupply() view returns (uint256)',
  'function balanceOf(address) view returns (uint256)',
  'function scaledTotalSupply() view returns (uint256)',
  'function getReserveData(address) view returns (tuple(uint256 configuration, uint128 liquidityIndex, uint128 currentLiquidityRate, uint128 variableBorrowIndex, uint128 currentVariableBorrowRate, uint128 currentStableBorrowRate, uint40 lastUpdateTimestamp, uint16 id, address aTokenAddress, address stableDebtTokenAddress, address variableDebtTokenAddress, address interestRateStrategyAddress, uint128 accruedToTreasury, uint128 unbacked, uint128 isolationModeTotalDebt))',
]);

/** Holders whose balance is not circulating supply (the derivation's default dead addresses). */
export const LOCKED_HOLDERS = [ZERO_ADDRESS, '0x000000000000000000000000000000000000dead'];

const call = (target: string, fn: string, args: unknown[] = []): ContractCall => ({ target, data: ABI.encodeFunctionData(fn, args) });
const uint = (fn: string, ret: string | undefined): bigint | undefined => {
  if (ret === undefined) return undefined;
  try {
    return ABI.decodeFunctionResult(fn, ret)[0] as bigint;
  } catch {
    return undefined;
  }
};

/**
 * The supplies and balances the derivation stage otherwise builds from every event since a
 * token's creation, read at `block` (the start-block bootstrap): totalSupply and the locked
 * holders' balances of every ERC-20 in scope; a vault's asset balance; an aToken's scaled supply,
 * its reserve's scaled variable debt, indexes and rates (getReserveData) and asset balance.
 */
export async function readLedgers(client: JsonRpcClient, tokens: readonly TokenSeed[], block: number): Promise<LedgerSeed[]> {
  const erc20 = tokens.filter((t) => t.family !== 'native');
  type Plan = { token: TokenSeed; calls: Array<[string, ContractCall]> };
  const plans: Plan[] = erc20.map((token) => {
    const calls: Array<[string, ContractCall]> = [
      ['totalSupply', call(token.address, 'totalSupply')],
      ...LOCKED_HOLDERS.map((h): [string, ContractCall] => ['balanceOf', call(token.address, 'balanceOf', [h])]),
    ];
    const asset = token.underlying[0];
    const role = tokenRoleOf(token.family);
    if ((role === 'vault' || role === 'atoken') && asset) calls.push(['balanceOf', call(asset, 'balanceOf', [token.address])]);
    const debt = token.metadata['variableDebtToken'];
    if (role === 'atoken' && asset && token.poolAddress && typeof debt === 'string') {
      calls.push(
        ['scaledTotalSupply', call(token.address, 'scaledTotalSupply')],
        ['scaledTotalSupply', call(debt, 'scaledTotalSupply')],
        ['getReserveData', call(token.poolAddress, 'getReserveData', [asset])],
      );
    }
    return { token, calls };
  });
  const results = await multicall(
    client,
    plans.flatMap((p) => p.calls.map(([, c]) => c)),
    `0x${block.toString(16)}`,
  );
  const out: LedgerSeed[] = [];
  let i = 0;
  for (const { token, calls } of plans) {
    const r = calls.map(([fn]) => ({ fn, ret: results[i++] }));
    const totalSupply = uint('totalSupply', r[0]!.ret);
    if (totalSupply === undefined) continue;
    const seed: LedgerSeed = {
      token: token.address,
      totalSupply,
      lockedBalances: new Map(LOCKED_HOLDERS.map((h, j) => [h, uint('balanceOf', r[1 + j]!.ret) ?? 0n])),
    };
    const k = 1 + LOCKED_HOLDERS.length;
    if (r.length > k) seed.assets = uint('balanceOf', r[k]!.ret) ?? 0n;
    if (r.length > k + 1) {
      const reserve = r[k + 3]!.ret;
      const d =
        reserve === undefined
          ? undefined
          : (ABI.decodeFunctionResult('getReserveData', reserve)[0] as {
              liquidityIndex: bigint;
              variableBorrowIndex: bigint;
              currentLiquidityRate: bigint;
              currentVariableBorrowRate: bigint;
            });
      if (d) {
        seed.aave = {
          scaledSupply: uint('scaledTotalSupply', r[k + 1]!.ret) ?? 0n,
          scaledDebt: uint('scaledTotalSupply', r[k + 2]!.ret) ?? 0n,
          liquidityIndex: d.liquidityIndex,
          borrowIndex: d.variableBorrowIndex,
          liquidityRate: d.currentLiquidityRate,
          borrowRate: d.currentVariableBorrowRate,
        };
      }
    }
    out.push(seed);
  }
  return out;
}
