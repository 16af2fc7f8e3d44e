/**
 * Sending a stored transaction and replacing a stuck one. The chain is asked first (re-simulation,
 * fees, block time) with no database transaction open; the replacement is then stored in a short
 * transaction that checks the transaction it replaces is still the newest of a pending order, and
 * broadcast after the commit.
 */
import { Transaction } from 'ethers';
import { JsonRpcError } from '@tokensvc/chain';
import { feeCeilingPerGas, notSentReason, recheckOrderTx } from './relay-guards';
import type { RelayRecords } from './relay-records';
import { max, min, type RelayDeps, type RelayNetwork, type SubmissionRow, type TxRow } from './relay-types';

export interface Fees {
  maxFee: bigint;
  priority: bigint;
  expected: bigint;
}

/** EIP-1559 fees: tip 1 gwei or the node's suggestion; cap 2x base fee + tip. */
export async function currentFees(net: RelayNetwork): Promise<Fees> {
  const [block, tipHex] = await Promise.all([
    net.rpc.call<{ baseFeePerGas?: string }>('eth_getBlockByNumber', ['latest', false]),
    net.rpc.call<string>('eth_maxPriorityFeePerGas').catch(() => '0x3b9aca00'),
  ]);
  const base = BigInt(block.baseFeePerGas ?? '0x0');
  const priority = BigInt(tipHex) > 0n ? BigInt(tipHex) : 1_000_000_000n;
  return { maxFee: base * 2n + priority, priority, expected: base + priority };
}

/** Seconds now as the Router judges deadlines: block time, which may run ahead of this clock (time control, drift). */
export async function chainNow(net: RelayNetwork): Promise<number> {
  const head = await net.rpc.call<{ timestamp: string }>('eth_getBlockByNumber', ['latest', false]);
  return Math.max(Math.floor(Date.now() / 1000), Number(BigInt(head.timestamp)));
}

export class RelaySender {
  constructor(
    private readonly d: RelayDeps,
    private readonly records: RelayRecords,
  ) {}

  private log(msg: string, extra?: Record<string, unknown>): void {
    this.d.log?.(msg, extra);
  }

  /**
   * Broadcasts `tx`, an order only after simulating it again: one that would now revert is never
   * sent (a 0-value replacement frees its nonce, for 21,000 gas instead of a paid revert), one that
   * now needs more gas than its limit is replaced at once with a higher limit.
   */
  async send(net: RelayNetwork, sub: SubmissionRow, tx: TxRow): Promise<void> {
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

  async broadcast(net: RelayNetwork, tx: TxRow): Promise<void> {
    try {
      await net.rpc.call<string>('eth_sendRawTransaction', [tx.raw]);
    } catch (e) {
      if (!(e instanceof JsonRpcError)) throw e;
      const m = e.rpcMessage.toLowerCase();
      // Known, already mined (nonce used), or underpriced next to our own newer replacement: the receipt check settles it.
      // Below the current base fee (a node that refuses rather than queues): the replacement bumps it.
      if (
        !/already known|already imported|nonce too low|nonce has already been used|underpriced|replacement|less than block base fee/.test(m)
      )
        throw e;
    }
    await this.records.markBroadcast(tx.tx_hash);
  }

  /**
   * Replaces `latest` at its nonce: with the same order at higher fees (and gas limit if needed), or
   * with a 0-value transaction to the relayer itself once the order can only revert (deadline
   * passed, or `abandon`: the re-simulation failed). Checks and fee reads run before the short
   * transaction that stores the replacement (nothing in it but SQL and the signing); an order bump
   * above the fee ceiling is not sent (the old bid stays).
   */
  async replace(net: RelayNetwork, sub: SubmissionRow, latest: TxRow, o: { abandon?: string; gas?: bigint }): Promise<void> {
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
    // Read after the re-simulation: a second worker that re-checks an order a first one has just
    // had mined sees it revert (its signature nonce used). Nothing can replace a used nonce, and a
    // cancellation recorded after the mined transaction would be what a chain that later loses the
    // block is sent again instead of the order: the receipt check in Relayer.advance settles it.
    if (BigInt(await net.rpc.call<string>('eth_getTransactionCount', [sub.relayer, 'latest'])) > BigInt(previous.nonce)) {
      this.log('not replaced: its nonce is already used on chain', {
        orderId: sub.order_id,
        txHash: latest.tx_hash,
        nonce: previous.nonce,
      });
      return;
    }
    let cancel = expired || reason !== undefined || latest.kind === 'cancel';
    let gasLimit = cancel ? 21_000n : max(previous.gasLimit, ((gas ?? 0n) * BigInt(100 + this.d.options.gasBufferPercent)) / 100n);
    const fees = await currentFees(net);
    const bump = (v: bigint): bigint => (v * BigInt(100 + this.d.options.feeBumpPercent) + 99n) / 100n;
    let priority = max(bump(BigInt(latest.max_priority_fee_per_gas)), fees.priority);
    let maxFee = max(bump(BigInt(latest.max_fee_per_gas)), fees.maxFee, priority);
    if (!cancel) {
      // A cancellation costs 21,000 gas and must get through (it frees the nonce): only order bumps are capped.
      const ceiling = value
        ? feeCeilingPerGas(
            net.network,
            { inputToken: String(value['inputToken']), relayerFee: BigInt(value['relayerFee']!) },
            gasLimit,
            this.d.options.maxFeeMultiplier,
            this.d.token,
          )
        : undefined;
      if (
        ceiling === undefined ||
        bump(BigInt(latest.max_fee_per_gas)) > ceiling ||
        bump(BigInt(latest.max_priority_fee_per_gas)) > ceiling
      ) {
        if (gas === undefined || gas <= previous.gasLimit) {
          this.log('stuck transaction at the fee ceiling: not bumped', {
            orderId: sub.order_id,
            txHash: latest.tx_hash,
            maxFeePerGas: latest.max_fee_per_gas,
            ceiling: ceiling?.toString(),
          });
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

    const sign = (): Promise<string> =>
      net.wallet.signTransaction(
        cancel
          ? {
              type: 2,
              chainId: net.chainId,
              nonce: previous.nonce,
              to: net.wallet.address,
              data: '0x',
              value: 0n,
              gasLimit,
              maxFeePerGas: maxFee,
              maxPriorityFeePerGas: priority,
            }
          : {
              type: 2,
              chainId: net.chainId,
              nonce: previous.nonce,
              to: previous.to,
              data: previous.data,
              value: 0n,
              gasLimit,
              maxFeePerGas: maxFee,
              maxPriorityFeePerGas: priority,
            },
      );
    const next = await this.records.replacement(
      sub.order_id,
      latest,
      cancel ? 'cancel' : 'order',
      { maxFee, priority },
      expired ? undefined : reason,
      sign,
    );
    if (!next) return;
    const what = !cancel
      ? 'stuck transaction replaced with a fee bump'
      : expired
        ? 'expired order cancelled with a 0-value replacement'
        : 'order cancelled with a 0-value replacement';
    this.log(what, { orderId: sub.order_id, attempt: latest.attempt + 1, txHash: next.tx_hash, replaces: latest.tx_hash, reason });
    this.d.fault?.('during-replacement');
    await this.broadcast(net, next);
  }
}
