import type { RpcLog } from '@tokensvc/chain';
import type { BatchAccumulator } from '../decode/batch-accumulator';
import { addressWord, topicAddress, uintWord } from '../decode/hex';
import { TOPICS } from '../decode/topics';
import type { LendingEvent } from '../model/decoded-batch';
import type { StaticContract } from './protocol-adapter';
import { roleAddress, underlyingToken, type ProtocolAdapter } from './protocol-adapter';

function lending(log: RpcLog, acc: BatchAccumulator, kind: LendingEvent['kind'], account: string, amount: bigint): void {
  if (!acc.registry.markets.has(log.address)) return;
  acc.lending.push({ blockNumber: log.blockNumber, logIndex: log.logIndex, txHash: log.transactionHash, market: log.address, asset: topicAddress(log.topics[1]), kind, account, amount });
}

/**
 * Aave V3-style lending markets: the PoolConfigurator's ReserveInitialized creates a supply
 * position token (the aToken: underlying = the reserve's asset, pool address = the Pool); the
 * Pool's Supply/Withdraw/Borrow/Repay/ReserveDataUpdated are the activity and the rates.
 */
export const aaveV3Adapter: ProtocolAdapter = {
  family: 'aave-v3',
  staticContracts: (platform) => {
    const out: StaticContract[] = [];
    const pool = roleAddress(platform, 'pool');
    const configurator = roleAddress(platform, 'poolConfigurator');
    if (pool) out.push({ address: pool, role: 'market' });
    if (configurator) out.push({ address: configurator, role: 'source' });
    return out;
  },
  seed: async () => [],
  discoveryHandlers: {
    [TOPICS.aaveReserveInitialized]: (log, source) => {
      const asset = topicAddress(log.topics[1]);
      const aToken = topicAddress(log.topics[2]);
      return [
        underlyingToken(asset),
        {
          kind: 'token',
          token: {
            address: aToken,
            platform: source.platform,
            family: 'aave-v3',
            underlying: [asset],
            poolAddress: source.market ?? null,
            listed: false,
            metadata: { asset, stableDebtToken: addressWord(log.data, 0), variableDebtToken: addressWord(log.data, 1), interestRateStrategy: addressWord(log.data, 2) },
          },
        },
      ];
    },
  },
  handlers: {
    // Supply(reserve, user, onBehalfOf, amount, referral): the position belongs to onBehalfOf.
    [TOPICS.aaveSupply]: (log, acc) => lending(log, acc, 'deposit', topicAddress(log.topics[2]), uintWord(log.data, 1)),
    // Withdraw(reserve, user, to, amount)
    [TOPICS.aaveWithdraw]: (log, acc) => lending(log, acc, 'withdraw', topicAddress(log.topics[2]), uintWord(log.data, 0)),
    // Borrow(reserve, user, onBehalfOf, amount, mode, rate, referral): the debt is onBehalfOf's.
    [TOPICS.aaveBorrow]: (log, acc) => lending(log, acc, 'borrow', topicAddress(log.topics[2]), uintWord(log.data, 1)),
    // Repay(reserve, user, repayer, amount, useATokens): `user` is the borrower.
    [TOPICS.aaveRepay]: (log, acc) => lending(log, acc, 'repay', topicAddress(log.topics[2]), uintWord(log.data, 0)),
    [TOPICS.aaveReserveDataUpdated]: (log, acc) => {
      if (!acc.registry.markets.has(log.address)) return;
      acc.reserveRates.push({
        blockNumber: log.blockNumber, logIndex: log.logIndex, txHash: log.transactionHash,
        market: log.address,
        asset: topicAddress(log.topics[1]),
        liquidityRate: uintWord(log.data, 0),
        variableBorrowRate: uintWord(log.data, 2),
        liquidityIndex: uintWord(log.data, 3),
        variableBorrowIndex: uintWord(log.data, 4),
      });
    },
  },
};
