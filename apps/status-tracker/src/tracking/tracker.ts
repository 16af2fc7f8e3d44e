/**
 * One tracking step of one order: read the row, look at the chains (origin receipt, or the bridge's
 * fill / refund / deposit state), ask `nextState` what that means and write it. `advance` returns
 * true once the order is terminal. Safe to run twice at once for the same order (a lock takeover):
 * both writes are guarded, and the terminal one is written once.
 */
import { JsonRpcClient } from '@tokensvc/chain';
import type { BridgeProvider } from '@tokensvc/bridge';
import type { Network } from '@tokensvc/domain';
import type { CrossChainOrder, CrossChainOrderStore } from './cross-chain-order-store';
import { isTerminal, nextState, type Observation, type TerminalStatus } from './transition';

export interface TrackerOptions {
  /** an origin transaction without a receipt this long after tracking began is FAILED */
  originNotFoundTimeoutMs: number;
  now?: () => number;
}

export type TrackerEvent = { orderId: string; txHash: string; status: TerminalStatus; atMs: number } | { orderId: string; txHash: string; status: 'ONGOING'; atMs: number };

interface RpcReceipt {
  status?: string;
}

export class CrossChainTracker {
  private readonly now: () => number;
  private readonly listeners: Array<(e: TrackerEvent) => void> = [];

  constructor(
    private readonly store: CrossChainOrderStore,
    private readonly provider: BridgeProvider,
    private readonly rpc: ReadonlyMap<Network, JsonRpcClient>,
    private readonly o: TrackerOptions,
  ) {
    this.now = o.now ?? Date.now;
  }

  /** Called after each transition this process wrote (tests and metrics). */
  onTransition(listener: (e: TrackerEvent) => void): void {
    this.listeners.push(listener);
  }

  async advance(orderId: string, txHash: string): Promise<boolean> {
    const order = await this.store.get(orderId, txHash);
    if (!order) return true; // nothing to track (the row is the truth)
    if (isTerminal(order.status)) return true;
    const obs = order.status === 'PENDING' ? await this.observeOrigin(order) : await this.observeSettlement(order);
    const t = nextState({ status: order.status, createdAtMs: order.createdAt.getTime() }, obs);
    if (t.kind === 'stay') return false;
    if (t.kind === 'ongoing') {
      if (await this.store.markOngoing(orderId, txHash, t.deposit)) this.emit({ orderId, txHash, status: 'ONGOING', atMs: this.now() });
      // Look for the fill at once: it may be there already (a late first request).
      return this.advance(orderId, txHash);
    }
    if (await this.store.finish(orderId, txHash, t.status, t.statusReason, t.destinationTxHashes)) this.emit({ orderId, txHash, status: t.status, atMs: this.now() });
    return true;
  }

  private emit(e: TrackerEvent): void {
    for (const l of this.listeners) l(e);
  }

  private async observeOrigin(order: CrossChainOrder): Promise<Observation> {
    const base = { stage: 'origin' as const, nowMs: this.now(), originNotFoundTimeoutMs: this.o.originNotFoundTimeoutMs };
    const rpc = this.rpc.get(order.fromNetwork);
    if (!rpc) throw new Error(`no RPC URL for ${order.fromNetwork}`);
    const receipt = await rpc.call<RpcReceipt | null>('eth_getTransactionReceipt', [order.txHash]);
    if (!receipt) return { ...base, receipt: 'missing', deposit: undefined };
    if (receipt.status !== '0x1') return { ...base, receipt: 'reverted', deposit: undefined };
    const [d] = await this.provider.findDeposit(order.fromNetwork, order.txHash);
    return {
      ...base,
      receipt: 'mined',
      deposit: d && { requestId: d.requestId, destinationNetwork: d.destinationNetwork, destinationChainId: d.destinationChainId, blockNumber: d.blockNumber, fillDeadline: d.fillDeadline },
    };
  }

  private async observeSettlement(order: CrossChainOrder): Promise<Observation> {
    const requestId = order.requestId;
    if (!requestId) throw new Error(`ONGOING order ${order.orderId}/${order.txHash} has no request id`);
    // A deposit to a chain the provider does not serve can only be refunded.
    const fill = order.toNetwork ? await this.provider.findFill(order.toNetwork, order.fromChainId, requestId) : undefined;
    const refund = fill ? undefined : await this.provider.findRefund(order.fromNetwork, requestId, { fromBlock: order.depositBlock });
    const depositState = fill ? 'settled' : refund ? 'refunded' : await this.provider.depositState(order.fromNetwork, requestId);
    return {
      stage: 'settlement',
      fill: fill && { txHash: fill.txHash },
      refund: refund && { txHash: refund.txHash, refundTo: refund.refundTo, amount: refund.amount, token: refund.token },
      depositState,
      fillDeadline: order.fillDeadline,
    };
  }
}
