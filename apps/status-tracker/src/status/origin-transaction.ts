/**
 * What a status request's transaction is on its origin network, read before anything is stored
 * (issue 16: a tracking row only for a transaction that exists and deposits the order). One
 * `eth_getTransactionReceipt` and one `eth_getTransactionByHash`, then the provider's deposit
 * look-up only for a successful receipt.
 *
 * - `unknown`: the node knows no such transaction (neither mined nor in its mempool);
 * - `pending`: in the mempool, not mined yet (the caller answers 404 "retry after it is mined":
 *   a pending transaction can still be replaced or dropped, so nothing is stored for it);
 * - `reverted`: mined and reverted (no deposit);
 * - `mined`: mined and successful, with the bridge deposits its receipt shows (maybe none).
 *
 * The transaction's `to` and `input` come with it, so the caller can match it to a stored quote
 * exactly as the bridge follower does (`events/quote-matcher.ts`).
 */
import type { BridgeDepositInfo, BridgeProvider } from '@tokensvc/bridge';
import type { JsonRpcClient } from '@tokensvc/chain';
import type { Network } from '@tokensvc/domain';
import { ErrorCode } from '@tokensvc/messages';
import { ServiceError } from '@tokensvc/transport';
import type { ChainTx } from '../events/quote-matcher';

export type OriginTransaction =
  | { kind: 'unknown' }
  | { kind: 'pending'; tx: ChainTx }
  | { kind: 'reverted'; tx: ChainTx }
  | { kind: 'mined'; tx: ChainTx; deposits: BridgeDepositInfo[] };

interface RpcTx {
  hash: string;
  to: string | null;
  input: string;
  blockNumber: string | null;
}

export class OriginTransactionReader {
  constructor(
    private readonly rpc: ReadonlyMap<Network, Pick<JsonRpcClient, 'call'>>,
    private readonly provider: Pick<BridgeProvider, 'findDeposit'>,
  ) {}

  /** Throws UNAVAILABLE when the network has no node configured or the node does not answer. */
  async read(network: Network, txHash: string): Promise<OriginTransaction> {
    const rpc = this.rpc.get(network);
    if (!rpc)
      throw new ServiceError(
        ErrorCode.ERROR_CODE_UNAVAILABLE,
        `no node configured for ${network}: transaction ${txHash} cannot be checked`,
      );
    const unavailable = (e: unknown): never => {
      throw new ServiceError(
        ErrorCode.ERROR_CODE_UNAVAILABLE,
        `the ${network} node did not answer for transaction ${txHash}: ${e instanceof Error ? e.message : String(e)}`,
      );
    };
    const [receipt, raw] = await Promise.all([
      rpc.call<{ status?: string } | null>('eth_getTransactionReceipt', [txHash]),
      rpc.call<RpcTx | null>('eth_getTransactionByHash', [txHash]),
    ]).catch(unavailable);
    if (!raw) return { kind: 'unknown' };
    const tx: ChainTx = { hash: raw.hash.toLowerCase(), to: raw.to?.toLowerCase() ?? null, input: raw.input.toLowerCase() };
    // A receipt without a block is impossible; a tx without a receipt is in the mempool (or was
    // mined in the instant between the two calls: the client's retry finds it).
    if (!receipt || raw.blockNumber === null) return { kind: 'pending', tx };
    if (receipt.status !== '0x1') return { kind: 'reverted', tx };
    const deposits = await this.provider.findDeposit(network, txHash).catch(unavailable);
    return { kind: 'mined', tx, deposits };
  }
}
