/**
 * refreshHead: corrects the token ledgers with what only eth_call gives at the head block (one
 * Multicall3 call; a second one the first time, to read the Aave debt tokens it learns about),
 * re-values the affected tokens and writes their `tokens` rows (the current state).
 *
 * It writes no state point and no candle, and the corrected working set is not the one later
 * batches derive from: when and how often it runs depends on the indexer (how long it was caught
 * up), not on the chain, and the history (price_points, candles, activities) must be a function
 * of the chain alone, the same whether a block was indexed live or backfilled.
 */
import { multicall, type JsonRpcClient } from '@tokensvc/chain';
import type { Network } from '@tokensvc/domain';
import type { DeriveOptions } from '../derive-options';
import { revalue, withDependents } from '../engine/derive-batch';
import type { TokenState } from '../engine/model';
import { loadNetworkState } from '../engine/network-cache';
import { blockTime } from '../repo/registry.repo';
import type { SqlTx } from '../repo/sql';
import { refreshTokenMetrics, writeTokenStates } from '../repo/token-state.repo';
import { debtScaledSupplyCall, headCalls, type HeadCall } from './head-calls';

/** aToken key -> its variable debt token address, learned from getReserveData. */
export type DebtTokenBook = Map<string, string>;

async function runCalls(
  client: JsonRpcClient,
  calls: readonly HeadCall[],
  block: number,
  ledgerOf: (token: string) => Parameters<HeadCall['apply']>[1],
  learn: (aToken: string, debt: string) => void,
): Promise<void> {
  const results = await multicall(client, calls, `0x${block.toString(16)}`, Math.max(calls.length, 1));
  calls.forEach((c, i) => {
    const ret = results[i];
    if (ret !== undefined) c.apply(ret, ledgerOf(c.token), (debt) => learn(c.token, debt));
  });
}

/**
 * Loads the working set as of `block` from the database, corrects it and writes the `tokens` row
 * of every token it re-values; returns the number of those rows. The deriver's own working set is
 * left alone (it stays the one a backfill would have).
 */
export async function refreshHeadState(
  tx: SqlTx,
  client: JsonRpcClient,
  network: Network,
  block: number,
  options: DeriveOptions,
  debtTokens: DebtTokenBook,
): Promise<number> {
  const time =
    (await blockTime(tx, network, block)) ??
    Number((await client.call<{ timestamp: string }>('eth_getBlockByNumber', [`0x${block.toString(16)}`, false])).timestamp);
  const net = await loadNetworkState(tx, network, block + 1, time, options);
  const keyOf = (address: string): string => `${network}:${address}`;
  const calls = [...net.tokens.values()].flatMap((t) => headCalls(t, debtTokens.get(t.key)));
  const learned: Array<[string, string]> = [];
  await runCalls(
    client,
    calls,
    block,
    (t) => net.ledger(t),
    (aToken, debt) => learned.push([aToken, debt]),
  );
  const unknown = learned.filter(([aToken]) => !debtTokens.has(keyOf(aToken)));
  learned.forEach(([aToken, debt]) => debtTokens.set(keyOf(aToken), debt));
  if (unknown.length > 0)
    await runCalls(
      client,
      unknown.map(([aToken, debt]) => debtScaledSupplyCall(aToken, debt)),
      block,
      (t) => net.ledger(t),
      () => undefined,
    );

  // Every re-valued token's row, changed or not: the rows after a refresh at `block` are then the
  // same whatever refreshes ran before it.
  const tokens = withDependents(net, new Set(calls.map((c) => c.token)));
  const states: TokenState[] = [];
  revalue(net, tokens, block, time, states, new Set(tokens));
  await writeTokenStates(tx, states);
  await refreshTokenMetrics(tx, network, time);
  return states.length;
}
