/**
 * refreshHead: corrects the token ledgers with what only eth_call gives at the head block (one
 * Multicall3 call; a second one the first time, to read the Aave debt tokens it learns about),
 * re-values the affected tokens and writes their state points, candles and `tokens` rows.
 */
import { multicall, type JsonRpcClient } from '@tokensvc/chain';
import type { Network } from '@tokensvc/domain';
import type { DeriveOptions } from '../derive-options';
import { revalue, withDependents } from '../engine/derive-batch';
import type { TokenState } from '../engine/model';
import { loadNetworkState } from '../engine/network-cache';
import type { NetworkState } from '../engine/network-state';
import { batchCandles, writeDerived } from '../engine/write-derived';
import { blockTime } from '../repo/registry.repo';
import type { SqlTx } from '../repo/sql';
import { refreshTokenMetrics } from '../repo/token-state.repo';
import { debtScaledSupplyCall, headCalls, type HeadCall } from './head-calls';

/** aToken key -> its variable debt token address, learned from getReserveData. */
export type DebtTokenBook = Map<string, string>;

async function runCalls(client: JsonRpcClient, calls: readonly HeadCall[], block: number, ledgerOf: (token: string) => Parameters<HeadCall['apply']>[1], learn: (aToken: string, debt: string) => void): Promise<void> {
  const results = await multicall(client, calls, `0x${block.toString(16)}`, Math.max(calls.length, 1));
  calls.forEach((c, i) => {
    const ret = results[i];
    if (ret !== undefined) c.apply(ret, ledgerOf(c.token), (debt) => learn(c.token, debt));
  });
}

/**
 * Corrects the working set (`cached` when it is valid at `block`, else loaded) and writes what
 * changed; returns the corrected working set and the number of token states written.
 */
export async function refreshHeadState(
  tx: SqlTx,
  client: JsonRpcClient,
  network: Network,
  block: number,
  options: DeriveOptions,
  debtTokens: DebtTokenBook,
  cached: NetworkState | undefined,
): Promise<{ net: NetworkState; changed: number }> {
  const time = (await blockTime(tx, network, block)) ?? Number((await client.call<{ timestamp: string }>('eth_getBlockByNumber', [`0x${block.toString(16)}`, false])).timestamp);
  const net = cached ?? (await loadNetworkState(tx, network, block + 1, time, options));
  const keyOf = (address: string): string => `${network}:${address}`;
  const calls = [...net.tokens.values()].flatMap((t) => headCalls(t, debtTokens.get(t.key)));
  const learned: Array<[string, string]> = [];
  await runCalls(client, calls, block, (t) => net.ledger(t), (aToken, debt) => learned.push([aToken, debt]));
  const unknown = learned.filter(([aToken]) => !debtTokens.has(keyOf(aToken)));
  learned.forEach(([aToken, debt]) => debtTokens.set(keyOf(aToken), debt));
  if (unknown.length > 0) await runCalls(client, unknown.map(([aToken, debt]) => debtScaledSupplyCall(aToken, debt)), block, (t) => net.ledger(t), () => undefined);

  const points: TokenState[] = [];
  revalue(net, withDependents(net, new Set(calls.map((c) => c.token))), block, time, points);
  const out = { points, activities: [] };
  await writeDerived(tx, out, batchCandles(out, net.volumesByKey()));
  await refreshTokenMetrics(tx, network, time);
  // Every token's metrics are now as of `time` (the next batch refreshes only what changed since).
  net.metricsTime = time;
  net.metricsAt = Date.now();
  net.metricsTouched.clear();
  return { net, changed: points.length };
}
