/**
 * Tracking that starts from the chain: a bridge deposit is matched to the stored cross-chain quote
 * (`orders`, written by the quote service) it was built from. A transaction belongs to a quote when
 * it was sent on the quote's network to the quote's `tx.to` (the Router) with exactly the quote's
 * `tx.data` as input; the sender is not compared (a quote may be sent from another wallet, and the
 * calldata names its own recipient). Calldata carries no order id, so two quotes built with
 * identical calldata (same sender, amounts and deadline second) both match: each gets its row,
 * and both rows describe the same, real transaction.
 */
import { createHash } from 'node:crypto';
import { isNetwork, NETWORK_INFO, type Network } from '@tokensvc/domain';
import type { CrossChainOrderStore, NewCrossChainOrder, StoredQuote } from '../tracking/cross-chain-order-store';

/** The fields of eth_getTransactionByHash the match needs. */
export interface ChainTx {
  hash: string;
  to: string | null;
  input: string;
}

/** At most this many stored quotes are attached to one transaction. */
export const MAX_ORDERS_PER_TX = 10;

const md5 = (s: string): string => createHash('md5').update(s).digest('hex');

/** The tracking row of a quote's order sent as `txHash`; undefined for a same-chain quote. */
export function orderFromQuote(orderId: string, txHash: string, providerName: string, quote: StoredQuote): NewCrossChainOrder | undefined {
  const outputToken = (quote.context as { outputToken?: unknown } | null)?.outputToken;
  const prefix = typeof outputToken === 'string' ? outputToken.split(':')[0] : undefined;
  const to = prefix !== undefined && isNetwork(prefix) ? prefix : undefined;
  if (to === quote.network) return undefined;
  return {
    orderId,
    txHash,
    provider: providerName,
    fromNetwork: quote.network,
    fromChainId: quote.chainId,
    toNetwork: to,
    toChainId: to && NETWORK_INFO[to].chainId,
  };
}

/**
 * Whether `tx` is the quote's own transaction: sent to its `tx.to` with exactly its `tx.data`
 * (the status request checks a reported transaction with the same rule the follower matches by).
 */
export function isQuoteTransaction(quote: Pick<StoredQuote, 'tx'>, tx: ChainTx): boolean {
  const qtx = quote.tx as { to?: unknown; data?: unknown } | null;
  if (typeof qtx?.to !== 'string' || typeof qtx.data !== 'string' || !tx.to) return false;
  return tx.input.toLowerCase() === qtx.data.toLowerCase() && tx.to.toLowerCase() === qtx.to.toLowerCase();
}

export class QuoteMatcher {
  constructor(
    private readonly orders: CrossChainOrderStore,
    private readonly providerName: string,
  ) {}

  /** The tracking rows for the deposit transactions `txs` of `network` (those no tracked order has yet). */
  async match(network: Network, txs: readonly ChainTx[]): Promise<NewCrossChainOrder[]> {
    const byDigest = new Map<string, ChainTx[]>();
    for (const tx of txs) {
      if (!tx.to) continue;
      const digest = md5(tx.input.toLowerCase());
      byDigest.set(digest, [...(byDigest.get(digest) ?? []), tx]);
    }
    const quotes = await this.orders.crossChainQuotesByTxData(network, [...byDigest.keys()]);
    const out: NewCrossChainOrder[] = [];
    const perTx = new Map<string, number>();
    for (const q of quotes) {
      const qtx = q.tx as { to?: unknown; data?: unknown } | null;
      if (typeof qtx?.to !== 'string' || typeof qtx.data !== 'string') continue;
      const data = qtx.data.toLowerCase();
      for (const tx of byDigest.get(md5(data)) ?? []) {
        if (tx.input.toLowerCase() !== data || tx.to!.toLowerCase() !== qtx.to.toLowerCase()) continue;
        const n = perTx.get(tx.hash) ?? 0;
        if (n >= MAX_ORDERS_PER_TX) continue;
        const row = orderFromQuote(q.orderId, tx.hash.toLowerCase(), this.providerName, q);
        if (!row) continue;
        perTx.set(tx.hash, n + 1);
        out.push(row);
      }
    }
    return out;
  }
}
