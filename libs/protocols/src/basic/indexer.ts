import type { RpcLog } from '@tokensvc/domain';
import { ZERO_ADDRESS } from '@tokensvc/domain';
import type { IndexingSink } from '../indexing/port';
import { topicAddress, uintWord } from '../indexing/hex';
import { BASIC_EVENTS } from './events';
import type { ScannedLogs } from '../indexing/port';
import type { ProtocolAdapter } from '../indexing/port';

/**
 * Plain ERC-20 tokens (the listed ones, and every token found as an underlying). Its Transfer
 * decoder serves every registered token (LP shares, vault shares and aTokens are ERC-20s too).
 */
export const basicAdapter: ProtocolAdapter = {
  family: 'basic',
  staticContracts: () => [],
  seed: async (platform, ctx) =>
    ctx.listedTokens.map((address) => ({
      kind: 'token',
      token: { address, platform: platform.slug, family: 'basic', underlying: [], poolAddress: null, listed: true, metadata: {} },
    })),
  discoveryHandlers: {},
  fastHandlers: {
    // The Transfer handler below, from the scanned columns: same checks (three 32-byte topics
    // and a first data word of hex digits: else no columns), same event.
    [BASIC_EVENTS.transfer]: (logs, i, acc) => {
      const h = logs.transferAt(i);
      if (h < 0) return false;
      const token = acc.registry.tokens.get(logs.address(i));
      if (token)
        recordTransfer(
          acc,
          logs.blockNumber(i),
          logs.logIndex(i),
          logs.txHash(i),
          token.address,
          logs.transferFrom(h),
          logs.transferTo(h),
          logs.transferValue(h),
          logs,
          h,
        );
      return true;
    },
  },
  handlers: {
    [BASIC_EVENTS.transfer]: (log, acc) => {
      // ERC-721 Transfer shares the topic0 but indexes the token id (4 topics).
      const token = log.topics.length === 3 ? acc.registry.tokens.get(log.address) : undefined;
      if (!token) return;
      addTransfer(log, acc, token.address, topicAddress(log.topics[1]), topicAddress(log.topics[2]), uintWord(log.data, 0));
    },
    // WETH9 mints and burns without a Transfer event.
    [BASIC_EVENTS.wethDeposit]: (log, acc) => {
      const token = log.topics.length === 2 ? acc.registry.tokens.get(log.address) : undefined;
      if (token?.family !== 'basic') return;
      addTransfer(log, acc, token.address, ZERO_ADDRESS, topicAddress(log.topics[1]), uintWord(log.data, 0));
    },
    [BASIC_EVENTS.wethWithdrawal]: (log, acc) => {
      const token = log.topics.length === 2 ? acc.registry.tokens.get(log.address) : undefined;
      if (token?.family !== 'basic') return;
      addTransfer(log, acc, token.address, topicAddress(log.topics[1]), ZERO_ADDRESS, uintWord(log.data, 0));
    },
  },
  readScope: null,
};

/** `token`: the registry's instance of the address (events keep it until written: one copy, not one per log). */
function addTransfer(log: RpcLog, acc: IndexingSink, token: string, from: string, to: string, value: bigint): void {
  recordTransfer(acc, log.blockNumber, log.logIndex, log.transactionHash, token, from, to, value);
}

/** `row`: the list and handle of a transfer whose COPY row the logs scanner built. */
function recordTransfer(
  acc: IndexingSink,
  blockNumber: number,
  logIndex: number,
  txHash: string,
  token: string,
  from: string,
  to: string,
  value: bigint,
  row?: ScannedLogs,
  handle = -1,
): void {
  acc.addTransfer({ blockNumber, logIndex, txHash, token, from, to, value }, row, handle);
  // A V3 pool's reserves are its token balances.
  const pools = acc.registry.v3PoolsByToken.get(token);
  if (pools === undefined) return;
  for (const [holder, sign] of [
    [from, -1n],
    [to, 1n],
  ] as const) {
    if (!pools.has(holder)) continue;
    const pool = acc.registry.pools.get(holder)!;
    const state = acc.registry.poolStates.get(holder)!;
    if (pool.token0 === token) state.reserve0 += sign * value;
    else state.reserve1 += sign * value;
    acc.touchPool(holder, state, blockNumber, logIndex);
  }
}
