/**
 * `GET /v3/portal/status` (orderId, txHash). The first request for a pair creates its row
 * (PENDING) and its tracking job; later ones read the row, which the tracker moves on. The stored
 * quote adds context and tx while it is kept (a week); after that, or when it was never stored
 * here, the record is resolved from the transaction alone: the provider's deposit in its receipt
 * names the networks. 404 only when there is no row, no stored quote and no deposit either.
 */
import { isNetwork, NETWORK_INFO, type Network } from '@tokensvc/domain';
import type { BridgeProvider } from '@tokensvc/bridge';
import { ErrorCode, type CrossChainStatusReply, type CrossChainStatusRequest } from '@tokensvc/messages';
import { ServiceError } from '@tokensvc/transport';
import type { CrossChainOrder, CrossChainOrderStore, NewCrossChainOrder, StoredQuote } from '../tracking/cross-chain-order-store';
import type { CrossChainTracker } from '../tracking/tracker';
import { statusReply } from '../push/status-record';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TX_HASH = /^0x[0-9a-f]{64}$/;

/** Queues an order's tracking (TrackingQueue.add); separate so the use case does not need Redis in unit tests. */
export type EnqueueTracking = (orderId: string, txHash: string) => Promise<void>;

function networkOfTokenKey(key: unknown): Network | undefined {
  if (typeof key !== 'string') return undefined;
  const network = key.split(':')[0];
  return network !== undefined && isNetwork(network) ? network : undefined;
}

export class CrossChainStatusUseCase {
  constructor(
    private readonly store: CrossChainOrderStore,
    private readonly provider: BridgeProvider,
    private readonly tracker: CrossChainTracker,
    private readonly enqueue: EnqueueTracking,
    /** networks the provider can read (origin candidates when there is no stored quote) */
    private readonly networks: readonly Network[],
  ) {}

  async execute(req: CrossChainStatusRequest): Promise<CrossChainStatusReply> {
    const orderId = req.orderId.toLowerCase();
    const txHash = req.txHash.toLowerCase();
    if (!UUID.test(orderId)) throw new ServiceError(ErrorCode.ERROR_CODE_BAD_REQUEST, 'orderId must be a UUID (context.orderId of the order)');
    if (!TX_HASH.test(txHash)) throw new ServiceError(ErrorCode.ERROR_CODE_BAD_REQUEST, 'txHash must be 0x followed by 64 hex characters');
    const quote = await this.store.quote(orderId);
    let row = await this.store.get(orderId, txHash);
    if (!row) {
      // A same-chain quote carries no cross-chain status; only its transaction could say otherwise.
      const quoted = quote && this.fromQuote(orderId, txHash, quote);
      const fresh = quoted ?? (await this.fromChain(orderId, txHash));
      if (!fresh) throw new ServiceError(ErrorCode.ERROR_CODE_NOT_FOUND, `no cross-chain order ${orderId} with transaction ${txHash}: no stored quote, and the transaction made no bridge deposit`);
      row = await this.store.create(fresh);
      if (!quoted) {
        // Found from the chain: the deposit is there, so one step makes the first answer ONGOING
        // (or final). A failing RPC only delays that to the job.
        await this.tracker.advance(orderId, txHash).catch(() => false);
        row = (await this.store.get(orderId, txHash)) ?? row;
      }
      // The sweep re-queues the row if Redis is briefly away.
      if (row.terminalAt === undefined) await this.enqueue(orderId, txHash).catch(() => undefined);
    }
    return this.reply(row, quote);
  }

  private fromQuote(orderId: string, txHash: string, quote: StoredQuote): NewCrossChainOrder | undefined {
    const context = quote.context as { outputToken?: unknown } | null;
    const to = networkOfTokenKey(context?.outputToken);
    if (to === quote.network) return undefined;
    return { orderId, txHash, provider: this.provider.name, fromNetwork: quote.network, fromChainId: quote.chainId, toNetwork: to, toChainId: to && NETWORK_INFO[to].chainId };
  }

  private async fromChain(orderId: string, txHash: string): Promise<NewCrossChainOrder | undefined> {
    for (const network of this.networks) {
      const [d] = await this.provider.findDeposit(network, txHash);
      if (d) return { orderId, txHash, provider: this.provider.name, fromNetwork: network, fromChainId: d.originChainId, toNetwork: d.destinationNetwork, toChainId: d.destinationChainId };
    }
    return undefined;
  }

  /** The record (shared with the status events of the push module, so both say the same). */
  private reply(row: CrossChainOrder, quote: StoredQuote | undefined): CrossChainStatusReply {
    return statusReply(row, quote);
  }
}
