import type { RpcLog } from '@tokensvc/chain';
import { ZERO_ADDRESS } from '@tokensvc/domain';
import type { BatchAccumulator } from '../decode/batch-accumulator';
import { topicAddress, uintWord } from '../decode/hex';
import { TOPICS } from '../decode/topics';
import type { ProtocolAdapter } from './protocol-adapter';

/**
 * Plain ERC-20 tokens (the listed ones, and every token found as an underlying). Its Transfer
 * decoder serves every registered token (LP shares, vault shares and aTokens are ERC-20s too).
 */
export const basicAdapter: ProtocolAdapter = {
  family: 'basic',
  staticContracts: () => [],
  seed: async (platform, ctx) =>
    ctx.listedTokens.map((address) => ({ kind: 'token', token: { address, platform: platform.slug, family: 'basic', underlying: [], poolAddress: null, listed: true, metadata: {} } })),
  discoveryHandlers: {},
  handlers: {
    [TOPICS.transfer]: (log, acc) => {
      // ERC-721 Transfer shares the topic0 but indexes the token id (4 topics).
      const token = log.topics.length === 3 ? acc.registry.tokens.get(log.address) : undefined;
      if (!token) return;
      addTransfer(log, acc, token.address, topicAddress(log.topics[1]), topicAddress(log.topics[2]), uintWord(log.data, 0));
    },
    // WETH9 mints and burns without a Transfer event.
    [TOPICS.wethDeposit]: (log, acc) => {
      const token = log.topics.length === 2 ? acc.registry.tokens.get(log.address) : undefined;
      if (token?.family !== 'basic') return;
      addTransfer(log, acc, token.address, ZERO_ADDRESS, topicAddress(log.topics[1]), uintWord(log.data, 0));
    },
    [TOPICS.wethWithdrawal]: (log, acc) => {
      const token = log.topics.length === 2 ? acc.registry.tokens.get(log.address) : undefined;
      if (token?.family !== 'basic') return;
      addTransfer(log, acc, token.address, topicAddress(log.topics[1]), ZERO_ADDRESS, uintWord(log.data, 0));
    },
  },
};

/** `token`: the registry's instance of the address (events keep it until written: one copy, not one per log). */
function addTransfer(log: RpcLog, acc: BatchAccumulator, token: string, from: string, to: string, value: bigint): void {
  acc.transfers.push({ blockNumber: log.blockNumber, logIndex: log.logIndex, txHash: log.transactionHash, token, from, to, value });
  // A V3 pool's reserves are its token balances.
  const pools = acc.registry.v3PoolsByToken.get(token);
  if (pools === undefined) return;
  for (const [holder, sign] of [[from, -1n], [to, 1n]] as const) {
    if (!pools.has(holder)) continue;
    const pool = acc.registry.pools.get(holder)!;
    const state = acc.registry.poolStates.get(holder)!;
    if (pool.token0 === token) state.reserve0 += sign * value;
    else state.reserve1 += sign * value;
    acc.touchPool(holder, state, log.blockNumber, log.logIndex);
  }
}
