import type { RpcLog } from '@tokensvc/domain';
import type { IndexingSink } from '../indexing/port';
import { addressWord, topicAddress, uintWord } from '../indexing/hex';
import { AAVE_V3_EVENTS } from './events';
import type { LendingEvent } from '../indexing/events';
import type { StaticContract } from '../indexing/port';
import { roleAddress, underlyingToken } from '../indexing/adapter-helpers';
import type { ProtocolAdapter } from '../indexing/port';
import { readAaveV3Scope } from './scope';

function lending(log: RpcLog, acc: IndexingSink, kind: LendingEvent['kind'], account: string, amount: bigint): void {
  if (!acc.registry.markets.has(log.address)) return;
  acc.lending.push({
    blockNumber: log.blockNumber,
    logIndex: log.logIndex,
    txHash: log.transactionHash,
    market: log.address,
    asset: topicAddress(log.topics[1]),
    kind,
    account,
    amount,
  });
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
    [AAVE_V3_EVENTS.aaveReserveInitialized]: (log, source) => {
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
            metadata: {
              asset,
              stableDebtToken: addressWord(log.data, 0),
              variableDebtToken: addressWord(log.data, 1),
              interestRateStrategy: addressWord(log.data, 2),
            },
          },
        },
      ];
    },
  },
  handlers: {
    // Supply(reserve, user, onBehalfOf, amount, referral): the position belongs to onBehalfOf.
    [AAVE_V3_EVENTS.aaveSupply]: (log, acc) => lending(log, acc, 'deposit', topicAddress(log.topics[2]), uintWord(log.data, 1)),
    // Withdraw(reserve, user, to, amount)
    [AAVE_V3_EVENTS.aaveWithdraw]: (log, acc) => lending(log, acc, 'withdraw', topicAddress(log.topics[2]), uintWord(log.data, 0)),
    // Borrow(reserve, user, onBehalfOf, amount, mode, rate, referral): the debt is onBehalfOf's.
    [AAVE_V3_EVENTS.aaveBorrow]: (log, acc) => lending(log, acc, 'borrow', topicAddress(log.topics[2]), uintWord(log.data, 1)),
    // Repay(reserve, user, repayer, amount, useATokens): `user` is the borrower.
    [AAVE_V3_EVENTS.aaveRepay]: (log, acc) => lending(log, acc, 'repay', topicAddress(log.topics[2]), uintWord(log.data, 0)),
    [AAVE_V3_EVENTS.aaveReserveDataUpdated]: (log, acc) => {
      if (!acc.registry.markets.has(log.address)) return;
      acc.reserveRates.push({
        blockNumber: log.blockNumber,
        logIndex: log.logIndex,
        txHash: log.transactionHash,
        market: log.address,
        asset: topicAddress(log.topics[1]),
        liquidityRate: uintWord(log.data, 0),
        variableBorrowRate: uintWord(log.data, 2),
        liquidityIndex: uintWord(log.data, 3),
        variableBorrowIndex: uintWord(log.data, 4),
      });
    },
  },
  readScope: readAaveV3Scope,
};
