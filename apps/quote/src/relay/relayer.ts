/**
 * The signed-order relayer: submits a stored order's signed variant with the service's gas wallet
 * and drives it until it is mined, exactly once.
 *
 * Postgres is the truth, not memory or the queue:
 * - a submission is created under the order's row lock, so concurrent POSTs of one order wait for
 *   the first and get its transaction hash (the primary key makes a second one impossible);
 * - the nonce comes from `relayer_nonces` under a row lock (raised to the chain's if behind), and
 *   the signed raw transaction is stored in the same database transaction that takes the nonce:
 *   once committed it is always broadcast (again) until something with that nonce is mined, so a
 *   crash leaves neither a lost order nor a nonce gap;
 * - every transaction ever signed (the first and each fee bump) is kept and each hash is checked
 *   for a receipt, since an earlier one may be the one mined.
 * `advance` is idempotent; the BullMQ worker calls it until the submission is final.
 */
import { Interface, Transaction, type Wallet } from 'ethers';
import type { Pool, PoolClient } from 'pg';
import { JsonRpcError, type JsonRpcClient } from '@tokensvc/chain';
import { encodeExecuteSignedOrder, routerInterface, type SignedRouterOrder } from '@tokensvc/contracts';
import type { Network } from '@tokensvc/domain';
import { ErrorCode, type RelayState, type StoredOrderReply } from '@tokensvc/messages';
import { ServiceError } from '@tokensvc/transport';
import { simulateTx } from '../chain/simulate';
import { fillHoles, reconcileLocked, type Reconciled } from './nonce-reconciler';
import type { OrderStore, StoredOrder } from './order-store';
import { feeCeilingPerGas, notSentReason, recheckOrderTx } from './relay-guards';
import { checkOrderSignature, type SignedOrderTyped } from './signature-check';
import { signedOrderOf } from './signed-order-value';

export interface RelayNetwork {
  network: Network;
  chainId: number;
  router: string;
  rpc: JsonRpcClient;
  /** the gas wallet (no provider: it only signs) */
  wallet: Wallet;
}

export interface RelayOptions {
  /** a transaction not mined after this long is replaced with a fee bump */
  replaceAfterMs: number;
  /** fee bump of a replacement, percent (at least 10, what nodes require) */
  feeBumpPercent: number;
  /** open (unmined) submissions allowed per sender */
  maxPendingPerSender: number;
  /** gas limit = estimate * (100 + this) / 100 */
  gasBufferPercent: number;
  /**
   * no order transaction bids a maxFeePerGas above this many times the gas price its relayer fee
   * pays for (fee / gas limit): a bump that would is not sent (see relay-guards.ts)
   */
  maxFeeMultiplier: number;
}

/** Where a test may kill the relayer (SIGKILL) to prove nothing is lost. */
export type RelayFaultPoint = 'after-sign' | 'after-broadcast' | 'after-mined' | 'during-replacement';

export interface RelayDeps {
  pool: Pool;
  store: OrderStore;
  networks: ReadonlyMap<Network, RelayNetwork>;
  /** USD price and decimals of a token (lowercase address, zero address = native), for the gas-fee check */
  token: (network: Network, address: string) => { priceUsd: number; decimals: number } | undefined;
  options: RelayOptions;
  fault?: (point: RelayFaultPoint) => void;
  log?: (msg: string, extra?: Record<string, unknown>) => void;
}

interface SubmissionRow {
  order_id: string;
  network: string;
  sender: string;
  signature: string;
  relayer: string;
  nonce: string;
  state: 'pending' | 'mined' | 'reverted' | 'expired' | 'dropped';
  status_reason: string | null;
  mined_tx_hash: string | null;
  block_number: string | null;
  gas_used: string | null;
  output_amount: string | null;
}

interface TxRow {
  tx_hash: string;
  attempt: number;
  raw: string;
  max_fee_per_gas: string;
  max_priority_fee_per_gas: string;
  kind: 'order' | 'cancel';
  created_at: Date;
  broadcast_at: Date | null;
}

interface Receipt {
  status: string;
  blockNumber: string;
  gasUsed: string;
  transactionHash: string;
  logs: Array<{ address: string; topics: string[]; data: string }>;
}

const SIGNED_ORDER_EXECUTED = routerInterface().getEvent('SignedOrderExecuted')!.topicHash;
const ERC20 = new Interface(['event Transfer(address indexed from, address indexed to, uint256 value)']);
const TRANSFER = ERC20.getEvent('Transfer')!.topicHash;

const NATIVE = '0x0000000000000000000000000000000000000000';
const bad = (m: string): ServiceError => new ServiceError(ErrorCode.ERROR_CODE_BAD_REQUEST, m);

export class Relayer {
  private readonly submitted: Array<(orderId: string) => void> = [];

  constructor(private readonly d: RelayDeps) {}

  /** `fn` runs after each new submission is committed and broadcast (the queue tracks it). */
  onSubmitted(fn: (orderId: string) => void): void {
    this.submitted.push(fn);
  }

  private net(network: Network): RelayNetwork {
    const n = this.d.networks.get(network);
    if (!n) throw new ServiceError(ErrorCode.ERROR_CODE_UNAVAILABLE, `no relayer wallet is configured for ${network}; send the order's tx yourself`);
    return n;
  }

  private log(msg: string, extra?: Record<string, unknown>): void {
    this.d.log?.(msg, extra);
  }

  /** POST /v2/portal: the stored order's relaying state after submitting it (at most once). */
  async submit(orderId: string, signature: string): Promise<StoredOrderReply> {
    const client = await this.d.pool.connect();
    let order: StoredOrder | undefined;
    let created: Reconciled | undefined;
    try {
      await client.query('BEGIN');
      order = await this.d.store.find(orderId, client, { forUpdate: true });
      if (!order) throw new ServiceError(ErrorCode.ERROR_CODE_NOT_FOUND, `order ${orderId} not found: it was never quoted, or its week of retention is over; get a new quote from GET /v2/portal`);
      const existing = await this.submission(client, orderId);
      if (existing) {
        await client.query('COMMIT');
        if (existing.signature !== signature.toLowerCase()) {
          throw new ServiceError(ErrorCode.ERROR_CODE_CONFLICT, `order ${orderId} was already submitted with another signature (transaction ${(await this.latestHash(orderId)) ?? 'pending'}); a new order needs a new quote`);
        }
      } else {
        const reconciled = await this.createSubmission(client, order, signature);
        await client.query('COMMIT');
        created = reconciled;
        this.d.fault?.('after-sign');
      }
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      client.release();
    }
    if (created) {
      await this.afterReconcile(this.net(order.network), created);
      await this.broadcastLatest(orderId);
      this.d.fault?.('after-broadcast');
      for (const fn of this.submitted) fn(orderId);
    }
    return this.view(order);
  }

  /** Checks, simulation, nonce, signing and storing: all or nothing (one database transaction). */
  private async createSubmission(client: PoolClient, order: StoredOrder, signature: string): Promise<Reconciled> {
    const typed = order.reply.signedOrder;
    if (!typed) throw bad(`order ${order.orderId} has no signed-order variant (native input, a cross-chain order, or an input too small to pay the relayer's gas); send context.tx yourself`);
    const value = typed.value as Record<string, string | number>;
    const net = this.net(order.network);
    if ((await chainNow(net)) >= Number(value['deadline'])) throw bad(`order ${order.orderId} expired at ${order.expiresAt.toISOString()}; get a new quote from GET /v2/portal`);
    const check = checkOrderSignature(typed as unknown as SignedOrderTyped, signature, order.sender);
    if (!check.ok) throw bad(check.message);
    // One sender's submissions take turns (a lock held to the commit): counted one at a time, the
    // cap holds however many arrive at once (each would otherwise count before any other commits).
    await client.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`relay-sender:${order.sender}`]);
    const pending = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM relay_submissions WHERE sender = $1 AND state = 'pending'`, [order.sender]);
    if (pending.rows[0]!.n >= this.d.options.maxPendingPerSender) {
      throw new ServiceError(ErrorCode.ERROR_CODE_RATE_LIMITED, `sender ${order.sender} already has ${pending.rows[0]!.n} relayed orders pending (limit ${this.d.options.maxPendingPerSender}); wait until they are mined`);
    }
    const signed = signedOrderOf(value, order.calls, net.wallet.address);
    const data = encodeExecuteSignedOrder(signed, signature, order.calls);
    const relayer = net.wallet.address.toLowerCase();
    const sim = await simulateTx(net.rpc, { from: relayer, to: net.router, data, value: 0n });
    if (!sim.ok) throw bad(`the order would revert on-chain (${sim.message}), so the relayer does not send it; check the sender's balance and allowance (GET /v2/approval), or re-quote`);
    const gasLimit = (sim.gas * BigInt(100 + this.d.options.gasBufferPercent)) / 100n;
    const fees = await this.fees(net);
    this.checkFeeCoversGas(order, signed, sim.gas, fees.expected);
    // The first bid stays under the fee ceiling too, but never below what the next block needs.
    const ceiling = feeCeilingPerGas(net.network, signed, gasLimit, this.d.options.maxFeeMultiplier, this.d.token);
    const maxFee = ceiling !== undefined && ceiling < fees.maxFee ? max(ceiling, fees.expected) : fees.maxFee;

    await client.query(`INSERT INTO relayer_nonces (network, relayer, next_nonce) VALUES ($1, $2, 0) ON CONFLICT DO NOTHING`, [net.network, relayer]);
    const { rows } = await client.query<{ next_nonce: string }>(`SELECT next_nonce FROM relayer_nonces WHERE network = $1 AND relayer = $2 FOR UPDATE`, [net.network, relayer]);
    const stored = BigInt(rows[0]!.next_nonce);
    // Raised to the chain's count if behind, brought back (and the gap closed) if ahead of it.
    const reconciled = await reconcileLocked(client, net, relayer, stored);
    const nonce = reconciled.next;
    if (nonce !== stored) this.log('relayer nonce reconciled with the chain', { network: net.network, relayer, stored: stored.toString(), next: nonce.toString(), reopened: reconciled.reopened, holes: reconciled.holes.map(String) });
    const raw = await net.wallet.signTransaction({ type: 2, chainId: net.chainId, nonce: Number(nonce), to: net.router, data, value: 0n, gasLimit, maxFeePerGas: maxFee, maxPriorityFeePerGas: min(fees.priority, maxFee) });
    const hash = Transaction.from(raw).hash!;
    await client.query(
      `INSERT INTO relay_submissions (order_id, network, sender, signature, relayer, nonce, state) VALUES ($1, $2, $3, $4, $5, $6, 'pending')`,
      [order.orderId, net.network, order.sender, signature.toLowerCase(), relayer, nonce.toString()],
    );
    await client.query(
      `INSERT INTO relay_transactions (tx_hash, order_id, attempt, raw, max_fee_per_gas, max_priority_fee_per_gas, kind) VALUES ($1, $2, 0, $3, $4, $5, 'order')`,
      [hash, order.orderId, raw, maxFee.toString(), min(fees.priority, maxFee).toString()],
    );
    await client.query(`UPDATE relayer_nonces SET next_nonce = $3 WHERE network = $1 AND relayer = $2`, [net.network, relayer, (nonce + 1n).toString()]);
    this.log('signed order accepted', { orderId: order.orderId, network: net.network, nonce: nonce.toString(), txHash: hash });
    return reconciled;
  }

  /** The relayer takes its gas back in the input token: refuse when that no longer pays for it. */
  private checkFeeCoversGas(order: StoredOrder, signed: SignedRouterOrder, gas: bigint, gasPrice: bigint): void {
    const native = this.d.token(order.network, NATIVE);
    const input = this.d.token(order.network, signed.inputToken.toLowerCase());
    if (!native || !input || native.priceUsd <= 0 || input.priceUsd <= 0) throw bad(`no USD price for the input or native token of ${order.network} to check the relayer's fee; try again shortly`);
    const costUsd = (Number(gas * gasPrice) / 1e18) * native.priceUsd;
    const feeUsd = (Number(signed.relayerFee) / 10 ** input.decimals) * input.priceUsd;
    if (feeUsd < costUsd) {
      throw bad(`the order's relayer fee (${signed.relayerFee} base units, $${feeUsd.toPrecision(4)}) no longer covers the gas ($${costUsd.toPrecision(4)} at the current gas price); get a new quote`);
    }
  }

  /** EIP-1559 fees: tip 1 gwei or the node's suggestion; cap 2x base fee + tip. */
  private async fees(net: RelayNetwork): Promise<{ maxFee: bigint; priority: bigint; expected: bigint }> {
    const [block, tipHex] = await Promise.all([net.rpc.call<{ baseFeePerGas?: string }>('eth_getBlockByNumber', ['latest', false]), net.rpc.call<string>('eth_maxPriorityFeePerGas').catch(() => '0x3b9aca00')]);
    const base = BigInt(block.baseFeePerGas ?? '0x0');
    const priority = BigInt(tipHex) > 0n ? BigInt(tipHex) : 1_000_000_000n;
    return { maxFee: base * 2n + priority, priority, expected: base + priority };
  }

  private async submission(db: Pick<PoolClient, 'query'>, orderId: string, forUpdate = false): Promise<SubmissionRow | undefined> {
    const { rows } = await db.query<SubmissionRow>(`SELECT * FROM relay_submissions WHERE order_id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [orderId]);
    return rows[0];
  }

  private async transactions(db: Pick<PoolClient, 'query'>, orderId: string): Promise<TxRow[]> {
    const { rows } = await db.query<TxRow>(`SELECT * FROM relay_transactions WHERE order_id = $1 ORDER BY attempt`, [orderId]);
    return rows;
  }

  private async latestHash(orderId: string): Promise<string | undefined> {
    const txs = await this.transactions(this.d.pool, orderId);
    return txs.at(-1)?.tx_hash;
  }

  /** Sends the latest signed transaction (checked first, see `send`). */
  private async broadcastLatest(orderId: string): Promise<void> {
    const sub = await this.submission(this.d.pool, orderId);
    const tx = (await this.transactions(this.d.pool, orderId)).at(-1);
    if (!sub || !tx || sub.state !== 'pending') return;
    await this.send(this.net(sub.network as Network), sub, tx);
  }

  /**
   * Broadcasts `tx`, an order only after simulating it again: one that would now revert is never
   * sent (a 0-value replacement frees its nonce, for 21,000 gas instead of a paid revert), one that
   * now needs more gas than its limit is replaced at once with a higher limit.
   */
  private async send(net: RelayNetwork, sub: SubmissionRow, tx: TxRow): Promise<void> {
    if (tx.kind === 'order') {
      const check = await recheckOrderTx(net, Transaction.from(tx.raw));
      if (!check.ok) {
        this.log('order would now revert: not broadcast, its nonce is freed', { orderId: sub.order_id, reason: check.reason });
        await this.replace(net, sub, tx, { abandon: notSentReason(check.reason) });
        return;
      }
      if (check.gas > Transaction.from(tx.raw).gasLimit) {
        await this.replace(net, sub, tx, { gas: check.gas });
        return;
      }
    }
    await this.broadcast(net, tx);
  }

  /**
   * Reconciles the stored nonce of every network (or one) with its chain (see nonce-reconciler.ts):
   * at start, and when a transaction waits behind a gap. Returns the orders opened again.
   */
  async reconcile(only?: RelayNetwork): Promise<string[]> {
    const reopened: string[] = [];
    for (const net of only ? [only] : [...this.d.networks.values()]) {
      const relayer = net.wallet.address.toLowerCase();
      const client = await this.d.pool.connect();
      let r: Reconciled;
      let stored: bigint;
      try {
        await client.query('BEGIN');
        await client.query(`INSERT INTO relayer_nonces (network, relayer, next_nonce) VALUES ($1, $2, 0) ON CONFLICT DO NOTHING`, [net.network, relayer]);
        const { rows } = await client.query<{ next_nonce: string }>(`SELECT next_nonce FROM relayer_nonces WHERE network = $1 AND relayer = $2 FOR UPDATE`, [net.network, relayer]);
        stored = BigInt(rows[0]!.next_nonce);
        r = await reconcileLocked(client, net, relayer, stored);
        await client.query('COMMIT');
      } catch (e) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw e;
      } finally {
        client.release();
      }
      if (r.next < stored) this.log('relayer nonce brought back to the chain', { network: net.network, relayer, stored: stored.toString(), next: r.next.toString(), reopened: r.reopened, holes: r.holes.map(String) });
      await this.afterReconcile(net, r);
      reopened.push(...r.reopened);
    }
    return reopened;
  }

  /** After the commit: gaps filled, reopened orders handed to the tracker. */
  private async afterReconcile(net: RelayNetwork, r: Reconciled): Promise<void> {
    if (r.holes.length > 0) await fillHoles(net, r.holes, await this.fees(net));
    for (const id of r.reopened) for (const fn of this.submitted) fn(id);
  }

  private async broadcast(net: RelayNetwork, tx: TxRow): Promise<void> {
    try {
      await net.rpc.call<string>('eth_sendRawTransaction', [tx.raw]);
    } catch (e) {
      if (!(e instanceof JsonRpcError)) throw e;
      const m = e.rpcMessage.toLowerCase();
      // Known, already mined (nonce used), or underpriced next to our own newer replacement: the receipt check settles it.
      // Below the current base fee (a node that refuses rather than queues): the replacement bumps it.
      if (!/already known|already imported|nonce too low|nonce has already been used|underpriced|replacement|less than block base fee/.test(m)) throw e;
    }
    await this.d.pool.query(`UPDATE relay_transactions SET broadcast_at = coalesce(broadcast_at, now()) WHERE tx_hash = $1`, [tx.tx_hash]);
  }

  /**
   * One step of tracking: records a mined transaction, or replaces a stuck one with a fee bump
   * (a cancellation when the order's deadline has passed), or re-broadcasts. True once final.
   */
  async advance(orderId: string): Promise<boolean> {
    const sub = await this.submission(this.d.pool, orderId);
    if (!sub) return true;
    if (sub.state !== 'pending') return true;
    const net = this.net(sub.network as Network);
    const txs = await this.transactions(this.d.pool, orderId);
    // The count before the receipts: a block mined in between then shows in the receipts, and is
    // not taken for someone else's use of the nonce (the latest transaction may be old: a bid held
    // at the fee ceiling).
    const mined = BigInt(await net.rpc.call<string>('eth_getTransactionCount', [sub.relayer, 'latest']));
    for (const tx of [...txs].reverse()) {
      const receipt = await net.rpc.call<Receipt | null>('eth_getTransactionReceipt', [tx.tx_hash]);
      if (!receipt) continue;
      this.d.fault?.('after-mined');
      await this.record(net, sub, tx, receipt);
      return true;
    }
    if (mined > BigInt(sub.nonce)) {
      // The nonce is used but by none of our hashes yet: receipts may lag; look again next time, then give up.
      const age = Date.now() - txs.at(-1)!.created_at.getTime();
      if (age > this.d.options.replaceAfterMs * 4) {
        await this.finish(sub.order_id, { state: 'dropped', reason: `nonce ${sub.nonce} of ${sub.relayer} was used by a transaction the relayer did not record` });
        return true;
      }
      return false;
    }
    const latest = txs.at(-1)!;
    // Never sent yet (just signed, crashed before the broadcast, or opened again after the chain lost it): send it first.
    if (latest.broadcast_at && Date.now() - latest.broadcast_at.getTime() >= this.d.options.replaceAfterMs) {
      // Waiting behind a nonce that nothing pending will fill: close the gap rather than bid higher behind it.
      if (mined < BigInt(sub.nonce)) await this.reconcile(net);
      await this.replace(net, sub, latest, {});
      return false;
    }
    await this.send(net, sub, latest);
    return false;
  }

  /**
   * Replaces `latest` at its nonce: with the same order at higher fees (and gas limit if needed), or
   * with a 0-value transaction to the relayer itself once the order can only revert (deadline
   * passed, or `abandon`: the re-simulation failed). Checks run before the row lock (no RPC under
   * it but the signing); an order bump above the fee ceiling is not sent (the old bid stays).
   */
  private async replace(net: RelayNetwork, sub: SubmissionRow, latest: TxRow, o: { abandon?: string; gas?: bigint }): Promise<void> {
    const order = await this.d.store.find(sub.order_id);
    const value = order?.reply.signedOrder?.value as Record<string, string> | undefined;
    const deadline = value ? Number(value['deadline']) : 0;
    const previous = Transaction.from(latest.raw);
    let reason = o.abandon;
    let gas = o.gas;
    // Past the deadline the order can only revert: free the nonce with a 0-value transfer to ourselves instead.
    const expired = (await chainNow(net)) >= deadline;
    if (!expired && reason === undefined && latest.kind === 'order' && gas === undefined) {
      const check = await recheckOrderTx(net, previous);
      if (check.ok) gas = check.gas;
      else reason = notSentReason(check.reason);
    }
    let cancel = expired || reason !== undefined || latest.kind === 'cancel';
    let gasLimit = cancel ? 21_000n : max(previous.gasLimit, ((gas ?? 0n) * BigInt(100 + this.d.options.gasBufferPercent)) / 100n);
    const fees = await this.fees(net);
    const bump = (v: bigint): bigint => (v * BigInt(100 + this.d.options.feeBumpPercent) + 99n) / 100n;
    let priority = max(bump(BigInt(latest.max_priority_fee_per_gas)), fees.priority);
    let maxFee = max(bump(BigInt(latest.max_fee_per_gas)), fees.maxFee, priority);
    if (!cancel) {
      // A cancellation costs 21,000 gas and must get through (it frees the nonce): only order bumps are capped.
      const ceiling = value ? feeCeilingPerGas(net.network, { inputToken: String(value['inputToken']), relayerFee: BigInt(value['relayerFee']!) }, gasLimit, this.d.options.maxFeeMultiplier, this.d.token) : undefined;
      if (ceiling === undefined || bump(BigInt(latest.max_fee_per_gas)) > ceiling || bump(BigInt(latest.max_priority_fee_per_gas)) > ceiling) {
        if (gas === undefined || gas <= previous.gasLimit) {
          this.log('stuck transaction at the fee ceiling: not bumped', { orderId: sub.order_id, txHash: latest.tx_hash, maxFeePerGas: latest.max_fee_per_gas, ceiling: ceiling?.toString() });
          await this.broadcast(net, latest);
          return;
        }
        // The old transaction would run out of gas and no new limit fits under the ceiling: do not send it.
        reason = `not sent: the order now needs ${gas} gas, more than its transaction's limit of ${previous.gasLimit}, and a higher limit would pass the fee ceiling (RELAY_MAX_FEE_MULTIPLIER); the relayer freed its nonce with a 0-value transaction instead`;
        cancel = true;
        gasLimit = 21_000n;
      } else {
        maxFee = min(maxFee, ceiling);
        priority = min(priority, maxFee);
      }
    }

    const client = await this.d.pool.connect();
    let next: TxRow | undefined;
    try {
      await client.query('BEGIN');
      const current = await this.submission(client, sub.order_id, true);
      const txs = await this.transactions(client, sub.order_id);
      if (current?.state !== 'pending' || txs.at(-1)!.tx_hash !== latest.tx_hash) {
        await client.query('COMMIT');
        return;
      }
      const raw = await net.wallet.signTransaction(
        cancel
          ? { type: 2, chainId: net.chainId, nonce: previous.nonce, to: net.wallet.address, data: '0x', value: 0n, gasLimit, maxFeePerGas: maxFee, maxPriorityFeePerGas: priority }
          : { type: 2, chainId: net.chainId, nonce: previous.nonce, to: previous.to, data: previous.data, value: 0n, gasLimit, maxFeePerGas: maxFee, maxPriorityFeePerGas: priority },
      );
      const hash = Transaction.from(raw).hash!;
      const { rows } = await client.query<TxRow>(
        `INSERT INTO relay_transactions (tx_hash, order_id, attempt, raw, max_fee_per_gas, max_priority_fee_per_gas, kind) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
        [hash, sub.order_id, latest.attempt + 1, raw, maxFee.toString(), priority.toString(), cancel ? 'cancel' : 'order'],
      );
      // Shown while the cancellation is pending, and the final reason once it is mined (see record).
      if (reason !== undefined && !expired) await client.query(`UPDATE relay_submissions SET status_reason = $2, updated_at = now() WHERE order_id = $1`, [sub.order_id, reason]);
      await client.query('COMMIT');
      next = rows[0];
      const what = !cancel ? 'stuck transaction replaced with a fee bump' : expired ? 'expired order cancelled with a 0-value replacement' : 'order cancelled with a 0-value replacement';
      this.log(what, { orderId: sub.order_id, attempt: latest.attempt + 1, txHash: hash, replaces: latest.tx_hash, reason });
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      client.release();
    }
    this.d.fault?.('during-replacement');
    if (next) await this.broadcast(net, next);
  }

  private async record(net: RelayNetwork, sub: SubmissionRow, tx: TxRow, receipt: Receipt): Promise<void> {
    const ok = receipt.status === '0x1';
    const base = { txHash: receipt.transactionHash, block: BigInt(receipt.blockNumber), gasUsed: BigInt(receipt.gasUsed) };
    if (tx.kind === 'cancel') {
      // A cancellation after a failed re-simulation carries its reason; otherwise the deadline passed.
      if (sub.status_reason) await this.finish(sub.order_id, { ...base, state: 'reverted', reason: sub.status_reason });
      else await this.finish(sub.order_id, { ...base, state: 'expired', reason: 'the order was not mined before its deadline; the relayer freed its nonce with a 0-value transaction and the order did not execute' });
      return;
    }
    if (!ok) {
      await this.finish(sub.order_id, { ...base, state: 'reverted', reason: await this.revertReason(net, Transaction.from(tx.raw)) });
      return;
    }
    const executed = receipt.logs.some((l) => l.address.toLowerCase() === net.router && l.topics[0] === SIGNED_ORDER_EXECUTED);
    const order = await this.d.store.find(sub.order_id);
    const value = (order?.reply.signedOrder?.value ?? {}) as Record<string, string>;
    const outputToken = String(value['outputToken'] ?? '').toLowerCase();
    const recipient = String(value['recipient'] ?? '').toLowerCase();
    let received = 0n;
    for (const l of receipt.logs) {
      if (l.address.toLowerCase() !== outputToken || l.topics[0] !== TRANSFER) continue;
      const t = ERC20.parseLog(l)!;
      if (String(t.args[1]).toLowerCase() === recipient) received += t.args[2] as bigint;
    }
    await this.finish(sub.order_id, { ...base, state: executed ? 'mined' : 'reverted', reason: executed ? undefined : 'mined without executing the order', received: outputToken === NATIVE ? undefined : received });
  }

  /** Why a mined transaction reverted, by running it again on the state after its block (close enough to name the cause). */
  private async revertReason(net: RelayNetwork, tx: Transaction): Promise<string> {
    const sim = await simulateTx(net.rpc, { from: tx.from!, to: tx.to!, data: tx.data, value: 0n }).catch(() => undefined);
    return sim && !sim.ok ? `execution reverted: ${sim.message}` : 'execution reverted';
  }

  private async finish(orderId: string, r: { state: SubmissionRow['state']; reason?: string; txHash?: string; block?: bigint; gasUsed?: bigint; received?: bigint }): Promise<void> {
    await this.d.pool.query(
      `UPDATE relay_submissions SET state = $2, status_reason = $3, mined_tx_hash = $4, block_number = $5, gas_used = $6, output_amount = $7, updated_at = now()
       WHERE order_id = $1 AND state = 'pending'`,
      [orderId, r.state, r.reason ?? null, r.txHash ?? null, r.block?.toString() ?? null, r.gasUsed?.toString() ?? null, r.received?.toString() ?? null],
    );
    this.log('relayed order final', { orderId, state: r.state, txHash: r.txHash, reason: r.reason });
  }

  /** Orders submitted but not final (the worker resumes them after a restart). */
  async openOrders(): Promise<string[]> {
    const { rows } = await this.d.pool.query<{ order_id: string }>(`SELECT order_id FROM relay_submissions WHERE state = 'pending' ORDER BY created_at`);
    return rows.map((r) => r.order_id);
  }

  /** GET /v2/portal/status */
  async status(orderId: string): Promise<StoredOrderReply> {
    const order = await this.d.store.find(orderId);
    if (!order) throw new ServiceError(ErrorCode.ERROR_CODE_NOT_FOUND, `order ${orderId} not found: it was never quoted, or its week of retention is over`);
    return this.view(order);
  }

  private async view(order: StoredOrder): Promise<StoredOrderReply> {
    const sub = await this.submission(this.d.pool, order.orderId);
    const txs = sub ? await this.transactions(this.d.pool, order.orderId) : [];
    return { order: order.reply, relay: relayState(order, sub, txs) };
  }
}

/** Seconds now as the Router judges deadlines: block time, which may run ahead of this clock (time control, drift). */
async function chainNow(net: RelayNetwork): Promise<number> {
  const head = await net.rpc.call<{ timestamp: string }>('eth_getBlockByNumber', ['latest', false]);
  return Math.max(Math.floor(Date.now() / 1000), Number(BigInt(head.timestamp)));
}

function relayState(order: StoredOrder, sub: SubmissionRow | undefined, txs: TxRow[]): RelayState {
  if (!sub) {
    const expired = Date.now() >= order.expiresAt.getTime();
    return {
      status: expired ? 'expired' : 'quoted',
      statusReason: expired ? `the quote expired at ${order.expiresAt.toISOString()} without being submitted; get a new quote` : undefined,
      txHashes: [],
    };
  }
  const status = sub.state === 'dropped' ? 'reverted' : sub.state;
  return {
    status,
    statusReason: sub.status_reason ?? undefined,
    txHash: sub.mined_tx_hash ?? txs.at(-1)?.tx_hash,
    txHashes: txs.map((t) => t.tx_hash),
    blockNumber: sub.block_number ?? undefined,
    gasUsed: sub.gas_used ?? undefined,
    receivedAmount: sub.output_amount ?? undefined,
    relayer: sub.relayer,
  };
}

const max = (...v: bigint[]): bigint => v.reduce((a, b) => (a > b ? a : b));
const min = (...v: bigint[]): bigint => v.reduce((a, b) => (a < b ? a : b));
