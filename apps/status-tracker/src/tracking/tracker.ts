/**
 * One tracking step of one order: read the row, look at the chains (origin receipt, or the bridge's
 * fill / refund / deposit state), ask `nextState` what that means and write it. `advance` returns
 * true once the order is terminal. Safe to run twice at once for the same order (a lock takeover,
 * an event wake during a safety-net poll): both writes are guarded, and the terminal one is written
 * once.
 *
 * A settlement is looked up first among the fills and refunds the bridge followers stored
 * (`SettlementEvents`), and confirmed on chain before anything terminal is written (a fill: its
 * transaction's receipt in the event's block; a refund, or a fill that moved: the provider's
 * look-up from the event's block), so an event a reorg removed cannot finish an order. Woken by an event (`via` 'event'), that is all a step reads; the safety-net poll
 * ('poll') also searches the chains as before, for an order whose event was missed.
 */
import { JsonRpcClient } from '@tokensvc/chain';
import type { BridgeFillInfo, BridgeProvider, BridgeRefundInfo } from '@tokensvc/bridge';
import type { Network } from '@tokensvc/domain';
import type { CrossChainOrder, CrossChainOrderStore } from './cross-chain-order-store';
import { type CrossChainStatus, isTerminal, nextState, type Observation, type TerminalStatus } from './transition';

/** Where the bridge followers' stored fills and refunds are read (events/BridgeEventStore). */
export interface SettlementEvents {
  settlementEvents(requestId: string): Promise<
    Array<{
      network: Network;
      kind: 'deposit' | 'fill' | 'refund';
      originChainId: number;
      txHash: string;
      blockNumber: number;
      blockHash: string;
    }>
  >;
  /** the last block of `network` whose events are stored */
  cursor(network: Network): Promise<{ number: number } | undefined>;
}

/** 'event': woken by a bridge event (stored events only); 'poll': the safety net and status requests (stored events, then the chains). */
export type AdvanceVia = 'event' | 'poll';

export interface TrackerOptions {
  /** an origin transaction without a receipt this long after tracking began is FAILED */
  originNotFoundTimeoutMs: number;
  now?: () => number;
}

export type TrackerEvent =
  | { orderId: string; txHash: string; status: TerminalStatus; atMs: number }
  | { orderId: string; txHash: string; status: 'ONGOING'; atMs: number };

interface RpcReceipt {
  status?: string;
  blockHash?: string;
}

export class CrossChainTracker {
  private readonly now: () => number;
  private listeners: Array<(e: TrackerEvent) => void> = [];

  constructor(
    private readonly store: CrossChainOrderStore,
    private readonly provider: BridgeProvider,
    private readonly rpc: ReadonlyMap<Network, JsonRpcClient>,
    private readonly o: TrackerOptions,
    private readonly events?: SettlementEvents,
  ) {
    this.now = o.now ?? Date.now;
  }

  /**
   * The same tracker over other stores (the event wakes use their own Postgres connections, so
   * they never wait behind a burst of safety-net polls); its transitions reach the same listeners.
   */
  withStores(store: CrossChainOrderStore, events: SettlementEvents | undefined): CrossChainTracker {
    const lane = new CrossChainTracker(store, this.provider, this.rpc, this.o, events);
    lane.listeners = this.listeners;
    return lane;
  }

  /** Called after each transition this process wrote (tests and metrics). */
  onTransition(listener: (e: TrackerEvent) => void): void {
    this.listeners.push(listener);
  }

  async advance(orderId: string, txHash: string, via: AdvanceVia = 'poll'): Promise<boolean> {
    const status = await this.step(orderId, txHash, via);
    return status === undefined || isTerminal(status);
  }

  /** One step; the order's status after it, undefined when there is no such row (nothing to track: the row is the truth). */
  async step(orderId: string, txHash: string, via: AdvanceVia = 'poll'): Promise<CrossChainStatus | undefined> {
    const order = await this.store.get(orderId, txHash);
    if (!order) return undefined;
    if (isTerminal(order.status)) return order.status;
    const obs = order.status === 'PENDING' ? await this.observeOrigin(order) : await this.observeSettlement(order, via);
    if (!obs) return order.status;
    const t = nextState({ status: order.status, createdAtMs: order.createdAt.getTime() }, obs);
    if (t.kind === 'stay') return order.status;
    if (t.kind === 'ongoing') {
      if (await this.store.markOngoing(orderId, txHash, t.deposit)) this.emit({ orderId, txHash, status: 'ONGOING', atMs: this.now() });
      // Look for the fill at once: it may be there already (a late first request, or its event was
      // stored before the row was ONGOING: the follower found no open order of that request then).
      return this.step(orderId, txHash, via);
    }
    if (order.status === 'ONGOING') {
      const origin = await this.originStillMakes(order);
      if (origin !== 'yes') return origin;
    }
    if (await this.store.finish(orderId, txHash, t.status, t.statusReason, t.destinationTxHashes))
      this.emit({ orderId, txHash, status: t.status, atMs: this.now() });
    return t.status;
  }

  /**
   * Before an ONGOING order's terminal write: does its origin transaction still make its deposit?
   * A reorg may have taken the transaction out (it is usually mined again, maybe under another
   * request id, and a later deposit may then carry this one's id and get its fill). 'yes' lets
   * the write go ahead; otherwise what the origin shows is applied as for a PENDING order (a
   * missing receipt waits up to the origin timeout, a reverted one is FAILED) and a deposit
   * under another id becomes the one followed. Returns the status after that.
   */
  private async originStillMakes(order: CrossChainOrder): Promise<'yes' | CrossChainStatus> {
    const t = nextState({ status: 'PENDING', createdAtMs: order.createdAt.getTime() }, await this.observeOrigin(order));
    if (t.kind === 'ongoing' && t.deposit.requestId === order.requestId) return 'yes';
    if (t.kind === 'stay') return 'ONGOING';
    if (t.kind === 'ongoing') {
      // Follow the deposit the transaction makes now; its settlement may be stored already.
      if (await this.store.rebindDeposit(order.orderId, order.txHash, order.requestId!, t.deposit))
        return (await this.step(order.orderId, order.txHash, 'event')) ?? 'ONGOING';
      return 'ONGOING';
    }
    if (await this.store.finish(order.orderId, order.txHash, t.status, t.statusReason, t.destinationTxHashes))
      this.emit({ orderId: order.orderId, txHash: order.txHash, status: t.status, atMs: this.now() });
    return t.status;
  }

  private emit(e: TrackerEvent): void {
    for (const l of this.listeners) l(e);
  }

  private async observeOrigin(order: CrossChainOrder): Promise<Observation> {
    const base = { stage: 'origin' as const, nowMs: this.now(), originNotFoundTimeoutMs: this.o.originNotFoundTimeoutMs };
    const rpc = this.rpc.get(order.fromNetwork);
    if (!rpc) throw new Error(`no RPC URL for ${order.fromNetwork}`);
    // A deposit found says the transaction is mined and succeeded (one request, the usual case).
    const [d] = await this.provider.findDeposit(order.fromNetwork, order.txHash);
    if (!d) {
      const receipt = await rpc.call<RpcReceipt | null>('eth_getTransactionReceipt', [order.txHash]);
      if (!receipt) return { ...base, receipt: 'missing', deposit: undefined };
      if (receipt.status !== '0x1') return { ...base, receipt: 'reverted', deposit: undefined };
    }
    return {
      ...base,
      receipt: 'mined',
      deposit: d && {
        requestId: d.requestId,
        destinationNetwork: d.destinationNetwork,
        destinationChainId: d.destinationChainId,
        blockNumber: d.blockNumber,
        fillDeadline: d.fillDeadline,
      },
    };
  }

  /** undefined: nothing to act on (woken by an event whose settlement is not confirmed on chain). */
  private async observeSettlement(order: CrossChainOrder, via: AdvanceVia): Promise<Observation | undefined> {
    const requestId = order.requestId;
    if (!requestId) throw new Error(`ONGOING order ${order.orderId}/${order.txHash} has no request id`);
    const known = await this.fromStoredEvents(order, requestId);
    if (known) {
      return {
        stage: 'settlement',
        fill: known.fill && { txHash: known.fill.txHash },
        refund: known.refund && {
          txHash: known.refund.txHash,
          refundTo: known.refund.refundTo,
          amount: known.refund.amount,
          token: known.refund.token,
        },
        depositState: known.fill ? 'settled' : 'refunded',
        fillDeadline: order.fillDeadline,
      };
    }
    if (via === 'event') return undefined;
    // A deposit to a chain the provider does not serve can only be refunded.
    const fill = order.toNetwork ? await this.searchFill(order.toNetwork, order.fromChainId, requestId) : undefined;
    const depositState = fill ? 'settled' : await this.provider.depositState(order.fromNetwork, requestId);
    const refund =
      depositState === 'refunded'
        ? await this.provider.findRefund(order.fromNetwork, requestId, { fromBlock: order.depositBlock })
        : undefined;
    return {
      stage: 'settlement',
      fill: fill && { txHash: fill.txHash },
      refund: refund && { txHash: refund.txHash, refundTo: refund.refundTo, amount: refund.amount, token: refund.token },
      depositState,
      fillDeadline: order.fillDeadline,
    };
  }

  /**
   * The fill of a request, wherever it is: first after the destination follower's cursor (where a
   * fill whose event is not read yet is, a few blocks to search), then, when it is filled before
   * that (its event was missed), by the provider's own bounded search. One eth_call when unfilled.
   */
  private async searchFill(network: Network, originChainId: number, requestId: string): Promise<BridgeFillInfo | undefined> {
    const cursor = await this.events?.cursor(network);
    if (cursor) {
      const found = await this.provider.findFill(network, originChainId, requestId, { fromBlock: cursor.number + 1 }).then(
        (f) => ({ f }),
        () => undefined, // filled, but not after the cursor
      );
      if (found) return found.f;
    }
    return this.provider.findFill(network, originChainId, requestId);
  }

  /**
   * The fill (or else the refund) the followers stored for this request, confirmed on chain from
   * its block; undefined when none is stored or none is confirmed. A look-up that fails (say the
   * event moved in a reorg) counts as not confirmed: the chain search of the safety-net poll finds
   * the settlement wherever it is.
   */
  private async fromStoredEvents(
    order: CrossChainOrder,
    requestId: string,
  ): Promise<{ fill?: { txHash: string }; refund?: BridgeRefundInfo } | undefined> {
    if (!this.events) return undefined;
    const stored = await this.events.settlementEvents(requestId);
    const confirmed = <T>(p: Promise<T | undefined>): Promise<T | undefined> => p.catch(() => undefined);
    const fillEvent =
      order.toNetwork && stored.find((e) => e.kind === 'fill' && e.network === order.toNetwork && e.originChainId === order.fromChainId);
    if (fillEvent && order.toNetwork) {
      // The fill's transaction still mined, successful, in the very block the log was read from: that log is on chain.
      const receipt = await confirmed(
        this.rpc.get(order.toNetwork)?.call<RpcReceipt | null>('eth_getTransactionReceipt', [fillEvent.txHash]) ??
          Promise.resolve(undefined),
      );
      if (receipt?.status === '0x1' && receipt.blockHash === fillEvent.blockHash) return { fill: { txHash: fillEvent.txHash } };
      // Not there (moved by a reorg?): wherever the chain has it now, after that block.
      const fill = await confirmed(
        this.provider.findFill(order.toNetwork, order.fromChainId, requestId, { fromBlock: fillEvent.blockNumber }),
      );
      if (fill) return { fill };
    }
    const refundEvent = stored.find((e) => e.kind === 'refund' && e.network === order.fromNetwork);
    if (refundEvent) {
      const refund = await confirmed(this.provider.findRefund(order.fromNetwork, requestId, { fromBlock: refundEvent.blockNumber }));
      if (refund) return { refund };
    }
    return undefined;
  }
}
