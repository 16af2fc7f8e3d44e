/**
 * Across SpokePool events decoded into plain records (EVM addresses, bigint amounts), and the
 * V3RelayData a fill status look-up needs. The decoders live in @tokensvc/contracts (the devnet's
 * relayer reads the same events); the bridge adds where a deposit was found.
 */
import type { RpcLog } from '@tokensvc/chain';
import type { AcrossDepositEvent } from '@tokensvc/contracts';
import type { AcrossNetworkConfig } from './across-config';

export {
  type AcrossDepositEvent,
  type AcrossFillEvent,
  type AcrossRefundLeafEvent,
  type RawLog,
  decodeFilledRelay,
  decodeFundsDeposited,
  decodeRefundLeaf,
  refundIndexFor,
  relayDataOf,
} from '@tokensvc/contracts';

/** A FundsDeposited as found on the origin, with where it was logged. */
export interface AcrossDepositRecord {
  network: AcrossNetworkConfig;
  event: AcrossDepositEvent;
  at: { txHash: string; blockNumber: number; logIndex: number };
}

/** Where a log is, as the bridge infos say it. */
export function positionOf(log: RpcLog): { txHash: string; blockNumber: number; logIndex: number } {
  return { txHash: log.transactionHash, blockNumber: log.blockNumber, logIndex: log.logIndex };
}
