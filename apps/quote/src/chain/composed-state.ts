/**
 * State of the composed tokens an order enters or leaves that pool events do not carry: LP
 * supply (and kLast when the factory takes its protocol fee), vault totals, and the underlying a
 * lending market can pay out. One Multicall3 eth_call for the (at most two) tokens of an order.
 */
import { Interface } from 'ethers';
import { type JsonRpcClient, decodeAddressResult, decodeUintResult, multicall } from '@tokensvc/chain';
import { ZERO_ADDRESS } from '@tokensvc/domain';
import { type CatalogToken, tokenKind } from '../graph/catalog';
import type { LendingMarket, PairSupply, VaultInfo } from '../planning/sim-world';

const IFACE = new Interface([
  'function totalSupply() view returns (uint256)',
  'function kLast() view returns (uint256)',
  'function factory() view returns (address)',
  'function feeTo() view returns (address)',
  'function totalAssets() view returns (uint256)',
  'function decimals() view returns (uint8)',
  'function balanceOf(address) view returns (uint256)',
]);
const data = (fn: string, args: unknown[] = []): string => IFACE.encodeFunctionData(fn, args);

export interface ComposedState {
  pairs: Map<string, PairSupply>;
  vaults: Map<string, VaultInfo>;
  lending: Map<string, LendingMarket>;
}

type Read = { target: string; data: string; use: (ret: string | undefined) => void };

export async function readComposedState(
  client: JsonRpcClient,
  tokens: readonly CatalogToken[],
  decimalsOf: (address: string) => number | undefined,
): Promise<ComposedState> {
  const state: ComposedState = { pairs: new Map(), vaults: new Map(), lending: new Map() };
  const reads: Read[] = [];
  const need = (ret: string | undefined, what: string): bigint => {
    const v = decodeUintResult(ret);
    if (v === undefined) throw new Error(`could not read ${what}`);
    return v;
  };
  const kLasts = new Map<string, bigint>();
  const factories = new Map<string, string>();
  for (const t of tokens) {
    switch (tokenKind(t)) {
      case 'v2-lp':
        reads.push({
          target: t.address,
          data: data('totalSupply'),
          use: (r) => state.pairs.set(t.address, { totalSupply: need(r, `${t.symbol} totalSupply`) }),
        });
        reads.push({ target: t.address, data: data('kLast'), use: (r) => kLasts.set(t.address, decodeUintResult(r) ?? 0n) });
        reads.push({
          target: t.address,
          data: data('factory'),
          use: (r) => factories.set(t.address, decodeAddressResult(r) ?? ZERO_ADDRESS),
        });
        break;
      case 'vault': {
        const v: Partial<VaultInfo> & { decimals?: number } = { asset: t.underlying[0]! };
        reads.push({ target: t.address, data: data('totalAssets'), use: (r) => (v.totalAssets = need(r, `${t.symbol} totalAssets`)) });
        reads.push({ target: t.address, data: data('totalSupply'), use: (r) => (v.totalSupply = need(r, `${t.symbol} totalSupply`)) });
        reads.push({
          target: t.address,
          data: data('decimals'),
          use: (r) => {
            // OpenZeppelin: share decimals = asset decimals + _decimalsOffset().
            const offset = Number(need(r, `${t.symbol} decimals`)) - (decimalsOf(v.asset!) ?? t.decimals);
            state.vaults.set(t.address, {
              asset: v.asset!,
              totalAssets: v.totalAssets!,
              totalSupply: v.totalSupply!,
              decimalsOffset: Math.max(0, offset),
            });
          },
        });
        break;
      }
      case 'lending': {
        const asset = t.underlying[0]!;
        reads.push({
          target: asset,
          data: data('balanceOf', [t.address]),
          use: (r) => state.lending.set(t.address, { asset, pool: t.poolAddress ?? '', available: need(r, `${t.symbol} liquidity`) }),
        });
        break;
      }
      case 'native':
      case 'basic':
        break;
    }
  }
  if (reads.length === 0) return state;
  const results = await multicall(
    client,
    reads.map((r) => ({ target: r.target, data: r.data })),
  );
  reads.forEach((r, i) => r.use(results[i]));
  // The protocol fee only matters when the factory has it on and the pair has a kLast.
  const feeChecks = [...kLasts].filter(([pair, kLast]) => kLast > 0n && (factories.get(pair) ?? ZERO_ADDRESS) !== ZERO_ADDRESS);
  if (feeChecks.length > 0) {
    const feeTo = await multicall(
      client,
      feeChecks.map(([pair]) => ({ target: factories.get(pair)!, data: data('feeTo') })),
    );
    feeChecks.forEach(([pair, kLast], i) => {
      const to = decodeAddressResult(feeTo[i]);
      const supply = state.pairs.get(pair);
      if (supply && to && to !== ZERO_ADDRESS) state.pairs.set(pair, { ...supply, kLast });
    });
  }
  return state;
}
