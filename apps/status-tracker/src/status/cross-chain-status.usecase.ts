/**
 * `GET /v3/portal/status` (orderId, txHash). An existing row is read as it is. Otherwise a row is
 * created only for a transaction that is on chain and is this order's (issue 16: one quoted
 * orderId and random hashes must not create rows that are polled for 30 minutes):
 *
 * - with the stored quote (kept a week): the transaction must be mined on the quote's network and
 *   be the quote's transaction (its `tx.to` with exactly its `tx.data`, the follower's rule). A
 *   successful one must show the provider's deposit: its row is created PENDING and queued. A
 *   reverted one is the order's failed attempt: its row is created and advanced at once to FAILED
 *   ("the origin transaction reverted"), never polled. Anything else is 404 saying what is wrong
 *   (unknown to the node, still pending, not the order's transaction, no deposit), nothing stored;
 * - without it (never stored here, or past its week): the provider's deposit in the receipt names
 *   the networks, and the row is created only when no other order tracks that transaction (the
 *   order id cannot be checked any more, so one deposit gives one row at most), advanced once.
 *
 * Either way an order has at most `maxTxsPerOrder` rows (409 beyond). 400 for malformed ids.
 */
import { NETWORK_INFO, isNetwork, type Network } from '@tokensvc/domain';
import type { BridgeProvider } from '@tokensvc/bridge';
import { ErrorCode, type CrossChainStatusReply, type CrossChainStatusRequest } from '@tokensvc/messages';
import { ServiceError } from '@tokensvc/transport';
import { isQuoteTransaction } from '../events/quote-matcher';
import type { CreateOutcome, CrossChainOrderStore, NewCrossChainOrder, StoredQuote } from '../tracking/cross-chain-order-store';
import type { CrossChainTracker } from '../tracking/tracker';
import { statusReply } from '../tracking/status-record';
import type { OriginTransactionReader } from './origin-transaction';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TX_HASH = /^0x[0-9a-f]{64}$/;

/** Queues an order's tracking (TrackingQueue.add); separate so the use case does not need Redis in unit tests. */
export type EnqueueTracking = (orderId: string, txHash: string) => Promise<void>;

export interface StatusLimits {
  /** TRACKER_MAX_TXS_PER_ORDER: tracking rows one order id may have */
  maxTxsPerOrder: number;
}

function networkOfTokenKey(key: unknown): Network | undefined {
  if (typeof key !== 'string') return undefined;
  const network = key.split(':')[0];
  return network !== undefined && isNetwork(network) ? network : undefined;
}

const notFound = (message: string): ServiceError => new ServiceError(ErrorCode.ERROR_CODE_NOT_FOUND, message);

export class CrossChainStatusUseCase {
  constructor(
    private readonly store: CrossChainOrderStore,
    private readonly provider: BridgeProvider,
    private readonly tracker: CrossChainTracker,
    private readonly enqueue: EnqueueTracking,
    /** networks the provider can read (origin candidates when there is no stored quote) */
    private readonly networks: readonly Network[],
    private readonly origin: OriginTransactionReader,
    private readonly limits: StatusLimits,
  ) {}

  async execute(req: CrossChainStatusRequest): Promise<CrossChainStatusReply> {
    const orderId = req.orderId.toLowerCase();
    const txHash = req.txHash.toLowerCase();
    if (!UUID.test(orderId))
      throw new ServiceError(ErrorCode.ERROR_CODE_BAD_REQUEST, 'orderId must be a UUID (context.orderId of the order)');
    if (!TX_HASH.test(txHash)) throw new ServiceError(ErrorCode.ERROR_CODE_BAD_REQUEST, 'txHash must be 0x followed by 64 hex characters');
    const quote = await this.store.quote(orderId);
    const row = await this.store.get(orderId, txHash);
    if (row) return statusReply(row, quote);
    return quote ? this.startFromQuote(orderId, txHash, quote) : this.startFromChain(orderId, txHash);
  }

  private async startFromQuote(orderId: string, txHash: string, quote: StoredQuote): Promise<CrossChainStatusReply> {
    const fresh = this.fromQuote(orderId, txHash, quote);
    if (!fresh) throw notFound(`order ${orderId} is a same-chain order: it has no cross-chain status (GET /v2/portal/status reads it)`);
    const network = quote.network;
    const origin = await this.origin.read(network, txHash);
    const notThisOrder = `it is not the transaction of order ${orderId} (not sent to the quote's tx.to with its tx.data)`;
    switch (origin.kind) {
      case 'unknown':
        throw notFound(
          `transaction ${txHash} was not found on ${network}, the origin network of order ${orderId}: check the hash (nothing is tracked for it)`,
        );
      case 'pending':
        throw notFound(
          `transaction ${txHash} is not mined on ${network} yet: retry once it is mined (a pending transaction is not tracked)`,
        );
      case 'reverted':
        if (!isQuoteTransaction(quote, origin.tx)) throw notFound(`transaction ${txHash} reverted on ${network} and ${notThisOrder}`);
        // The order's own attempt, reverted: one step writes FAILED; nothing to poll.
        return this.created(fresh, quote, { advance: true });
      case 'mined':
        if (origin.deposits.length === 0)
          throw notFound(
            `transaction ${txHash} on ${network} made no ${this.provider.name} deposit: it is not a cross-chain order's transaction`,
          );
        if (!isQuoteTransaction(quote, origin.tx))
          throw notFound(`transaction ${txHash} is a ${this.provider.name} deposit on ${network}, but ${notThisOrder}`);
        return this.created(fresh, quote, { advance: false });
    }
  }

  /** No stored quote: the deposit in the receipt alone names the order's networks. */
  private async startFromChain(orderId: string, txHash: string): Promise<CrossChainStatusReply> {
    for (const network of this.networks) {
      const [d] = await this.provider.findDeposit(network, txHash);
      if (d) {
        const fresh: NewCrossChainOrder = {
          orderId,
          txHash,
          provider: this.provider.name,
          fromNetwork: network,
          fromChainId: d.originChainId,
          toNetwork: d.destinationNetwork,
          toChainId: d.destinationChainId,
        };
        // Found from the chain: the deposit is there, so one step makes the first answer ONGOING (or final).
        return this.created(fresh, undefined, { advance: true, txUnclaimed: true });
      }
    }
    throw notFound(
      `no cross-chain order ${orderId} with transaction ${txHash}: no stored quote, and the transaction made no bridge deposit`,
    );
  }

  private async created(
    fresh: NewCrossChainOrder,
    quote: StoredQuote | undefined,
    o: { advance: boolean; txUnclaimed?: boolean },
  ): Promise<CrossChainStatusReply> {
    const { orderId, txHash } = fresh;
    const outcome: CreateOutcome = await this.store.createBounded(fresh, this.limits.maxTxsPerOrder, { txUnclaimed: o.txUnclaimed });
    if ('refused' in outcome) {
      if (outcome.refused === 'tx-taken')
        throw notFound(
          `no cross-chain order ${orderId} with transaction ${txHash}: the order's quote is no longer stored, and the transaction is tracked for another order`,
        );
      throw new ServiceError(
        ErrorCode.ERROR_CODE_CONFLICT,
        `order ${orderId} already tracks ${outcome.count} transactions, the most one order may have (TRACKER_MAX_TXS_PER_ORDER); ask with one of them`,
      );
    }
    let row = outcome.row;
    if (o.advance) {
      // A failing RPC only delays that to the job.
      await this.tracker.advance(orderId, txHash).catch(() => false);
      row = (await this.store.get(orderId, txHash)) ?? row;
    }
    // The sweep re-queues the row if Redis is briefly away.
    if (row.terminalAt === undefined) await this.enqueue(orderId, txHash).catch(() => undefined);
    return statusReply(row, quote);
  }

  private fromQuote(orderId: string, txHash: string, quote: StoredQuote): NewCrossChainOrder | undefined {
    const context = quote.context as { outputToken?: unknown } | null;
    const to = networkOfTokenKey(context?.outputToken);
    if (to === quote.network) return undefined;
    return {
      orderId,
      txHash,
      provider: this.provider.name,
      fromNetwork: quote.network,
      fromChainId: quote.chainId,
      toNetwork: to,
      toChainId: to && NETWORK_INFO[to].chainId,
    };
  }
}
