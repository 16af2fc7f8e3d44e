/**
 * The signed-order relayer: submits a stored order's signed variant with the service's gas wallet
 * and drives it until it is mined, exactly once.
 *
 * Postgres is the truth, not memory or the queue, and no database transaction is ever open while
 * the chain is asked something (a slow node must not hold a lock others wait for):
 * - a submission is checked and simulated first, with the chain's fees and nonce count read, and
 *   then claimed in one short transaction (relay-records.ts `claim`) that takes the order's row
 *   lock, so concurrent POSTs of one order wait for the first and get its transaction hash, and
 *   stores the signed raw transaction with the nonce it takes: once committed it is always
 *   broadcast (again) until something with that nonce is mined, so a crash leaves neither a lost
 *   order nor a nonce gap;
 * - every transaction ever signed (the first and each fee bump) is kept and each hash is checked
 *   for a receipt, since an earlier one may be the one mined; results are recorded in statements
 *   that only apply to what they expect (a pending order, the newest transaction).
 * `advance` is idempotent; the BullMQ worker calls it until the submission is final.
 */
import { encodeExecuteSignedOrder, type SignedRouterOrder } from '@tokensvc/contracts';
import type { Network } from '@tokensvc/domain';
import { ErrorCode, type StoredOrderReply } from '@tokensvc/messages';
import { ServiceError } from '@tokensvc/transport';
import { simulateTx } from '../chain/simulate';
import { QUOTE_METRICS } from '../metrics';
import { fillHoles, observeChain, reconcileLocked, type Reconciled } from './nonce-reconciler';
import type { StoredOrder } from './order-store';
import { feeCeilingPerGas } from './relay-guards';
import { outcomeOf, relayState } from './relay-receipts';
import { RelayRecords, type Unsigned } from './relay-records';
import { RelaySender, chainNow, currentFees } from './relay-sender';
import { NATIVE, bad, max, min, relayNetwork, type Receipt, type RelayDeps, type RelayNetwork, type SubmissionRow } from './relay-types';
import { checkOrderSignature, type SignedOrderTyped } from './signature-check';
import { signedOrderOf } from './signed-order-value';

export type { RelayDeps, RelayFaultPoint, RelayNetwork, RelayOptions } from './relay-types';

/** A reconciliation that changed something: the stored nonce moved, orders were opened again or holes filled. */
const repaired = (r: Reconciled, stored: bigint): boolean => r.next !== stored || r.reopened.length > 0 || r.holes.length > 0;

export class Relayer {
  private readonly submitted: Array<(orderId: string) => void> = [];
  private readonly records: RelayRecords;
  private readonly sender: RelaySender;
  /** concurrent POSTs of one order and signature in this process share one check and claim */
  private readonly inflight = new Map<string, Promise<StoredOrderReply>>();

  constructor(private readonly d: RelayDeps) {
    this.records = new RelayRecords(d.pool);
    this.sender = new RelaySender(d, this.records);
  }

  /** the networks with a relayer wallet */
  get networks(): ReadonlyMap<Network, RelayNetwork> {
    return this.d.networks;
  }

  /** `fn` runs after each new submission is committed and broadcast (the queue tracks it). */
  onSubmitted(fn: (orderId: string) => void): void {
    this.submitted.push(fn);
  }

  private log(msg: string, extra?: Record<string, unknown>): void {
    this.d.log?.(msg, extra);
  }

  /** POST /v2/portal: the stored order's relaying state after submitting it (at most once). */
  async submit(orderId: string, signature: string): Promise<StoredOrderReply> {
    const key = `${orderId}:${signature.toLowerCase()}`;
    let p = this.inflight.get(key);
    if (!p) {
      p = this.submitOnce(orderId, signature).finally(() => this.inflight.delete(key));
      this.inflight.set(key, p);
    }
    return p;
  }

  private async submitOnce(orderId: string, signature: string): Promise<StoredOrderReply> {
    const order = await this.d.store.find(orderId);
    if (!order)
      throw new ServiceError(
        ErrorCode.ERROR_CODE_NOT_FOUND,
        `order ${orderId} not found: it was never quoted, or its week of retention is over; get a new quote from GET /v2/portal`,
      );
    const known = await this.records.submission(orderId);
    if (known) return this.existing(order, known, signature);
    let accepted: { net: RelayNetwork; tx: Unsigned };
    try {
      accepted = await this.accept(order, signature);
    } catch (e) {
      // Submitted meanwhile (another process, or mined already so the simulation now reverts): its answer.
      const now = await this.records.submission(orderId);
      if (now) return this.existing(order, now, signature);
      throw e;
    }
    const { net, tx } = accepted;
    const relayer = net.wallet.address.toLowerCase();
    const seen = await observeChain(this.d.pool, net, relayer);
    const claim = await this.records.claim(order, signature, net, seen, tx, this.d.options);
    if ('existing' in claim) return this.existing(order, claim.existing, signature);
    const { reconciled, stored, hash } = claim.created;
    if (repaired(reconciled, stored)) QUOTE_METRICS.nonceReconciled.inc({ network: net.network });
    if (reconciled.next !== stored)
      this.log('relayer nonce reconciled with the chain', {
        network: net.network,
        relayer,
        stored: stored.toString(),
        next: reconciled.next.toString(),
        reopened: reconciled.reopened,
        holes: reconciled.holes.map(String),
      });
    this.log('signed order accepted', { orderId, network: net.network, nonce: reconciled.next.toString(), txHash: hash });
    this.d.fault?.('after-sign');
    await this.afterReconcile(net, reconciled);
    await this.broadcastLatest(orderId);
    this.d.fault?.('after-broadcast');
    for (const fn of this.submitted) fn(orderId);
    return this.view(order);
  }

  /** A second POST of a submitted order: its state, or 409 for another signature. */
  private async existing(order: StoredOrder, sub: SubmissionRow, signature: string): Promise<StoredOrderReply> {
    if (sub.signature !== signature.toLowerCase()) {
      throw new ServiceError(
        ErrorCode.ERROR_CODE_CONFLICT,
        `order ${order.orderId} was already submitted with another signature (transaction ${(await this.records.latestHash(order.orderId)) ?? 'pending'}); a new order needs a new quote`,
      );
    }
    return this.view(order);
  }

  /** Checks and simulation before the claim (RPC, no database transaction): the transaction to sign. */
  private async accept(order: StoredOrder, signature: string): Promise<{ net: RelayNetwork; tx: Unsigned }> {
    const typed = order.reply.signedOrder;
    if (!typed)
      throw bad(
        `order ${order.orderId} has no signed-order variant (native input, a cross-chain order, or an input too small to pay the relayer's gas); send context.tx yourself`,
      );
    const value = typed.value as Record<string, string | number>;
    const net = relayNetwork(this.d, order.network);
    if ((await chainNow(net)) >= Number(value['deadline']))
      throw bad(`order ${order.orderId} expired at ${order.expiresAt.toISOString()}; get a new quote from GET /v2/portal`);
    const check = checkOrderSignature(typed as unknown as SignedOrderTyped, signature, order.sender);
    if (!check.ok) throw bad(check.message);
    const signed = signedOrderOf(value, order.calls, net.wallet.address);
    const data = encodeExecuteSignedOrder(signed, signature, order.calls);
    const sim = await simulateTx(net.rpc, { from: net.wallet.address.toLowerCase(), to: net.router, data, value: 0n });
    if (!sim.ok)
      throw bad(
        `the order would revert on-chain (${sim.message}), so the relayer does not send it; check the sender's balance and allowance (GET /v2/approval), or re-quote`,
      );
    const gasLimit = (sim.gas * BigInt(100 + this.d.options.gasBufferPercent)) / 100n;
    const fees = await currentFees(net);
    this.checkFeeCoversGas(order, signed, sim.gas, fees.expected);
    // The first bid stays under the fee ceiling too, but never below what the next block needs.
    const ceiling = feeCeilingPerGas(net.network, signed, gasLimit, this.d.options.maxFeeMultiplier, this.d.token);
    const maxFee = ceiling !== undefined && ceiling < fees.maxFee ? max(ceiling, fees.expected) : fees.maxFee;
    return { net, tx: { to: net.router, data, gasLimit, maxFee, priority: min(fees.priority, maxFee) } };
  }

  /** The relayer takes its gas back in the input token: refuse when that no longer pays for it. */
  private checkFeeCoversGas(order: StoredOrder, signed: SignedRouterOrder, gas: bigint, gasPrice: bigint): void {
    const native = this.d.token(order.network, NATIVE);
    const input = this.d.token(order.network, signed.inputToken.toLowerCase());
    if (!native || !input || native.priceUsd <= 0 || input.priceUsd <= 0)
      throw bad(`no USD price for the input or native token of ${order.network} to check the relayer's fee; try again shortly`);
    const costUsd = (Number(gas * gasPrice) / 1e18) * native.priceUsd;
    const feeUsd = (Number(signed.relayerFee) / 10 ** input.decimals) * input.priceUsd;
    if (feeUsd < costUsd) {
      throw bad(
        `the order's relayer fee (${signed.relayerFee} base units, $${feeUsd.toPrecision(4)}) no longer covers the gas ($${costUsd.toPrecision(4)} at the current gas price); get a new quote`,
      );
    }
  }

  /** Sends the latest signed transaction (checked first, see RelaySender.send). */
  private async broadcastLatest(orderId: string): Promise<void> {
    const sub = await this.records.submission(orderId);
    const tx = (await this.records.transactions(orderId)).at(-1);
    if (!sub || !tx || sub.state !== 'pending') return;
    await this.sender.send(relayNetwork(this.d, sub.network as Network), sub, tx);
  }

  /**
   * Reconciles the stored nonce of every network (or one) with its chain (see nonce-reconciler.ts):
   * at start, and when a transaction waits behind a gap. Returns the orders opened again.
   */
  async reconcile(only?: RelayNetwork): Promise<string[]> {
    const reopened: string[] = [];
    for (const net of only ? [only] : [...this.d.networks.values()]) {
      const relayer = net.wallet.address.toLowerCase();
      const seen = await observeChain(this.d.pool, net, relayer);
      const { r, stored } = await this.records.tx(async (client) => {
        const stored = await this.records.lockNonce(client, net.network, relayer);
        return { r: await reconcileLocked(client, net, relayer, stored, seen), stored };
      });
      if (repaired(r, stored)) QUOTE_METRICS.nonceReconciled.inc({ network: net.network });
      if (r.next < stored)
        this.log('relayer nonce brought back to the chain', {
          network: net.network,
          relayer,
          stored: stored.toString(),
          next: r.next.toString(),
          reopened: r.reopened,
          holes: r.holes.map(String),
        });
      await this.afterReconcile(net, r);
      reopened.push(...r.reopened);
    }
    return reopened;
  }

  /** After the commit: gaps filled, reopened orders handed to the tracker. */
  private async afterReconcile(net: RelayNetwork, r: Reconciled): Promise<void> {
    if (r.holes.length > 0) {
      await fillHoles(net, r.holes, await currentFees(net));
      QUOTE_METRICS.nonceHolesFilled.inc({ network: net.network }, r.holes.length);
    }
    for (const id of r.reopened) for (const fn of this.submitted) fn(id);
  }

  /**
   * One step of tracking: records a mined transaction, or replaces a stuck one with a fee bump
   * (a cancellation when the order's deadline has passed), or re-broadcasts. True once final.
   */
  async advance(orderId: string): Promise<boolean> {
    const sub = await this.records.submission(orderId);
    if (!sub) return true;
    if (sub.state !== 'pending') return true;
    const net = relayNetwork(this.d, sub.network as Network);
    const txs = await this.records.transactions(orderId);
    // The count before the receipts: a block mined in between then shows in the receipts, and is
    // not taken for someone else's use of the nonce (the latest transaction may be old: a bid held
    // at the fee ceiling).
    const mined = BigInt(await net.rpc.call<string>('eth_getTransactionCount', [sub.relayer, 'latest']));
    for (const tx of [...txs].reverse()) {
      const receipt = await net.rpc.call<Receipt | null>('eth_getTransactionReceipt', [tx.tx_hash]);
      if (!receipt) continue;
      this.d.fault?.('after-mined');
      await this.finish(sub, await outcomeOf(net, this.d.store, sub, tx, receipt));
      return true;
    }
    if (mined > BigInt(sub.nonce)) {
      // The nonce is used but by none of our hashes yet: receipts may lag; look again next time, then give up.
      const age = Date.now() - txs.at(-1)!.created_at.getTime();
      if (age > this.d.options.replaceAfterMs * 4) {
        await this.finish(sub, {
          state: 'dropped',
          reason: `nonce ${sub.nonce} of ${sub.relayer} was used by a transaction the relayer did not record`,
        });
        return true;
      }
      return false;
    }
    const latest = txs.at(-1)!;
    // Never sent yet (just signed, crashed before the broadcast, or opened again after the chain lost it): send it first.
    if (latest.broadcast_at && Date.now() - latest.broadcast_at.getTime() >= this.d.options.replaceAfterMs) {
      // Waiting behind a nonce that nothing pending will fill: close the gap rather than bid higher behind it.
      if (mined < BigInt(sub.nonce)) await this.reconcile(net);
      await this.sender.replace(net, sub, latest, {});
      return false;
    }
    await this.sender.send(net, sub, latest);
    return false;
  }

  private async finish(sub: SubmissionRow, r: Parameters<RelayRecords['finish']>[1]): Promise<void> {
    const orderId = sub.order_id;
    await this.records.finish(orderId, r);
    QUOTE_METRICS.relayFinal.inc({ network: sub.network, state: r.state });
    this.log('relayed order final', { orderId, state: r.state, txHash: r.txHash, reason: r.reason });
  }

  /** Orders submitted but not final (the worker resumes them after a restart). */
  async openOrders(): Promise<string[]> {
    return this.records.openOrders();
  }

  /** GET /v2/portal/status */
  async status(orderId: string): Promise<StoredOrderReply> {
    const order = await this.d.store.find(orderId);
    if (!order)
      throw new ServiceError(
        ErrorCode.ERROR_CODE_NOT_FOUND,
        `order ${orderId} not found: it was never quoted, or its week of retention is over`,
      );
    return this.view(order);
  }

  private async view(order: StoredOrder): Promise<StoredOrderReply> {
    const sub = await this.records.submission(order.orderId);
    const txs = sub ? await this.records.transactions(order.orderId) : [];
    return { order: order.reply, relay: relayState(order, sub, txs) };
  }
}
