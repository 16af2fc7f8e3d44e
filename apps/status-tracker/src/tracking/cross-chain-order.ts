/**
 * The shapes of a tracked cross-chain order and of its stored quote, apart from the store that
 * reads and writes them, so the status record and the outbox append (written inside the store's
 * transactions) can use them without importing the store.
 */
import type { Network } from '@tokensvc/domain';
import type { CrossChainStatus } from './transition';

export interface CrossChainOrder {
  orderId: string;
  txHash: string;
  status: CrossChainStatus;
  statusReason: string | undefined;
  provider: string;
  requestId: string | undefined;
  fromNetwork: Network;
  fromChainId: number;
  toNetwork: Network | undefined;
  toChainId: number | undefined;
  originTxHashes: string[];
  destinationTxHashes: string[];
  depositBlock: number | undefined;
  fillDeadline: number | undefined;
  createdAt: Date;
  updatedAt: Date;
  terminalAt: Date | undefined;
  /** transitions written so far (status_events seq of the latest; 0 while PENDING) */
  eventSeq: number;
}

/** The quote of `GET /v2/portal` while it is kept (context and tx as stored, proto3 JSON). */
export interface StoredQuote {
  network: Network;
  chainId: number;
  context: unknown;
  tx: unknown;
}
