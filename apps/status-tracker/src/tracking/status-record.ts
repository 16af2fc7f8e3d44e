/**
 * The status record of one row (proto CrossChainStatusReply): what GET /v3/portal/status answers
 * and what a status event carries. `quote` adds context and tx while the stored quote is kept.
 */
import { type CrossChainStatusReply, OrderContext, Tx } from '@tokensvc/messages';
import type { CrossChainOrder, StoredQuote } from './cross-chain-order';

export function statusReply(row: CrossChainOrder, quote: StoredQuote | undefined): CrossChainStatusReply {
  return {
    context: quote ? OrderContext.fromJSON(quote.context) : undefined,
    tx: quote ? Tx.fromJSON(quote.tx) : undefined,
    txHash: row.txHash,
    status: row.status,
    statusReason: row.statusReason,
    crossChainRequestId: row.requestId ?? '',
    crossChainProvider: row.provider,
    destinationTxHashes: row.destinationTxHashes,
    originTxHashes: row.originTxHashes,
    fromChainId: String(row.fromChainId),
    toChainId: String(row.toChainId ?? 0),
    eventSeq: String(row.eventSeq),
  };
}
