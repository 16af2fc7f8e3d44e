import { ZeroAddress } from 'ethers';
import { emptyLedger, roleOf, type TokenMeta } from '../engine/model';
import { RAY } from '../math/ray';
import { HEAD_ABI, headCalls } from './head-calls';

const A = (n: number): string => `0x${n.toString(16).padStart(40, '0')}`;
const meta = (family: string, decimals = 18, underlying: string[] = [], poolAddress: string | null = null): TokenMeta => ({
  key: `ethereum:${A(9)}`,
  address: A(9),
  family,
  platform: family,
  symbol: 'X',
  decimals,
  underlying,
  poolAddress,
  createdTime: 0,
  role: roleOf(family),
});

/** Applies each call to a ledger as if the chain had answered `answers[fn]`. */
function answer(m: TokenMeta, answers: Record<string, unknown[]>, debtToken?: string) {
  const l = emptyLedger();
  const learned: string[] = [];
  const calls = headCalls(m, debtToken);
  for (const c of calls) {
    const fn = HEAD_ABI.parseTransaction({ data: c.data })!.name;
    c.apply(HEAD_ABI.encodeFunctionResult(fn, answers[fn]!), l, (d) => learned.push(d));
  }
  return { l, learned, calls };
}

describe('head reads', () => {
  it('reads nothing for the native token and totalSupply for ERC-20s and LP tokens', () => {
    expect(headCalls(meta('native'), undefined)).toEqual([]);
    const { l, calls } = answer(meta('uniswap-v2'), { totalSupply: [123n] });
    expect(calls.map((c) => c.target)).toEqual([A(9)]);
    expect(l.totalSupply).toBe(123n);
  });
  it('reads an ERC-4626 vault supply, assets and the assets of one share', () => {
    const { l, calls } = answer(meta('erc4626', 6, [A(1)]), {
      totalSupply: [1_000n],
      totalAssets: [1_100n],
      convertToAssets: [1_099_999n],
    });
    expect(HEAD_ABI.decodeFunctionData('convertToAssets', calls[2]!.data)[0]).toBe(1_000_000n);
    expect([l.totalSupply, l.assets, l.sharePriceRaw]).toEqual([1_000n, 1_100n, 1_099_999n]);
  });
  it('reads an aToken scaled supply, held asset, rates, normalised indexes, and learns its debt token', () => {
    const reserve = [0n, RAY, RAY / 20n, RAY, RAY / 10n, 0n, 0n, 0n, A(9), ZeroAddress, A(7), ZeroAddress, 0n, 0n, 0n];
    const answers = {
      scaledTotalSupply: [500n],
      balanceOf: [40n],
      getReserveData: [reserve],
      getReserveNormalizedIncome: [(RAY * 11n) / 10n],
      getReserveNormalizedVariableDebt: [(RAY * 12n) / 10n],
    };
    const first = answer(meta('aave-v3', 6, [A(1)], A(2)), answers);
    expect(first.learned).toEqual([A(7)]);
    expect(first.calls.map((c) => c.target)).toEqual([A(9), A(1), A(2), A(2), A(2)]);
    expect(first.l).toMatchObject({
      scaledSupply: 500n,
      assets: 40n,
      liquidityRate: RAY / 20n,
      borrowRate: RAY / 10n,
      liquidityIndex: (RAY * 11n) / 10n,
      borrowIndex: (RAY * 12n) / 10n,
    });
    const known = answer(meta('aave-v3', 6, [A(1)], A(2)), answers, A(7));
    expect(known.calls.at(-1)!.target).toBe(A(7));
    expect(known.l.scaledDebt).toBe(500n);
  });
});
